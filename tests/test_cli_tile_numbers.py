"""The command line names tiles as the overlay and the page do, and says how it took the hand to be won."""

from __future__ import annotations

import json
import re
from pathlib import Path

import pytest

from pungchow.cli import main
from recognizer import SAMPLE_PHOTO
from webapp.recognition import review_from_result
from webapp.review import corners

pytestmark = pytest.mark.skipif(not SAMPLE_PHOTO.exists(), reason="the sample photo is not installed")


def recognised(capsys: pytest.CaptureFixture[str]) -> dict:
    assert main(["recognize", str(SAMPLE_PHOTO), "--json"]) == 0
    return json.loads(capsys.readouterr().out)


def test_json_and_text_number_each_tile_as_the_overlay_does(capsys: pytest.CaptureFixture[str]) -> None:
    data = recognised(capsys)
    size = (data["image"]["width"], data["image"]["height"])
    overlay = [t for t in review_from_result(data, size).tiles if t.box is not None]
    for tile in data["tiles"]:
        box = corners(tile["box"])
        drawn = min(overlay, key=lambda t: sum(abs(a - b) for a, b in zip(t.box, box)))  # type: ignore[arg-type]
        assert tile["number"] == drawn.id, f"tile {tile['index']} is #{drawn.id} on the overlay, not #{tile['number']}"
    assert any(t["number"] != t["index"] for t in data["tiles"]), "the sample's detector order differs from the photo's"
    assert main(["recognize", str(SAMPLE_PHOTO)]) == 0
    text = capsys.readouterr().out
    own = {t["number"]: t["code"] for t in data["tiles"]} | {c["tile"]: c["from"] for c in data["decoded"]["changes"]}
    for number, code in re.findall(r"unsure: tile #(\d+) at \[[^]]*\]: (\w+)", text):
        assert own[int(number)] == code, f"tile #{number} in the text is the overlay's #{number}"


def test_recognize_json_says_the_win_was_assumed(capsys: pytest.CaptureFixture[str]) -> None:
    data = recognised(capsys)
    assert data["hand"]["won_by"] == "discard" and data["won_by_assumed"] is True


def test_photo_says_which_win_it_scored_and_what_the_other_scores(capsys: pytest.CaptureFixture[str]) -> None:
    assert main(["photo", str(SAMPLE_PHOTO), "--rules", "harr-1922"]) == 0
    out = capsys.readouterr().out
    assert "won by: not given, so scored as won off a discard; from the wall it scores 116" in out
    assert "= 112" in out
    assert main(["photo", str(SAMPLE_PHOTO), "--rules", "harr-1922", "--won-by", "wall"]) == 0
    out = capsys.readouterr().out
    assert "not given" not in out and "= 116" in out


def test_photo_json_keeps_the_note_off_the_json(capsys: pytest.CaptureFixture[str], tmp_path: Path) -> None:
    assert main(["photo", str(SAMPLE_PHOTO), "--rules", "harr-1922", "--json"]) == 0
    captured = capsys.readouterr()
    assert json.loads(captured.out)["total"] == 112
    assert "won by: not given" in captured.err


def test_recognize_says_where_it_wrote_the_overlay(capsys: pytest.CaptureFixture[str], tmp_path: Path) -> None:
    """--overlay names the file it wrote, on stderr, so --json on stdout stays JSON."""
    out = tmp_path / "overlay.png"
    assert main(["recognize", str(SAMPLE_PHOTO), "--json", "--overlay", str(out)]) == 0
    captured = capsys.readouterr()
    assert out.is_file() and json.loads(captured.out)["tiles"]
    assert f"overlay: {out}" in captured.err


def test_score_takes_the_hand_of_a_recognitions_json(capsys: pytest.CaptureFixture[str], tmp_path: Path) -> None:
    """`recognize --json` written to a file scores as its hand (112), saying that the record assumed the win off a discard."""
    record = tmp_path / "rec.json"
    record.write_text(json.dumps(recognised(capsys)))
    assert main(["score", str(record), "--rules", "harr-1922"]) == 0
    captured = capsys.readouterr()
    assert "= 112" in captured.out and "won off a discard without being told" in captured.err
    data = json.loads(record.read_text())
    data["hand"] = None
    record.write_text(json.dumps(data))
    assert main(["score", str(record), "--rules", "harr-1922"]) == 2
    assert "holds no hand" in capsys.readouterr().err


def test_the_text_says_which_tile_won_and_how_the_photo_showed_it(capsys: pytest.CaptureFixture[str]) -> None:
    """The sample's 9B lies apart from the hand: the hand line names it by its overlay number and says it lay apart,
    the number the record's trace gives it."""
    data = recognised(capsys)
    winner = data["hand"]["trace"]["winning_tile"]
    assert data["hand"]["trace"]["winning_shown"] == "set apart from the hand"
    tile = next(t for t in data["tiles"] if t["index"] == winner)
    assert main(["recognize", str(SAMPLE_PHOTO)]) == 0
    hand_line = next(line for line in capsys.readouterr().out.splitlines() if line.startswith("hand:"))
    assert f"winning tile {tile['code']} (#{tile['number']}, set apart from the hand)" in hand_line, hand_line
