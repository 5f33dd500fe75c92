"""Correcting one tile of a pung corrects its two twins: a pung is three of one face.

The reading below is the flawed sample photo's (``tests.test_recognizer_reread``) with its pung of 7 dots (#4, #5, #6,
laid apart) read as the 1 of dots, all three alike and the 7 nowhere among the reader's guesses: tiles of one face in
one photo look alike, so the reader is wrong about all three the same way. The player puts #4 right; #5 and #6 are the
7 of dots too, as the player's word, in one correction that one undo takes back. ``pungchow photo --tile`` says so.
"""

from __future__ import annotations

import io
from dataclasses import replace
from pathlib import Path

import numpy as np
import pytest
from PIL import Image

from pungchow.cli import main
from recognizer import SAMPLE_PHOTO
from scoring.tiles import PLAYING_CODES
from tests.test_recognizer_reread import review_as_read
from webapp import review as rv

PUNG = (4, 5, 6)
#: The pung's three tiles as the reader saw them: the 1 of dots, the 7 it is not among its three guesses.
AS_ONE_DOT = (("1D", 0.60), ("2D", 0.20), ("4D", 0.10))


def pung_read_as_one_dot() -> rv.Review:
    """The flawed photo's review with its pung of 7 dots read as three 1 of dots, read again as a hand, as the page
    loads it."""
    review = review_as_read()
    tiles = tuple(replace(t, code="1D", confidence=0.60, alternatives=AS_ONE_DOT) if t.id in PUNG else t for t in review.tiles)
    return rv.read_again(replace(review, tiles=tiles))


def faces(review: rv.Review, ids: tuple[int, ...] = PUNG) -> list[str]:
    return [review.tile(i).code for i in ids]


def test_the_pungs_twins_take_the_players_face() -> None:
    """The player says #4 is 7D: #5 and #6, read as the same 1D, are 7D too, and stay so when the hand is read again
    (the 7 is none of their guesses, so the hand alone could never put them right)."""
    before = pung_read_as_one_dot()
    assert faces(before) == ["1D", "1D", "1D"]
    after = rv.read_again(rv.replace_tile(before, 4, "7D"))
    assert faces(after) == ["7D", "7D", "7D"]
    assert [after.tile(i).source for i in PUNG] == ["corrected", "twin", "twin"]
    assert all(after.tile(i).confidence is None for i in PUNG), "the twins are the player's word now, not left to check"
    assert not {4, 5, 6} & {t.id for t in rv.tiles_to_check(after)}


def test_one_correction_says_so_and_one_undo_takes_it_back() -> None:
    """The three tiles change in one correction, logged with its twins and said in the player's words; the review
    before it (what *Undo* restores) has all three as the reader read them."""
    before = pung_read_as_one_dot()
    after = rv.replace_tile(before, 4, "7D")
    assert len(after.corrections) == len(before.corrections) + 1
    correction = after.corrections[-1]
    last = correction.to_dict()
    assert last == {"action": "replace", "tile": 4, "was": "1D", "now": "7D", "twins": [5, 6]}
    assert rv.twins_words(last) == "#5, #6 with it: a pung is three of one face"
    assert rv.correction_text(correction) == "#4 was read as 1D, it is 7D, and #5, #6 with it: a pung is three of one face"
    assert faces(before) == ["1D", "1D", "1D"]


def test_the_corrected_hand_is_the_samples_hand() -> None:
    """With #13 put right and the missed 3C added as well, the hand scores as the sample's, its pung of 7 dots laid out."""
    fixed = rv.add_tile(rv.replace_tile(rv.replace_tile(pung_read_as_one_dot(), 4, "7D"), 13, "5C"), "3C")
    hand, problems = rv.to_hand(rv.set_circumstances(rv.read_again(fixed), won_by="discard"))
    assert problems == [] and hand is not None
    assert "[7D7D7D]" in str(hand)


def test_a_twin_the_player_vouched_for_is_never_moved() -> None:
    """The player checked #5 as the 1 of dots before putting #4 right: #5 stays theirs, only #6 follows #4."""
    checked = rv.confirm_tile(pung_read_as_one_dot(), 5)
    after = rv.replace_tile(checked, 4, "7D")
    assert faces(after) == ["7D", "1D", "7D"] and after.corrections[-1].to_dict()["twins"] == [6]


def test_a_twin_that_followed_follows_a_second_correction() -> None:
    """A mis-tap put right: #4 set to 8D and then to 7D takes its twins along both times."""
    twice = rv.replace_tile(rv.replace_tile(pung_read_as_one_dot(), 4, "8D"), 4, "7D")
    assert faces(twice) == ["7D", "7D", "7D"]


def test_only_a_pung_or_kong_read_as_one_face_has_twins() -> None:
    """A set whose tiles the reader read as different faces is no pung of one face: the correction is the tile's alone.
    Tiles of one face in hand (the two 9 of bamboo, #11 and #14) are no laid-out set; a face no pung can have (a
    flower) moves nothing else."""
    review = pung_read_as_one_dot()
    mixed = replace(review, tiles=tuple(replace(t, code="2D") if t.id == 6 else t for t in review.tiles))
    assert rv.twins(mixed, 4) == []
    assert faces(rv.replace_tile(mixed, 4, "7D")) == ["7D", "1D", "2D"]
    assert rv.twins(review, 11) == [] and rv.replace_tile(review, 11, "8B").tile(14).code == "9B"
    assert faces(rv.replace_tile(review, 4, "1F")) == ["1F", "1D", "1D"]


def test_a_kongs_face_down_ends_stay_face_down() -> None:
    """The concealed kong (#0 XX, #1 1B, #2 1B, #3 XX): putting #1 right puts #2 right with it, the ends stay backs."""
    after = rv.replace_tile(review_as_read(), 1, "2B")
    assert faces(after, (0, 1, 2, 3)) == ["XX", "2B", "2B", "XX"]
    assert rv.twins(review_as_read(), 0) == []


@pytest.mark.skipif(not SAMPLE_PHOTO.exists(), reason="the sample photo is not installed")
def test_pungchow_photo_says_the_twins_followed(capsys: pytest.CaptureFixture[str]) -> None:
    """`pungchow photo --tile N=CODE` on a tile of a pung the sample photo lays out: the line says its twins took the
    face too, and the corrected hand shows the pung of that face. The pung is found from the photo's own reading."""
    from recognizer.pipeline import recognize

    review = rv.Review.from_recognition(recognize(SAMPLE_PHOTO))
    pungs = [review.tiles_in(g.id) for g in review.groups if len(review.tiles_in(g.id)) == 3
             and len({t.code for t in review.tiles_in(g.id)}) == 1 and review.tiles_in(g.id)[0].code in PLAYING_CODES]
    if not pungs:
        pytest.skip(f"the reader lays out no pung in the sample photo: {[t.code for t in review.tiles]}")
    first, *others = pungs[0]
    face = "8D" if first.code != "8D" else "2D"
    assert main(["photo", str(SAMPLE_PHOTO), "--rules", "harr-1922", "--won-by", "discard", "--tile", f"{first.id}={face}"]) == 0
    out = capsys.readouterr().out
    assert f"tile #{first.id} is {face}, and {', '.join(f'#{t.id}' for t in others)} with it: a pung is three of one face" in out, out
    assert f"[{face * 3}]" in out, out


#: Where the sample photo's 4 of characters lies, and its pung of 7 dots's three tiles (x0, y0, x1, y1).
FOUR_OF_CHARACTERS = (494, 236, 558, 327)
SAMPLE_PUNG = ((487, 125, 550, 212), (546, 126, 611, 221), (602, 130, 670, 220))


def pung_misread_photo(folder: Path) -> Path:
    """The sample photo with the 4 of characters pasted over each tile of its pung of 7 dots (#4, #5, #6): the real
    reader reads the three alike and wrong. The browser test uploads the same photo."""
    sample = np.asarray(Image.open(SAMPLE_PHOTO).convert("RGB"))
    photo = sample.copy()
    x0, y0, x1, y1 = FOUR_OF_CHARACTERS
    four = Image.fromarray(sample[y0:y1, x0:x1])
    for a, b, c, d in SAMPLE_PUNG:
        photo[b:d, a:c] = np.asarray(four.resize((c - a, d - b)))
    Image.fromarray(photo).save(folder / "pung-misread.jpg", quality=92)
    return folder / "pung-misread.jpg"


@pytest.mark.skipif(not SAMPLE_PHOTO.exists(), reason="the sample photo is not installed")
def test_on_the_page_one_tap_puts_the_whole_pung_right(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    """The page, read by the real models: the pung read as three 4C, the player taps 7D for #4; the page says #5 and #6
    took it too, and *Undo* takes all three back."""
    from streamlit.testing.v1 import AppTest

    from webapp import recognition

    try:
        recognition.load_reader()
    except recognition.ReaderMissing:
        pytest.skip("the recognizer's model is not installed")
    monkeypatch.setenv("PUNGCHOW_DB", str(tmp_path / "history.sqlite3"))
    app = AppTest.from_file(str(Path(__file__).resolve().parents[1] / "webapp" / "app.py"), default_timeout=90)
    app.run()
    photo = io.BytesIO()
    Image.open(pung_misread_photo(tmp_path)).save(photo, format="JPEG", quality=92)
    app.file_uploader(key="w_upload").set_value(("pung.jpg", photo.getvalue(), "image/jpeg")).run()
    assert not app.exception
    version = app.session_state["review_version"]
    if faces(app.session_state["review"]) != ["4C", "4C", "4C"]:
        pytest.skip(f"today's reader reads the pasted pung otherwise: {faces(app.session_state['review'])}")
    app.selectbox(key=f"w_pick_{version}").set_value(4).run()
    app.button(key=f"w_face_{version}_7D").click().run()
    assert not app.exception
    assert faces(app.session_state["review"]) == ["7D", "7D", "7D"]
    assert any("#4 is 7D, and #5, #6 with it: a pung is three of one face" in s.value for s in app.success)
    undo = next(b for b in app.button if b.label == "Undo the last correction")
    undo.click().run()
    assert faces(app.session_state["review"]) == ["4C", "4C", "4C"]
    assert any("#4 was read as 4C, it is 7D, and #5, #6 with it" in s.value for s in app.success)
