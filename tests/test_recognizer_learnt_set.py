"""A player's own set learnt from corrections: the second photo of the set reads what the first got wrong.

Harr's 1922 set (its two photos ship in ``models/tilesets/pungchow-1922/source``): on the complete-set photo the
general reader reads 130 of 144 tiles right; one nine of bamboo it reads as a four, one eight of dots as a seven.
"""

from __future__ import annotations

import io
import json
import os
import re
import sqlite3
import zipfile
from pathlib import Path

import numpy as np
import pytest

from pungchow.cli import main as cli_main
from recognizer.classify import NOT_A_TILE_SURE, crops_of, run_classifier
from recognizer.errors import TileSetError
from recognizer.examples import (
    FACE_SIZE,
    MOST_FOR,
    SURE_OF_ONE_EXAMPLE,
    SURE_OF_UNSEEN,
    CorrectedTile,
    Examples,
    read_corrected,
    tile_faces,
)
from recognizer.image import load_photo
from recognizer.labels import CLASSES
from recognizer.pipeline import recognize
from recognizer.tileset import (
    builtin_tileset_dir,
    calibrate,
    export_tileset,
    forget_examples,
    import_tileset,
    learn_tiles,
    learnt_examples,
    load_tileset,
    own_tilesets,
    read_calibration,
    read_layout,
)

SOURCE = builtin_tileset_dir() / "pungchow-1922" / "source"
FIXTURE = Path(__file__).parent / "fixtures" / "photos" / "illustration_2.expected.json"


@pytest.fixture
def home(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> Path:
    monkeypatch.setenv("PUNGCHOW_HOME", str(tmp_path / "home"))
    return tmp_path


def calibration_tiles(*codes: str) -> list[dict[str, object]]:
    """The boxes and right codes of the given faces on Harr's first photo, as a corrected recognition holds them."""
    cal = read_calibration(SOURCE / "illustration_1.jpg", read_layout(SOURCE / "layout.json"))
    return [{"box": [float(v) for v in cal.boxes[cal.codes.index(c)]], "code": c} for c in codes]


def second_photo_tiles(tileset: str | None) -> list[tuple[str, int | None]]:
    """Each tile of the complete-set photo: its right code, and which detection reads it (None: no box there)."""
    d = recognize(SOURCE / "illustration_2.jpg", tileset).detections
    out: list[tuple[str, int | None]] = []
    for tile in json.loads(FIXTURE.read_text())["tiles"]:
        dist = np.linalg.norm(d.centres - np.array(tile["centre"]), axis=1)
        k = int(dist.argmin())
        out.append((tile["code"], k if dist[k] < 10 else None))
    return out


def read_second_photo(tileset: str | None) -> dict[str, list[str]]:
    """Each face of the complete-set photo and what its four tiles were read as ('--': no box there)."""
    d = recognize(SOURCE / "illustration_2.jpg", tileset).detections
    read: dict[str, list[str]] = {}
    for tile in json.loads(FIXTURE.read_text())["tiles"]:
        dist = np.linalg.norm(d.centres - np.array(tile["centre"]), axis=1)
        k = int(dist.argmin())
        read.setdefault(tile["code"], []).append(d.code(k) if dist[k] < 10 else "--")
    return read


def learn_corrections(home: Path, name: str, corrections: dict[str, str]) -> None:
    """Tiles of Harr's first photo learnt through the CLI, each face named as ``corrections`` names it (rightly or not)."""
    tiles = calibration_tiles(*corrections)
    for tile in tiles:
        tile["code"] = corrections[str(tile["code"])]
    corrected = home / f"{name}.corrected.json"
    corrected.write_text(json.dumps({"tiles": tiles}))
    assert cli_main(["tileset", "learn", name, str(SOURCE / "illustration_1.jpg"), "--corrected", str(corrected)]) == 0


def lost(before: dict[str, list[str]], after: dict[str, list[str]]) -> list[str]:
    """The tiles the general reader read right that the set reads wrong, as 'right->read'."""
    return [f"{c}->{a}" for c in before for b, a in zip(before[c], after[c]) if b == c != a]


def right(read: dict[str, list[str]]) -> int:
    return sum(r == code for code, tiles in read.items() for r in tiles)


def test_two_corrected_tiles_teach_the_next_photo(home: Path) -> None:
    """Corrected on the first photo (nine of bamboo, eight of dots, and Harr's first two mandarins), the second photo
    reads the suits right on all four of their tiles, and more of the mandarins, which the reader alone reads as
    seasons, flowers and a bamboo (one of the four right; with the set two); no tile reads worse than without the set
    (the six of bamboo, a nine turned over, stays a six), and more read right (the 7-bit real-lite0-r4 with the count
    rule over the whole photo: 135 -> 136 of 144)."""
    corrected = home / "illustration_1.corrected.json"
    corrected.write_text(json.dumps({"tiles": calibration_tiles("9B", "8D", "1F", "2F")}))
    assert cli_main(["tileset", "learn", "harrs-set", str(SOURCE / "illustration_1.jpg"), "--corrected", str(corrected)]) == 0
    before, after = read_second_photo(None), read_second_photo("harrs-set")
    assert after["9B"] == ["9B"] * 4 and after["8D"] == ["8D"] * 4
    assert after["6B"] == ["6B"] * 4
    mandarins = ("1F", "2F")
    assert sum(after[c].count(c) for c in mandarins) > sum(before[c].count(c) for c in mandarins)
    assert all(after[c].count(c) >= before[c].count(c) for c in before)
    assert right(after) > right(before)


def test_learning_adds_to_the_set(home: Path) -> None:
    """Each learning adds its tiles to the set, which says how many examples of how many faces it holds."""
    rgb = load_photo(SOURCE / "illustration_1.jpg")
    tiles = [CorrectedTile(tuple(t["box"]), str(t["code"])) for t in calibration_tiles("4C", "8D")]  # type: ignore[arg-type]
    first = learn_tiles("table-one", rgb, tiles[:1], "illustration_1.jpg")
    second = learn_tiles("table-one", rgb, tiles, "illustration_1.jpg")
    assert (first.examples, first.faces_seen) == (1, ("4C",))
    assert (second.examples, second.faces_seen) == (3, ("4C", "8D"))
    assert load_tileset("table-one").examples is not None
    assert len(load_tileset("table-one").examples or Examples.empty()) == 3


def test_a_set_embedded_by_another_classifier_embeds_itself_again(home: Path) -> None:
    """When the classifier is replaced, a learnt set embeds its stored crops again and keeps the new embeddings."""
    rgb = load_photo(SOURCE / "illustration_1.jpg")
    tiles = [CorrectedTile(tuple(t["box"]), str(t["code"])) for t in calibration_tiles("4C", "8D")]  # type: ignore[arg-type]
    history = learn_tiles("old-reader", rgb, tiles, "illustration_1.jpg").folder
    right_embedding = load_tileset("old-reader").examples
    with sqlite3.connect(history) as db:
        db.execute("UPDATE tileset_examples SET embedded_by = 'an earlier classifier', embedding = zeroblob(length(embedding))")
        db.execute("UPDATE tilesets SET changes = changes + 1")  # as every change Pung Chow makes counts
    again = load_tileset("old-reader").examples
    assert again is not None and right_embedding is not None
    np.testing.assert_allclose(again.embeddings, right_embedding.embeddings, atol=2e-3)
    with sqlite3.connect(history) as db:
        assert db.execute("SELECT count(*) FROM tileset_examples WHERE embedded_by = 'an earlier classifier'").fetchone()[0] == 0


def test_a_calibrated_set_of_another_classifier_is_read_not_refused(home: Path) -> None:
    """A set calibrated with `tileset add` keeps its tiles, so another classifier derives its prototypes again."""
    ts, history = calibrate("harr-again", SOURCE / "illustration_1.jpg", SOURCE / "layout.json")
    with sqlite3.connect(history) as db:
        db.execute("UPDATE tilesets SET meta = json_set(meta, '$.classifier_sha256', 'an earlier classifier'), changes = changes + 1")
    again = load_tileset("harr-again")
    assert again.calibrated and set(again.codes) == set(ts.codes)
    assert len(again.examples or Examples.empty()) == len(ts.codes)


def test_a_face_the_set_has_not_seen_is_left_to_the_general_reader() -> None:
    """Examples of the four of characters add nothing for or against a face they do not show (they only say the
    four of characters' own tile is a tile)."""
    rgb = load_photo(SOURCE / "illustration_1.jpg")
    cal = read_calibration(rgb, read_layout(SOURCE / "layout.json"))
    k = cal.codes.index("4C")
    ex = Examples.of_crops(cal.crops()[k:k + 1], ["4C"], "corrected:illustration_1.jpg")
    evidence = ex.evidence(tile_faces(cal.crops()), run_classifier(cal.crops())[1])
    others = [i for i, c in enumerate(CLASSES) if c not in ("4C", "NT")]
    assert not evidence[:, others].any()
    assert evidence[k, CLASSES.index("4C")] > 0 and evidence[k, CLASSES.index("NT")] < 0


def test_examples_unlike_the_face_a_box_shows_do_not_make_it_no_tile() -> None:
    """Evidence against the face the general reader sees on a box is taken from "not a tile" as well: the box shows
    some other face, not nothing. A box the reader already takes for no tile keeps only the examples' own word."""
    one_b, south, nt = (CLASSES.index(c) for c in ("1B", "SW", "NT"))
    probs = np.full((2, len(CLASSES)), 0.001, np.float32)
    probs[0, [one_b, nt]] = 0.5, 0.3  # a 1 of bamboo, as the reader sees it
    probs[1, [one_b, nt]] = 0.2, 0.6  # a caption letter: no tile
    evidence = np.zeros_like(probs)
    evidence[:, one_b] = -1.0  # the set's only "1 of bamboo" is a south wind named wrongly: far from both boxes
    evidence[:, south] = -1.0
    kept = Examples.still_a_tile(probs, evidence)
    assert kept[0, nt] == -1.0 and kept[1, nt] == 0.0
    assert (np.delete(kept, nt, axis=1) == np.delete(evidence, nt, axis=1)).all()


@pytest.mark.parametrize("face, named", [("SW", "1B"), ("1F", "1B"), ("4B", "8B"), ("3C", "2C"), ("2B", "1F"), ("6B", "3B"),
                                         ("5D", "2D")])
def test_a_faces_only_example_named_wrongly_reads_no_tile_worse(home: Path, face: str, named: str) -> None:
    """One tile of Harr's first photo taught as another face (the reader's own runner-up for it, as a slip of the
    finger names it), the set's only example: the second photo reads no tile worse than the general reader does.
    His south wind or 1 of flowers taught as a 1 of bamboo are far from his real 1s of bamboo, which says they are no
    1 of bamboo, never that they are no tile (the reader half takes them for none, and shows them as 1s of bamboo);
    far from it, his 3 of bamboo taught by a 6 stays a 3. His 4 of bamboo taught as an 8, 3 of characters as a 2,
    2 of bamboo as a 1 of flowers and 5 of dots as a 2 are near his other tiles of their own face, which the general
    reader sees as a face the set has not seen: one example is not enough to overturn it. Before, these seven sets lost
    nine tiles the general reader read right.

    The 8-bit reader with full 8-bit weights lost two tiles to the 4 of bamboo taught as an 8 (it boxed the photo's
    fourth 4 of bamboo and read it 8B surely, and the count rule moved a real 8B on); the 7-bit reader loses none."""
    learn_corrections(home, f"slip-{face}", {face: named})
    before, after = read_second_photo(None), read_second_photo(f"slip-{face}")
    assert lost(before, after) == []


def examples_named(*codes: str) -> Examples:
    """A set of blank examples with these codes: for the rules that look only at which codes it has, how often."""
    n = len(codes)
    return Examples(codes, ("corrected:one",) * n, np.zeros((n, 4), np.float32), np.zeros((n, 4), np.float32),
                    np.zeros((n, *FACE_SIZE), np.float32), held_crops=np.zeros((n, 2, 2, 3), np.uint8))


def test_a_face_shown_under_an_unsure_no_tile_is_the_face_the_examples_answer_to() -> None:
    """The general reader finds a box a little likelier no tile (0.47) than a 4 of bamboo (0.18), under the bar, so it
    shows a 4 of bamboo. One example of the 4 unlike it (perhaps a slip) takes as much from "not a tile" as from the 4,
    so the box stays shown; two examples unlike it tip it to no tile, as they did. A 4 of bamboo is a face a set of one
    8 of bamboo has not seen, read surely enough against the 8 to be held first."""
    four, eight, nt = (CLASSES.index(c) for c in ("4B", "8B", "NT"))
    probs = np.full((1, len(CLASSES)), 0.001, np.float32)
    probs[0, [nt, four, eight]] = 0.47, 0.18, 0.026
    assert probs[0, nt] < NOT_A_TILE_SURE
    against = np.zeros_like(probs)
    against[0, four] = -1.0
    assert Examples.still_a_tile(probs, against, examples_named("4B").one_example)[0, nt] == -1.0
    assert Examples.still_a_tile(probs, against, examples_named("4B", "4B").one_example)[0, nt] == 0.0
    evidence = np.zeros_like(probs)
    evidence[0, eight] = 3.0
    held = examples_named("8B").held_to_sure_readings(probs, evidence)
    assert np.log(0.18) - (np.log(0.026) + held[0, eight]) == pytest.approx(SURE_OF_ONE_EXAMPLE, abs=1e-4)


def test_a_box_far_from_every_example_is_no_more_a_tile_than_the_reader_finds_it() -> None:
    """Harr's counting sticks, boxed as a tile might be, lie far from every tile of his set: the examples say they are
    not any of its faces, which is no reason to call them a tile, so "not a tile" stands at least as sure as the
    general reader reads it (before, it lost as much as the faces did, and a book page's captions stayed as tiles)."""
    rgb = load_photo(SOURCE / "illustration_1.jpg")
    cal = read_calibration(rgb, read_layout(SOURCE / "layout.json"))
    ex = Examples.of_crops(cal.crops(), list(cal.codes), "corrected:illustration_1.jpg")
    sticks = crops_of(rgb, np.array([[100, 432, 60, 22], [120, 455, 43, 61], [150, 500, 43, 45]], np.float32))
    probs, emb = run_classifier(sticks)
    nt = CLASSES.index("NT")
    assert (probs.argmax(axis=1) == nt).all()
    assert (ex.evidence(tile_faces(sticks), emb)[:, nt] == 0).all()
    assert (ex.read(sticks, probs, emb)[:, nt] >= probs[:, nt]).all()


@pytest.mark.parametrize(("content", "words"), [
    ('{"tiles": []}', 'has no "tiles"'),
    ('{"tiles": [{"box": [1, 2, 3], "code": "1D"}]}', "tile 0 needs \"box\""),
    ('{"tiles": [{"box": [1, 2, 30, 40], "code": "1Z"}]}', "tile 0 has code '1Z'"),
    ('{"tiles": [{"box": [9000, 2, 30, 40], "code": "1D"}]}', "lies outside"),
    ("not json", "cannot read the corrected recognition"),
])
def test_a_bad_corrected_file_is_one_clear_line(home: Path, capsys: pytest.CaptureFixture[str], content: str, words: str) -> None:
    corrected = home / "bad.json"
    corrected.write_text(content)
    assert cli_main(["tileset", "learn", "mine", str(SOURCE / "illustration_1.jpg"), "--corrected", str(corrected)]) == 2
    err = capsys.readouterr().err
    assert words in err and len(err.strip().splitlines()) == 1
    assert own_tilesets() == []  # nothing kept of a file refused


def test_a_built_in_set_is_never_learnt_into(home: Path, capsys: pytest.CaptureFixture[str]) -> None:
    corrected = home / "c.json"
    corrected.write_text(json.dumps({"tiles": calibration_tiles("4C")}))
    assert cli_main(["tileset", "learn", "pungchow-1922", str(SOURCE / "illustration_1.jpg"), "--corrected", str(corrected)]) == 2
    assert "built-in" in capsys.readouterr().err


def test_read_corrected_takes_what_recognize_json_writes(home: Path) -> None:
    """Only each tile's box and code are read; the photo's size, when given, is kept to check the photo."""
    path = home / "r.json"
    path.write_text(json.dumps({"image": {"width": 400, "height": 555}, "tiles": [
        {"index": 0, "box": [10, 20, 30, 40], "score": 0.9, "code": "4C", "confidence": 0.4, "top3": [], "face_down": False}]}))
    tiles, size = read_corrected(path)
    assert tiles == [CorrectedTile((10.0, 20.0, 30.0, 40.0), "4C")] and size == (400, 555)
    assert os.path.exists(path)


def test_the_page_adds_the_tiles_the_player_corrected(home: Path) -> None:
    """On the page, the tiles the player put right join the set; tiles the reader alone read do not."""
    from webapp.recognition import learn_from_review
    from webapp.review import Review, ReviewTile

    rgb = load_photo(SOURCE / "illustration_1.jpg")
    (four,) = calibration_tiles("4C")
    x, y, w, h = (int(v) for v in four["box"])  # type: ignore[attr-defined]
    review = Review(tiles=(ReviewTile(0, "4C", (x, y, x + w, y + h), None, source="corrected"),
                           ReviewTile(1, "WW", (x + w, y, x + 2 * w, y + h), 0.6, source="recognised")))
    assert learn_from_review("page-set", rgb, "illustration_1.jpg", review) == "tile set 'page-set': 1 examples of 1 faces"
    assert (load_tileset("page-set").examples or Examples.empty()).sources == ("page:illustration_1.jpg",)


def test_a_wrongly_corrected_tile_does_not_overturn_a_sure_reading(home: Path) -> None:
    """A 6 of bamboo wrongly corrected to a 9 (the two look alike in Harr's set), beside the right 9 and 8: the second
    photo keeps every 6 of bamboo as the general reader read it, and still gains a first mandarin it took for a season
    (its 9s and 8s it reads right itself). The one wrong example is the set's only word on that face, and the general
    reader is sure of its 6s."""
    learn_corrections(home, "slip", {"9B": "9B", "8D": "8D", "6B": "9B", "1F": "1F", "2F": "2F"})
    before, after = read_second_photo(None), read_second_photo("slip")
    assert after["6B"] == before["6B"]
    assert after["9B"] == ["9B"] * 4 and after["8D"] == ["8D"] * 4
    assert lost(before, after) == []
    assert right(after) >= right(before) + 1


def test_the_wrong_example_still_shows_as_doubt_but_never_wins() -> None:
    """Held, the wrong example may lift the 9 of bamboo on a 6's tile no nearer than a factor e below the 6."""
    rgb = load_photo(SOURCE / "illustration_1.jpg")
    cal = read_calibration(rgb, read_layout(SOURCE / "layout.json"))
    six, nine = cal.codes.index("6B"), cal.codes.index("9B")
    wrong = Examples.of_crops(cal.crops()[[six, nine]], ["9B", "9B"], "corrected:illustration_1.jpg")
    second = load_photo(SOURCE / "illustration_2.jpg")
    d = recognize(SOURCE / "illustration_2.jpg").detections
    sixes = [k for code, k in second_photo_tiles(None) if code == "6B" and k is not None]
    crops = crops_of(second, d.boxes[sixes])
    probs, emb = run_classifier(crops)
    sure = probs.argmax(axis=1) == CLASSES.index("6B")
    assert sure.sum() >= 3  # the general reader reads (nearly) all four 6s as 6s, itself
    read = wrong.read(crops, probs, emb)[sure]
    assert (read.argmax(axis=1) == CLASSES.index("6B")).all()
    margin = np.log(read[:, CLASSES.index("6B")] / read[:, CLASSES.index("9B")])
    assert (margin >= SURE_OF_UNSEEN - 1e-3).all()


def test_learning_the_red_dragon_keeps_the_green_dragons(home: Path) -> None:
    """Harr's photos are in grey: his red and green dragons differ only in how dark they print. Taught the red dragon
    alone, the set has seen no green one, so the general reader's sure green dragons stay green (the tones of the
    photo's own dragons even put one it read red right); no tile reads worse than without the set."""
    learn_corrections(home, "red", {"RD": "RD"})
    before, after = read_second_photo(None), read_second_photo("red")
    assert before["GD"].count("GD") >= 2
    assert after["GD"].count("GD") >= before["GD"].count("GD")
    assert lost(before, after) == []
    assert right(after) >= right(before)


def test_only_a_sure_reading_of_a_face_the_set_has_not_seen_is_held() -> None:
    """Between two faces the general reader finds about as likely the examples decide; a face the set has seen is
    left to the examples' own comparison (a right example beside the wrong one); only a sure reading of an unseen
    face is held first: against a code of two examples, at ``SURE_OF_UNSEEN``; against a code of one example, which
    may be a slip of the finger, nearer (``SURE_OF_ONE_EXAMPLE``): the reader's 0.45 for a 7 of dots against 0.30 for
    an 8 stands against one 8, not against two."""
    rgb = load_photo(SOURCE / "illustration_1.jpg")
    cal = read_calibration(rgb, read_layout(SOURCE / "layout.json"))
    nines_and_eight = [cal.codes.index(c) for c in ("9B", "9B", "8D")]
    ex = Examples.of_crops(cal.crops()[nines_and_eight], ["9B", "9B", "8D"], "corrected:one")
    nine, eight, six, seven = (CLASSES.index(c) for c in ("9B", "8D", "6B", "7D"))
    probs = np.full((4, len(CLASSES)), 0.001, np.float32)
    probs[0, [six, nine]] = 0.8, 0.05  # sure of an unseen 6 against two 9s: held
    probs[1, [seven, eight]] = 0.45, 0.40  # unsure between 7 and 8: not held
    probs[2, [eight, nine]] = 0.8, 0.05  # sure of the seen 8: not held
    probs[3, [seven, eight]] = 0.45, 0.30  # fairly sure of an unseen 7 against one 8: held
    evidence = np.zeros_like(probs)
    evidence[:, [nine, eight]] = MOST_FOR
    held = ex.held_to_sure_readings(probs, evidence)
    assert np.log(0.8) - (np.log(0.05) + held[0, nine]) == pytest.approx(SURE_OF_UNSEEN, abs=1e-4)
    assert held[0, eight] < MOST_FOR and held[1, eight] == MOST_FOR and (held[2] == evidence[2]).all()
    assert np.log(0.45) - (np.log(0.30) + held[3, eight]) == pytest.approx(SURE_OF_ONE_EXAMPLE, abs=1e-4)


def harrs_learnt_set(name: str, *codes: str) -> None:
    rgb = load_photo(SOURCE / "illustration_1.jpg")
    tiles = [CorrectedTile(tuple(t["box"]), str(t["code"])) for t in calibration_tiles(*codes)]  # type: ignore[arg-type]
    learn_tiles(name, rgb, tiles, "illustration_1.jpg")


def test_a_wrong_example_is_forgotten_and_the_set_starts_again(home: Path) -> None:
    """The player forgets the one example they named wrongly; the rest stay. Forgetting all starts the set again."""
    harrs_learnt_set("forgetful", "9B", "8D", "4C")
    assert forget_examples("forgetful", [1]).examples == 2
    assert learnt_examples("forgetful").codes == ("9B", "4C")
    with pytest.raises(TileSetError, match="there is no example 3 to forget"):
        forget_examples("forgetful", [2])
    assert forget_examples("forgetful").examples == 0
    assert len(load_tileset("forgetful").examples or Examples.empty()) == 0


def test_forgetting_keeps_a_calibrations_tiles(home: Path) -> None:
    """A calibrated set's own tiles are what its prototypes come from: forgetting all leaves them; one is refused."""
    ts, _ = calibrate("harr-cal", SOURCE / "illustration_1.jpg", SOURCE / "layout.json")
    harrs_learnt_set("harr-cal", "9B")
    assert len(learnt_examples("harr-cal")) == len(ts.codes) + 1
    with pytest.raises(TileSetError, match="tile of its calibration"):
        forget_examples("harr-cal", [0])
    assert forget_examples("harr-cal").examples == len(ts.codes)
    assert load_tileset("harr-cal").calibrated


def test_a_set_exports_as_one_file_and_a_built_in_set_is_not_the_players(home: Path) -> None:
    harrs_learnt_set("to-keep", "9B", "8D")
    with zipfile.ZipFile(io.BytesIO(export_tileset("to-keep"))) as z:
        assert sorted(z.namelist()) == ["to-keep/examples.npz", "to-keep/tileset.json"]
        assert json.loads(z.read("to-keep/tileset.json"))["examples"] == 2
    assert own_tilesets() == ["to-keep"]
    for refused in (lambda: export_tileset("pungchow-1922"), lambda: forget_examples("pungchow-1922")):
        with pytest.raises(TileSetError, match="built-in"):
            refused()
    with pytest.raises(TileSetError, match="no tile set 'nobodys'"):
        export_tileset("nobodys")


def test_the_page_shows_what_the_set_learnt_and_forgets_a_wrong_example(home: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    """On the Tile sets page: each face the set learnt with its examples' pictures, a Forget under each, a way to
    forget all, and the set to download as one file and bring back."""
    from streamlit.testing.v1 import AppTest

    monkeypatch.setenv("PUNGCHOW_DB", str(home / "history.sqlite3"))
    harrs_learnt_set("on-the-page", "9B", "8D", "6B")
    app = AppTest.from_file(str(Path(__file__).resolve().parents[1] / "webapp" / "app.py"), default_timeout=90)
    app.run()
    app.switch_page("views/tilesets.py").run()
    assert not app.exception and not app.error
    assert app.selectbox(key="w_learnt_set").value == "on-the-page"
    shown = [m.value for m in app.markdown]
    assert {"**6B**: 1 example", "**8D**: 1 example", "**9B**: 1 example"} <= set(shown)
    app.button(key="w_forget_on-the-page_3_2").click().run()  # the 6B, learnt third
    assert not app.exception and not app.error
    assert learnt_examples("on-the-page").codes == ("9B", "8D")
    assert "2 examples of 2 faces" in app.success[0].value
    app.button(key="w_forget_all").click().run()
    assert len(learnt_examples("on-the-page")) == 0
    exported = export_tileset("on-the-page")
    monkeypatch.setenv("PUNGCHOW_DB", str(home / "new-phone.sqlite3"))  # the set brought to another history file
    app.file_uploader(key="w_import_set").set_value(("on-the-page.zip", exported, "application/zip"))
    app.button(key="w_import").click().run()
    assert not app.exception and not app.error
    assert "tile set 'on-the-page': 0 examples" in app.success[0].value.replace("\\", "")
    assert app.selectbox(key="w_learnt_set").value == "on-the-page"
    app.file_uploader(key="w_import_set").set_value(("on-the-page.zip", exported, "application/zip"))
    app.button(key="w_import").click().run()
    assert not app.exception and any("already a tile set" in e.value for e in app.error)
    assert app.selectbox(key="w_learnt_set").value == "on-the-page"  # the sets are still listed


def test_an_exported_set_comes_back_whole_and_never_over_another(home: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    """Exported, and imported on a new phone (another history file): the same examples. Imported again beside
    itself, it is refused rather than written over the set that is there."""
    harrs_learnt_set("travelling", "9B", "8D")
    exported, codes = export_tileset("travelling"), learnt_examples("travelling").codes
    monkeypatch.setenv("PUNGCHOW_HOME", str(home / "new-phone"))
    assert str(import_tileset(exported, "travelling.zip")) == "tile set 'travelling': 2 examples of 2 faces"
    assert learnt_examples("travelling").codes == codes
    with pytest.raises(TileSetError, match="already a tile set 'travelling'"):
        import_tileset(exported, "travelling.zip")
    assert learnt_examples("travelling").codes == codes


@pytest.mark.parametrize(("content", "words"), [
    (b"not a zip", "is not an exported tile set"),
    ({"a/tileset.json": b"{}", "b/tileset.json": b"{}"}, "is not an exported tile set"),
    ({"mine/examples.npz": b""}, "is not an exported tile set"),
    ({"../up/tileset.json": b"{}"}, "is not an exported tile set"),
    ({"a name/tileset.json": b"{}"}, "tile set name 'a name'"),
    ({"mine/tileset.json": b"{}"}, "tile set 'mine'"),
])
def test_a_file_that_is_not_a_set_is_refused_whole(home: Path, content: bytes | dict[str, bytes], words: str) -> None:
    if isinstance(content, dict):
        out = io.BytesIO()
        with zipfile.ZipFile(out, "w") as z:
            for f, b in content.items():
                z.writestr(f, b)
        content = out.getvalue()
    with pytest.raises(TileSetError, match=re.escape(words)):
        import_tileset(content, "set.zip")
    assert own_tilesets() == []
