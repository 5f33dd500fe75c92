"""The page teaches the player's set: each tile corrected or checked on a photo joins it, so the next photo of the set
reads those faces right (issue 41).

Harr's 1922 set (its two photos ship in ``models/tilesets/pungchow-1922/source``): on the complete-set photo the
general reader reads one nine of bamboo as a four and one eight of dots as a seven.
"""

from __future__ import annotations

import json
from collections import Counter
from pathlib import Path
from typing import Any

import numpy as np
import pytest

from recognizer.image import load_photo
from recognizer.tileset import builtin_tileset_dir, learnt_examples, own_tilesets, read_calibration, read_layout
from tests.test_webapp_app import fake_reader
from webapp import review as rv
from webapp.recognition import PAGE_SET, Lesson, learning_set, rename_tileset, take_back, teach

__all__ = ["fake_reader"]  # the page's stand-in reader, shared with the page's own tests: a fixture used by name

SOURCE = builtin_tileset_dir() / "pungchow-1922" / "source"
FIXTURE = Path(__file__).parent / "fixtures" / "photos" / "illustration_2.expected.json"


@pytest.fixture
def home(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> Path:
    monkeypatch.setenv("PUNGCHOW_HOME", str(tmp_path / "home"))
    monkeypatch.setenv("PUNGCHOW_DB", str(tmp_path / "history.sqlite3"))
    return tmp_path


def first_photo_boxes(*codes: str) -> list[tuple[float, float, float, float]]:
    """Where the given faces lie on Harr's first photo, as corners (x0, y0, x1, y1) the page's review keeps."""
    cal = read_calibration(SOURCE / "illustration_1.jpg", read_layout(SOURCE / "layout.json"))
    boxes = [cal.boxes[cal.codes.index(c)] for c in codes]
    return [(float(x), float(y), float(x + w), float(y + h)) for x, y, w, h in boxes]


def read_photo_review(codes: dict[int, str], checked: set[int]) -> rv.Review:
    """A review of Harr's first photo: tile k at the box of face ``codes[k]`` (read as that face), checked if in ``checked``."""
    boxes = first_photo_boxes(*codes.values())
    return rv.Review(tiles=tuple(rv.ReviewTile(k, code, box, None if k in checked else 0.9, source="recognised")
                                 for (k, code), box in zip(codes.items(), boxes)))


def test_corrected_tiles_join_the_players_set_and_undo_forgets_them(home: Path) -> None:
    """Two tiles corrected on a photo read with the usual faces teach a set the page starts ("my-set"); the tile left
    unchecked does not; a tile corrected again is learnt anew, and *Undo* forgets all the photo taught."""
    rgb = load_photo(SOURCE / "illustration_1.jpg")
    review = read_photo_review({1: "9B", 2: "8D", 3: "5C"}, checked={1, 2})
    lesson = teach(Lesson(learning_set(None)), rgb, "illustration_1.jpg", review)
    assert str(lesson) == f"learnt 2 faces of {PAGE_SET}: 9B, 8D"
    assert lesson.holds == f"tile set '{PAGE_SET}': 2 examples of 2 faces"
    assert own_tilesets() == [PAGE_SET] and learnt_examples(PAGE_SET).codes == ("9B", "8D")
    assert all(s.startswith("page:illustration_1.jpg") for s in learnt_examples(PAGE_SET).sources)
    assert teach(lesson, rgb, "illustration_1.jpg", review) == lesson  # nothing new: nothing learnt twice
    again = rv.replace_tile(review, 2, "7D")  # the player thinks better of the eight
    lesson = teach(lesson, rgb, "illustration_1.jpg", again)
    assert sorted(learnt_examples(PAGE_SET).codes) == ["7D", "9B"]
    lesson = take_back(lesson)
    assert len(learnt_examples(PAGE_SET)) == 0 and lesson.stopped
    assert teach(lesson, rgb, "illustration_1.jpg", again) == lesson and len(learnt_examples(PAGE_SET)) == 0


def test_a_saved_hand_teaches_every_tile_and_only_the_players_own_set(home: Path) -> None:
    """Saving the hand confirms every tile in it; the usual faces teach the page's own set, the player's own set is
    learnt into, and a built-in set never is (see the next test)."""
    rgb = load_photo(SOURCE / "illustration_1.jpg")
    read = read_photo_review({1: "9B", 2: "8D", 3: "5C", 4: "1D"}, checked=set())
    review = rv.set_in_hand(read, 4, False)  # another player's tile beside the hand: not the player's to vouch for
    lesson = teach(Lesson(learning_set(None)), rgb, "illustration_1.jpg", review, every_tile=True)
    assert learnt_examples(PAGE_SET).codes == ("9B", "8D", "5C") and len(lesson.tiles) == 3
    again = teach(lesson, rgb, "illustration_1.jpg", review)  # the page's next run, the hand saved: nothing forgotten
    assert again.tiles == lesson.tiles and learnt_examples(PAGE_SET).codes == ("9B", "8D", "5C")
    assert "examples of 3 faces" in rename_tileset(PAGE_SET, "grandma-bone")
    assert own_tilesets() == ["grandma-bone"] and learning_set("grandma-bone") == "grandma-bone"
    with pytest.raises(Exception, match="already a tile set"):
        rename_tileset("grandma-bone", "pungchow-1922")


def test_a_photo_read_with_a_built_in_set_teaches_the_players_copy_of_it(home: Path) -> None:
    """Corrections of a photo read with pungchow-1922 teach "pungchow-1922-mine": a copy of the built-in calibration
    with the player's tiles beside it, so the next photo keeps both. The built-in set is not written; forgetting all
    the player taught leaves the calibration."""
    from recognizer.tileset import builtin_tileset_dir, forget_examples, load_tileset

    builtin = builtin_tileset_dir() / "pungchow-1922"
    before = {f.name: f.read_bytes() for f in builtin.iterdir() if f.is_file()}
    rgb = load_photo(SOURCE / "illustration_1.jpg")
    review = read_photo_review({1: "9B", 2: "8D", 3: "5C"}, checked={1, 2})
    assert learning_set("pungchow-1922") == "pungchow-1922-mine"
    lesson = teach(Lesson(learning_set("pungchow-1922")), rgb, "illustration_1.jpg", review)
    assert str(lesson) == "learnt 2 faces of pungchow-1922-mine: 9B, 8D"
    mine, shipped = load_tileset("pungchow-1922-mine"), load_tileset("pungchow-1922")
    assert mine.calibrated and mine.codes == shipped.codes
    learnt = [c for c, s in zip(mine.examples.codes, mine.examples.sources) if s.startswith("page:")]
    assert learnt == ["9B", "8D"] and len(mine.examples) == len(shipped.examples) + 2
    assert {f.name: f.read_bytes() for f in builtin.iterdir() if f.is_file()} == before
    assert own_tilesets() == ["pungchow-1922-mine"] and learning_set("pungchow-1922-mine") == "pungchow-1922-mine"
    forget_examples("pungchow-1922-mine")
    assert load_tileset("pungchow-1922-mine").calibrated and len(learnt_examples("pungchow-1922-mine")) == len(shipped.examples)


def tiles_at(review: rv.Review, centres: list[list[float]]) -> list[str]:
    """What the review reads at each centre ('--': no tile there)."""
    boxes = np.array([t.box for t in review.tiles], float)
    middle = np.c_[(boxes[:, 0] + boxes[:, 2]) / 2, (boxes[:, 1] + boxes[:, 3]) / 2]
    out = []
    for c in centres:
        dist = np.linalg.norm(middle - np.array(c), axis=1)
        out.append(review.tiles[int(dist.argmin())].code if dist.min() < 10 else "--")
    return out


def correct_on_the_page(app: Any, code: str) -> None:
    """Pick the tile at face ``code``'s place on Harr's first photo, and tap its face."""
    box = first_photo_boxes(code)[0]
    review: rv.Review = app.session_state["review"]
    centre = [[(box[0] + box[2]) / 2, (box[1] + box[3]) / 2]]
    tile = next(t for t in review.tiles if t.box is not None and tiles_at(rv.Review(tiles=(t,)), centre) != ["--"])
    version = app.session_state["review_version"]
    app.selectbox(key=f"w_pick_{version}").set_value(tile.id).run()
    app.button(key=f"w_face_{version}_{code}").click().run()
    assert not app.exception and not app.error


def first_photo_on_the_page() -> Any:
    from streamlit.testing.v1 import AppTest

    app = AppTest.from_file(str(Path(__file__).resolve().parents[1] / "webapp" / "app.py"), default_timeout=240)
    app.run()
    app.file_uploader(key="w_upload").set_value(("illustration_1.jpg", (SOURCE / "illustration_1.jpg").read_bytes(), "image/jpeg"))
    app.run()
    assert not app.exception and not app.error
    return app


def test_undo_forgets_what_the_photo_taught(home: Path) -> None:
    """*Undo* beside what was learnt: the set forgets it, and a later check on the photo teaches it nothing."""
    app = first_photo_on_the_page()
    correct_on_the_page(app, "9B")
    assert learnt_examples(PAGE_SET).codes == ("9B",)
    said = [m.value.replace("\\", "") for m in app.success]
    assert any("is 9B" in m and m.endswith(f"· learnt by {PAGE_SET}") for m in said), said  # said where the finger is
    app.button(key="w_learnt_undo").click().run()
    assert not app.exception and not app.error
    assert len(learnt_examples(PAGE_SET)) == 0
    assert any("forgot what this photo taught it" in c.value for c in app.caption)
    correct_on_the_page(app, "8D")
    assert len(learnt_examples(PAGE_SET)) == 0


def test_two_tiles_corrected_on_the_page_read_right_on_the_next_photo(home: Path) -> None:
    """On the page: the first photo read, its nine of bamboo and eight of dots corrected with a tap each, the page says
    what the set learnt; the second photo of the set is read with it, and all four nines and eights read right. Renamed
    on the Tile sets page, the set stays the one the page teaches, and never takes another set's name."""
    app = first_photo_on_the_page()
    for code in ("9B", "8D"):
        correct_on_the_page(app, code)
    assert any(f"learnt 2 faces of {PAGE_SET}: 9B, 8D" in m.value.replace("\\", "") for m in app.info)
    assert learnt_examples(PAGE_SET).codes == ("9B", "8D")
    app.file_uploader(key="w_upload").set_value(("illustration_2.jpg", (SOURCE / "illustration_2.jpg").read_bytes(), "image/jpeg"))
    app.run()
    assert not app.exception and not app.error
    assert app.selectbox(key="w_tileset").value == PAGE_SET
    expected = json.loads(FIXTURE.read_text())["tiles"]
    second: rv.Review = app.session_state["review"]
    for code in ("9B", "8D"):
        assert tiles_at(second, [t["centre"] for t in expected if t["code"] == code]) == [code] * 4
    app.switch_page("views/tilesets.py").run()
    app.text_input(key="w_rename_to").input("harrs-set")
    app.button(key="w_rename").click().run()
    assert not app.exception and not app.error
    assert own_tilesets() == ["harrs-set"] and app.session_state["learning_set"] == "harrs-set"
    app.text_input(key="w_rename_to").input("pungchow-1922")
    app.button(key="w_rename").click().run()
    assert any("already a tile set" in e.value for e in app.error) and own_tilesets() == ["harrs-set"]


def the_page() -> Any:
    from streamlit.testing.v1 import AppTest

    app = AppTest.from_file(str(Path(__file__).resolve().parents[1] / "webapp" / "app.py"), default_timeout=120)
    app.run()
    assert not app.exception
    return app


def damaged_page_set() -> None:
    """The set the page teaches, damaged in the history file (its description no longer JSON)."""
    import sqlite3

    from recognizer.classify import crops_of
    from recognizer.examples import Examples
    from recognizer.setstore import history_file
    from recognizer.tileset import add_examples

    add_examples(PAGE_SET, Examples.of_crops(crops_of(load_photo(SOURCE / "illustration_1.jpg"), np.array([[40.0, 40, 50, 70]])),
                                             ["1B"], "page:earlier.jpg"))
    with sqlite3.connect(history_file()) as db:
        db.execute("UPDATE tilesets SET meta = '{cut short', changes = changes + 1 WHERE name = ?", (PAGE_SET,))


def test_a_hand_is_saved_when_the_set_cannot_learn_and_the_page_says_why(home: Path, fake_reader: Any) -> None:
    """The set the page would teach is damaged: the photo's hand, corrected and saved, is kept in the history, and the
    page says, after the save, that the set did not learn and why."""
    from tests.test_webapp_app import photo_bytes
    from webapp.history import History

    damaged_page_set()
    app = the_page()
    app.file_uploader(key="w_upload").set_value(("hand.jpg", photo_bytes(), "image/jpeg")).run()
    version = app.session_state["review_version"]
    app.button(key=f"w_alt_{version}_7_SW").click().run()  # the north wind put right: a correction the set would learn
    app.get("button_group")[0].set_value("discard").run()
    app.text_input(key="w_save_title").set_value("Friday")
    app.text_input(key="w_save_players").set_value("Ann, Bo, Cy, Di")
    app.button(key="w_save_hand").click().run()
    assert not app.exception
    assert any("Saved as hand 1" in s.value for s in app.success)
    said = [e.value.replace("\\", "") for e in app.error]
    assert any(m.startswith("Saved. Your tile set did not learn from this photo: tile set 'my-set'") and "damaged" in m
               and "pungchow tileset remove my-set" in m for m in said), said
    hands = History(home / "history.sqlite3").hands(1)
    assert [str(h.hand) for h in hands] == ["6C7C7C8C8C9CSWSW [5C6C7C] [2D2D2D]"]


def test_a_seat_photo_teaches_the_set_as_score_a_hand_does(home: Path, fake_reader: Any) -> None:
    """On *Settle the table*, a tile corrected on a seat's photo joins the player's set (the page's own, as on *Score
    a hand*); saving the deal teaches it every tile of that seat's hand."""
    from tests.test_webapp_app import photo_bytes

    app = the_page()
    app.switch_page("views/table.py").run()
    app.file_uploader(key="w_seat_photo_2").set_value(("west.jpg", photo_bytes(), "image/jpeg")).run()
    app.button(key="w_s2_alt_1_7_SW").click().run()
    assert not app.exception and not app.error
    assert learnt_examples(PAGE_SET).codes == ("SW",)
    assert any(f"learnt 1 face of {PAGE_SET}: SW" in c.value.replace("\\", "") for c in app.caption)
    app.selectbox(key="w_s2_pick_1").set_value(0).run()
    app.button(key="w_s2_aside_1").click().run()  # a tile beside the hand, not in it: a loser holds 13
    app.selectbox(key="w_winner").set_value(0).run()
    app.text_input(key="w_seat_hand_0").set_value("1B1B1B 2B2B2B 3B3B3B 4B4B4B 5B5B")
    app.text_input(key="w_seat_winning_0").set_value("5B").run()
    app.selectbox(key="w_seat_won_by_0").set_value("discard").run()
    for seat in (1, 3):
        app.toggle(key=f"w_seat_plain_{seat}").set_value(True).run()
        app.number_input(key=f"w_seat_score_{seat}").set_value(10).run()
    app.button(key="w_settle").click().run()
    assert not app.exception and not app.error, [e.value for e in app.error]
    app.button(key="w_save_deal").click().run()
    assert not app.exception and not app.error, [e.value for e in app.error]
    in_hand = Counter(["7C", "7C", "8C", "8C", "9C", "SW", "SW", "5C", "6C", "7C", "2D", "2D", "2D"])
    learnt = Counter(learnt_examples(PAGE_SET).codes)
    assert learnt in (in_hand, in_hand + Counter(["6C"]))  # every tile of the seat's hand (the one set aside only if checked)
