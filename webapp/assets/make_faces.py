"""Draw the page's tile faces into ``webapp/assets/faces/CODE.png``, one per tile code.

The page shows these pictures; it never draws them itself. They are made once, by the training
data's renderer (``pungchow_data.faces``, a build-time tool the page does not import), and shipped
with the product. Run from the repository root after changing the renderer's style::

    PYTHONPATH=.:datasets python webapp/assets/make_faces.py
"""

from __future__ import annotations

from pathlib import Path

from PIL import Image

from pungchow_data.faces import STYLES, render_face
from scoring.tiles import ALL_CODES
from webapp.drawing import FACE_STYLE, FACES_DIR, TILE_H, TILE_W


def make_face(code: str) -> Image.Image:
    """One face on white, at the palette's size."""
    rgba = Image.fromarray(render_face(STYLES[FACE_STYLE], code))
    face = Image.new("RGB", rgba.size, (255, 255, 255))
    face.paste(rgba, (0, 0), rgba)
    return face.resize((TILE_W, TILE_H), Image.Resampling.LANCZOS)


def main() -> None:
    FACES_DIR.mkdir(parents=True, exist_ok=True)
    for code in ALL_CODES:
        make_face(code).save(FACES_DIR / f"{code}.png", optimize=True)
    print(f"{len(ALL_CODES)} faces in {Path(FACES_DIR).resolve()}")


if __name__ == "__main__":
    main()
