"""Training data: synthetic finished-hand scenes, importers of real photos, manifests."""
