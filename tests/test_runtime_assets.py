"""The product runs without the training-data package: the page's tile faces are shipped pictures,
and the recognizer reads datasets with its own reader."""

from __future__ import annotations

import subprocess
import sys
from pathlib import Path

from PIL import Image

from scoring.tiles import ALL_CODES
from webapp.drawing import FACES_DIR, TILE_H, TILE_W, tile_face, tile_face_png

ROOT = Path(__file__).resolve().parents[1]
RUNTIME = ("scoring.service", "scoring.settle", "recognizer.pipeline", "recognizer.evaluate", "pungchow.reader",
           "webapp.drawing", "webapp.recognition", "webapp.review", "webapp.table", "webapp.widgets", "webapp.cli")


def test_every_tile_has_a_shipped_face_at_the_palette_size() -> None:
    for code in ALL_CODES:
        with Image.open(FACES_DIR / f"{code}.png") as face:
            assert face.size == (TILE_W, TILE_H), code
        assert tile_face(code).size == (TILE_W, TILE_H)
    assert tile_face_png("1B").startswith(b"\x89PNG")


def test_the_runtime_never_imports_the_training_data_package() -> None:
    imports = "; ".join(f"import {m}" for m in RUNTIME)
    code = f"import sys; {imports}; print(sorted(m for m in sys.modules if m.split('.')[0] == 'pungchow_data'))"
    out = subprocess.run([sys.executable, "-c", code], cwd=ROOT, capture_output=True, text=True, timeout=300)
    assert out.returncode == 0, out.stderr
    assert out.stdout.strip() == "[]"
