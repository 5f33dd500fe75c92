"""The hand read again after the player's corrections: their tiles are facts, the decoder chooses the rest.

The reading below is the one the page's browser story photographs (the sample photo with its 3 of characters painted
over and its 5 of characters showing the 6 of bamboo), as the reader read it: each tile's number on the photo, its
best guesses, and the set it lies in. The page builds its review from such a reading and reads it again after every
correction (``webapp.review.read_again``), as ``pungchow photo --tile/--add`` does.
"""

from __future__ import annotations

import json
import re
from dataclasses import replace
from pathlib import Path

import numpy as np
import pytest
from PIL import Image

from pungchow.cli import main
from recognizer import SAMPLE_PHOTO
from recognizer.reread import HandTile, reread
from scoring.errors import PungChowError
from webapp import review as rv

KONG, PUNG = 0, 1
#: The flawed photo as read: (number, guesses, set). #0-#3 the concealed kong with its face-down ends, #4-#6 the pung of
#: 7 dots, #7 the first season, #14 the winning tile set apart; #9, a 6 of bamboo, is read 3B (0.64 against 0.16),
#: #13, a 5 of characters, shows the 6 of bamboo; the 3 of characters beside #12 was not found at all.
FLAWED = (
    (0, (("XX", 0.92), ("1B", 0.003)), KONG), (1, (("1B", 0.91), ("GD", 0.003)), KONG),
    (2, (("1B", 0.90), ("3F", 0.004)), KONG), (3, (("XX", 0.92), ("GD", 0.003)), KONG),
    (4, (("7D", 0.90), ("3F", 0.003)), PUNG), (5, (("7D", 0.90), ("3F", 0.003)), PUNG), (6, (("7D", 0.90), ("2S", 0.003)), PUNG),
    (7, (("1S", 0.96), ("EW", 0.002)), None),
    (8, (("5B", 0.89), ("5C", 0.003)), None),
    (9, (("3B", 0.64), ("6B", 0.16), ("8B", 0.05)), None),
    (10, (("7B", 0.91), ("5B", 0.003), ("6B", 0.003)), None),
    (11, (("9B", 0.92), ("5B", 0.003)), None),
    (12, (("4C", 0.90), ("5C", 0.004)), None),
    (13, (("6B", 0.68), ("8B", 0.08), ("3B", 0.04)), None),
    (14, (("9B", 0.91), ("6B", 0.004)), None),
)


def as_read() -> list[HandTile]:
    return [HandTile(n, guesses[0][0], guesses, laid_in=laid) for n, guesses, laid in FLAWED]


def corrected(tiles: list[HandTile], **faces: str) -> list[HandTile]:
    """The player's word on some tiles (``t13="5C"``), and tiles they added (``added_15="3C"``)."""
    fixed = [replace(t, code=faces[f"t{t.id}"], pinned=True) if f"t{t.id}" in faces else t for t in tiles]
    added = [HandTile(int(k.split("_")[1]), code, pinned=True) for k, code in faces.items() if k.startswith("added_")]
    return fixed + added


def test_with_a_tile_missing_no_winning_hand_is_near_and_the_tiles_keep_their_own_faces() -> None:
    """Thirteen tiles with #13 put right cannot finish four sets and a pair: #9 stays the reader's 3B, and the decoder
    says no winning hand is near rather than bend the tiles into one."""
    read = reread(corrected(as_read(), t13="5C"))
    assert read.code(9) == "3B" and read.code(13) == "5C"
    assert read.changes == () and read.kept_own and "no winning hand" in read.notes[0]


def test_the_missed_tile_added_the_hand_wins_with_the_six_of_bamboo() -> None:
    """With #13 set to 5C and the missed 3C added, 3C 4C 5C is a chow, and #9 as 6B makes the chow 5B 6B 7B with #8 and
    #10: four sets and a pair (9B 9B). The reader gave 6B a quarter of 3B's chance, so the hand, not the tile, decides."""
    read = reread(corrected(as_read(), t13="5C", added_15="3C"))
    assert read.code(9) == "6B"
    assert [(c.tile, c.was, c.now) for c in read.changes] == [(9, "3B", "6B")]
    assert "chow 5B 6B 7B with tiles #8, #10" in read.changes[0].why
    assert read.code(13) == "5C" and read.code(15) == "3C" and not read.kept_own


def test_the_players_word_is_never_moved() -> None:
    """The player says #9 is the 3 of bamboo: it stays 3B though 6B would make a winning hand, and no other tile of
    theirs moves either."""
    read = reread(corrected(as_read(), t13="5C", t9="3B", added_15="3C"))
    assert read.code(9) == "3B" and read.code(13) == "5C" and read.code(15) == "3C"
    assert all(c.tile not in (9, 13, 15) for c in read.changes)


def test_the_runner_up_reading_offers_the_face_it_gives_a_tile() -> None:
    """The photo as read: the likeliest reading keeps #9 the reader's 3B, the runner-up reads it 6B; the page offers
    that face as one tap. A tile of the player's is never offered another face."""
    read = reread(as_read())
    assert read.code(9) == "3B" and read.runner_up == ((9, "6B"),) and read.other(9) == "6B"
    assert reread(corrected(as_read(), t9="3B")).other(9) is None


def test_two_tiles_with_one_number_are_refused_in_one_line() -> None:
    with pytest.raises(PungChowError, match="share a number"):
        reread([HandTile(1, "1B"), HandTile(1, "2B")])


def review_as_read() -> rv.Review:
    """The page's review of the flawed photo (boxes aside): every tile the reader's, none checked yet."""
    tiles = tuple(rv.ReviewTile(n, guesses[0][0], None, guesses[0][1], guesses, laid, "recognised") for n, guesses, laid in FLAWED)
    return rv.Review(tiles, (rv.ReviewGroup(KONG, concealed=True), rv.ReviewGroup(PUNG)), winning_tile=14)


def test_the_page_reads_the_hand_again_after_the_missed_tile_is_added() -> None:
    """On the page: #13 put right, the 3C added; the hand read again shows #9 as 6B, marked with why, and the page says
    which tile moved. The hand is then the sample's winning hand."""
    fixed = rv.replace_tile(review_as_read(), 13, "5C")
    assert rv.read_again(fixed).tile(9).code == "3B"
    added = rv.add_tile(rv.read_again(fixed), "3C")
    again = rv.read_again(added)
    nine = again.tile(9)
    assert nine.code == "6B" and nine.decoded and "chow 5B 6B 7B" in nine.decoded
    assert nine.confidence == pytest.approx(0.16) and "read as a hand" in nine.label
    assert nine in rv.tiles_to_check(again), "a tile the decoder moved is listed for the player to check"
    assert rv.read_again_changes(added, again) == [f"#9 3B → 6B: {nine.decoded}"]
    hand, problems = rv.to_hand(rv.set_circumstances(again, won_by="discard"))
    assert hand is not None and problems == []
    assert str(hand).startswith("5B6B7B9B9B3C4C5C")


def test_a_tile_the_player_vouches_for_is_no_longer_the_decoders() -> None:
    """The player checks #9 (the decoder's 6B) and it stays 6B, now theirs: no longer marked; and a hand typed by the
    player is never read again."""
    again = rv.read_again(rv.add_tile(rv.replace_tile(review_as_read(), 13, "5C"), "3C"))
    checked = rv.read_again(rv.confirm_tile(again, 9))
    assert checked.tile(9).code == "6B" and checked.tile(9).decoded is None and checked.tile(9).confidence is None
    typed = rv.from_notation("7C8C9C6C7C8CSWSW [2D2D2D] [5C6C7C]", winning="2D", won_by="discard")
    assert rv.read_again(typed) is typed


#: Three of the six sticks of the sample's #9, a 6 of bamboo, under glare (top, bottom, left, right): the two outer
#: ones above and the middle one below, so that it shows a 3's one stick over two. The 7-bit reader reads the plain 6
#: right, barely (6B 0.43, 3B 0.36); so glared, it reads 3B 0.48, 6B 0.08.
GLARE = ((237, 267, 265, 281), (237, 267, 299, 316), (270, 299, 283, 299))
#: The face colour the glare washes the sticks towards, and how far: far enough that the reader takes the 6 for a 3 on
#: every processor (at 0.8 the 7-bit reader still read it a 6).
GLARE_FACE, GLARE_STRENGTH = np.array([238, 238, 232], np.float32), 0.9


def flawed_photo(folder: Path) -> Path:
    """The browser story's photo: the sample with its 3 of characters painted over with table (missed), its 5 of
    characters showing the 6 of bamboo beside it (read wrong), and glare on that 6 of bamboo (#9) that makes it look
    like a 3."""
    sample = np.asarray(Image.open(SAMPLE_PHOTO).convert("RGB"))
    flawed = sample.copy()
    flawed[232:332, 433:495] = sample[340:440, 433:495]
    flawed[239:326, 556:619] = np.asarray(Image.fromarray(sample[232:317, 257:329]).resize((63, 87)))
    for top, bottom, left, right in GLARE:
        lit = flawed[top:bottom, left:right].astype(np.float32) * (1 - GLARE_STRENGTH) + GLARE_FACE * GLARE_STRENGTH
        flawed[top:bottom, left:right] = lit.clip(0, 255).astype(np.uint8)
    Image.fromarray(flawed).save(folder / "flawed.jpg", quality=92)
    return folder / "flawed.jpg"


@pytest.mark.skipif(not SAMPLE_PHOTO.exists(), reason="the sample photo is not installed")
def test_pungchow_photo_reads_the_corrected_hand_again(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    """`pungchow photo` takes the player's word as the page does: #13 is 5C, the missed 3C added; the hand read again
    around them is the sample's winning hand, scoring its 112 under Harr, and every tile the decoder reads otherwise
    than the reader's best guess is said with why."""
    photo = flawed_photo(tmp_path)
    assert main(["photo", str(photo), "--rules", "harr-1922", "--won-by", "discard", "--tile", "13=5C", "--add", "3C"]) == 0
    out = capsys.readouterr().out
    corrected = next(line for line in out.splitlines() if line.startswith("hand with your corrections: "))
    assert corrected.split()[4] == "5B6B7B9B9B3C4C5C" and {"(1B1B1B1B)", "[7D7D7D]", "1S"} <= set(corrected.split()), corrected
    assert "= 112 after 1 double" in out
    for line in re.findall(r"read again as a hand: tile #\d+: \w+ -> \w+, .*", out):
        assert "makes the" in line or "at most" in line, line
    assert main(["photo", str(photo), "--tile", "13"]) == 2
    assert "is not NUMBER=CODE" in capsys.readouterr().err


def test_a_doubtful_tile_offers_the_readers_guess_and_the_runner_up_hands_face_as_one_tap() -> None:
    """As read, #9 is 3B and the next likeliest hand reads it 6B: the fix panel offers 6B as one tap, saying so. Once the
    hand reads #9 as 6B, the reader's own 3B is one tap away."""
    first = rv.read_again(review_as_read())
    assert rv.one_tap_faces(first.tile(9))[0] == ("6B", "16%, next likeliest hand")
    again = rv.read_again(rv.add_tile(rv.replace_tile(first, 13, "5C"), "3C"))
    assert rv.one_tap_faces(again.tile(9))[0] == ("3B", "64%, the reader's")
    assert rv.one_tap_faces(rv.ReviewTile(0, "1B", other="2B")) == [("2B", "next likeliest hand")]


@pytest.mark.skipif(not SAMPLE_PHOTO.exists(), reason="the sample photo is not installed")
def test_the_first_readings_reasons_name_tiles_by_their_numbers(capsys: pytest.CaptureFixture[str]) -> None:
    """`pungchow recognize --json` on the sample: each tile the decoder moved names the other tiles of its set by their
    numbers on the overlay, as the page does, and those tiles show the set's faces."""
    assert main(["recognize", str(SAMPLE_PHOTO), "--json"]) == 0
    data = json.loads(capsys.readouterr().out)
    code = {t["number"]: t["code"] for t in data["tiles"]}
    named = 0
    for change in data["decoded"]["changes"]:
        assert code[change["number"]] == change["to"]
        found = re.search(r"makes the \w+ ((?:\w\w )*\w\w) with tiles? (#\d+(?:, #\d+)*)", change["why"])
        if found:
            faces = found.group(1).split()
            for number in re.findall(r"#(\d+)", found.group(2)):
                assert code[int(number)] in faces, f"#{number} ({code[int(number)]}) is not of the set {faces}: {change['why']}"
                named += 1
    assert named or not data["decoded"]["changes"]
