"""The page reads the hand again after each correction: the browser story's flawed photo, read by the real models.

With #13 put right and the missed 3 of characters added, the hand read again around the player's tiles puts #9 (a 6 of
bamboo under glare that the reader took for a 3) right, says so, marks it, and offers the reader's 3B back as one tap.
"""

from __future__ import annotations

import io
from pathlib import Path

import numpy as np
import pytest
from PIL import Image
from streamlit.testing.v1 import AppTest

from recognizer import SAMPLE_PHOTO
from tests.test_recognizer_reread import flawed_photo
from tests.test_webapp_app import app
from webapp import recognition

__all__ = ["app"]  # the page, fresh, with a history of its own: a fixture used by name


def test_adding_the_missed_tile_reads_the_hand_again(app: AppTest, tmp_path: Path) -> None:
    if not SAMPLE_PHOTO.exists():
        pytest.skip("the sample photo is not installed")
    try:
        recognition.load_reader()
    except recognition.ReaderMissing:
        pytest.skip("the recognizer's model is not installed")
    photo = io.BytesIO()
    Image.fromarray(np.asarray(Image.open(flawed_photo(tmp_path)))).save(photo, format="JPEG", quality=92)
    app.file_uploader(key="w_upload").set_value(("flawed.jpg", photo.getvalue(), "image/jpeg")).run()
    assert not app.exception
    version = app.session_state["review_version"]
    first = app.session_state["review"]
    if first.tile(9).code != "3B" or first.tile(13).code != "6B":
        pytest.skip("today's reader reads the flawed photo's #9 or #13 otherwise: the story starts elsewhere")
    app.selectbox(key=f"w_pick_{version}").set_value(13).run()
    app.button(key=f"w_face_{version}_5C").click().run()
    assert app.session_state["review"].tile(9).code == "3B", "with the 3C still missing, no winning hand is near"
    app.button(key=f"w_add_{version}_3C").click().run()
    assert not app.exception
    nine = app.session_state["review"].tile(9)
    assert nine.code == "6B" and nine.decoded and "chow 5B 6B 7B" in nine.decoded
    said = [w.value for w in app.warning if "Read again as one hand" in w.value]
    assert said and "#9 3B → 6B" in said[0], "the page says which tile the hand read again moved, and why"
    assert any("#9 3B → 6B" in c.value for c in app.caption), "the photo's caption marks the moved tile"
    app.selectbox(key=f"w_pick_{version}").set_value(9).run()
    assert "the reader's" in app.button(key=f"w_alt_{version}_9_3B").label, "the reader's own guess is one tap away"
    app.button(key=f"w_alt_{version}_9_3B").click().run()
    back = app.session_state["review"].tile(9)
    assert back.code == "3B" and back.confidence is None and back.decoded is None, "one tap, and #9 is the player's 3B"
