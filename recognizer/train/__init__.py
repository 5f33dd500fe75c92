"""Training (optional extra ``pip install -e .[train]``): torch is needed here and nowhere else."""
