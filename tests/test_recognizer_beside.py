"""What lies beside the hand is kept only where a detector taught keys, cards, dominoes and print finds a tile.

Given a hand drawn beside a keyboard, the keys the hand's rows set aside are left out of the reading, with a note; the
tiles of the hand and of a whole set laid out stay, however many are set aside.
"""

from __future__ import annotations

import sys
from pathlib import Path

import cv2
import numpy as np
import pytest

from pungchow_data.distractors import draw_scene
from pungchow_data.faces import SHARED_DIR, missing_fonts
from recognizer.beside import beside_scores
from recognizer.image import load_photo
from recognizer.pipeline import recognize

sys.path.insert(0, str(Path(__file__).resolve().parent.parent / "bench"))

from bench_distractors import judge

NEEDS_FONTS = pytest.mark.skipif(missing_fonts() is not None, reason=f"the drawn hand needs the renderer's fonts: {missing_fonts()}")


def read_drawn(kind: str, seed: int, tmp_path: Path):  # type: ignore[no-untyped-def]
    """A drawn scene written as a phone's JPEG and read from the file, and what the bench makes of the reading."""
    drawn = draw_scene(kind, seed)
    photo = tmp_path / f"{kind}-{seed}.jpg"
    cv2.imwrite(str(photo), drawn.image, [cv2.IMWRITE_JPEG_QUALITY, 92])
    got = recognize(photo)
    return got, judge(drawn, got)


@NEEDS_FONTS
def test_keys_set_aside_beside_a_hand_leave_the_reading_with_a_note(tmp_path: Path) -> None:
    """Drawn keyboard scene 3403: three keys below the hand were boxed and set aside, read as characters. The beside
    detector finds no tile over them: they leave the reading, and the note counts them; every tile of the hand stays."""
    got, outcome = read_drawn("keyboard", 3403, tmp_path)
    assert outcome.stray == 0
    assert outcome.boxed_in_hand == outcome.tiles
    assert any("3 box(es) beside the hand look like no tile" in p for p in got.problems)


@NEEDS_FONTS
def test_print_beside_a_hand_that_the_beside_detector_is_unsure_of_leaves_the_reading(tmp_path: Path) -> None:
    """Drawn text scene 3406: three boxes on the printed page beside the hand were set aside, and the beside detector
    finds a tile over them, but unsurely (0.33-0.43, under its sure 0.5; every drawn tile 0.61 or more): they leave
    the reading, every tile of the hand stays."""
    got, outcome = read_drawn("text", 3406, tmp_path)
    assert outcome.stray == 0
    assert outcome.boxed_in_hand == outcome.tiles
    assert any("beside the hand look like no tile" in p for p in got.problems)


@NEEDS_FONTS
def test_a_word_joined_to_a_whole_hand_as_its_winning_tile_leaves_the_reading_with_a_note(tmp_path: Path) -> None:
    """Drawn text scene 3810: a printed word below the hand joined it as the winning tile laid apart, read as a north
    wind at 0.19, and no hand was whole with it. The hand is whole without it (``decode.whole_without``), and the beside
    detector sees no tile over it: it leaves the reading, as boxes set aside beside a hand that show no tile do, the
    note counts it, and the hand laid out is the one read."""
    got, outcome = read_drawn("text", 3810, tmp_path)
    assert outcome.stray == 0 and outcome.hand_right
    assert any("1 box(es) beside the hand look like no tile" in p for p in got.problems)


@NEEDS_FONTS
def test_a_word_read_as_a_season_beside_the_flowers_is_no_season_of_the_hand(tmp_path: Path) -> None:
    """Drawn text scene 4807: a printed word beside the hand's four flowers and seasons, boxed at 0.55 and read as the
    first season at 0.09. A flower never breaks a hand, so the hand was whole with it and the winner paid for it. The
    beside detector, asked because a bonus tile was read so unsurely, sees no tile over it: it leaves the reading, with
    the word beside it, and the hand read is the one laid out."""
    got, outcome = read_drawn("text", 4807, tmp_path)
    assert outcome.stray_in_hand == 0 and outcome.stray <= 1 and outcome.hand_right
    assert [t.code for t in got.hand.bonus] == ["2F", "3F", "4F", "3S"]
    assert any("1 box(es) laid apart from the hand set aside" in p for p in got.problems)  # the word's other box, a tile to det12


@NEEDS_FONTS
def test_a_domino_half_read_as_a_fourth_dragon_makes_no_kong(tmp_path: Path) -> None:
    """Drawn domino scene 4803: a blank domino half by the frame's corner, read as a white dragon at 0.81 beside the
    hand's three, made a kong of them among the loose tiles, and the hand held 15 tiles. The beside detector sees no
    tile over it: it leaves the reading, and the three are the pung laid out."""
    got, outcome = read_drawn("dominoes", 4803, tmp_path)
    assert outcome.stray == 0 and outcome.hand_right
    assert any("1 box(es) beside the hand look like no tile" in p for p in got.problems)


@NEEDS_FONTS
def test_a_hand_beside_a_laptop_is_read_at_its_tiles_size_not_its_key_clumps(tmp_path: Path) -> None:
    """Drawn keyboard scene 3802: the widest look boxed clumps of keys and tiles, and they were taken for tiles bearing
    the keys as pips; the hand, read at three times its tiles' size, was boxed in twos and threes (``detect.bearing``,
    ``detect.LEFT_UNBORNE``)."""
    _, outcome = read_drawn("keyboard", 3802, tmp_path)
    assert outcome.boxed_in_hand == outcome.tiles and outcome.stray_in_hand == 0


HK_PHOTOS = SHARED_DIR / "realdev" / "hk-sets" / "photos"


@pytest.mark.parametrize("name", ["set05-1.jpg", "set09-1.jpg"])
def test_a_whole_set_laid_out_keeps_every_tile_set_aside(name: str) -> None:
    """A whole HK set photographed laid out: most of its rows are no hand's and are set aside (52 and 118 boxes), and
    the beside detector finds a tile over every one of them: none leaves the reading."""
    if not (HK_PHOTOS / name).is_file():
        pytest.skip("the HK set photos are not in ../shared/realdev/hk-sets beside the repository (or PUNGCHOW_SHARED_DIR)")
    rgb = load_photo(HK_PHOTOS / name)
    got = recognize(rgb)
    aside = [k for g in got.groups if not g.in_hand for k in g.members]
    assert len(aside) >= 50
    assert not any("look like no tile" in p for p in got.problems)


def test_no_box_is_scored_where_none_is_asked_of() -> None:
    assert beside_scores(np.zeros((64, 64, 3), np.uint8), np.zeros((0, 4), np.float32)).shape == (0,)
