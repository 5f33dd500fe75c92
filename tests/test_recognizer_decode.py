"""The hand decoder reads the photo as one legal hand: given these tiles' readings, this hand, because of these rules."""

from __future__ import annotations

import itertools
import json
import threading
import time
from collections.abc import Callable

import numpy as np
import pytest

from recognizer.decode import BUDGET_STEPS, HandShape, Layout, copies_in_a_set, decode, least_under_the_count_rule
from recognizer.detections import Detections
from recognizer.group import Group
from recognizer.labels import CLASSES
from recognizer.likeness import pull_alike
from scoring.arrange import Shape
from scoring.tiles import BONUS_CODES


def reading(*tiles: str | tuple[str, float, str, float]) -> np.ndarray:
    """Each tile's probabilities: a code read surely (0.9), or (code, p, other code, q) read between two faces."""
    rows = []
    for tile in tiles:
        code, p, other, q = (tile, 0.9, None, 0.0) if isinstance(tile, str) else tile
        row = np.full(len(CLASSES), (1.0 - p - q) / (len(CLASSES) - 2))
        row[CLASSES.index(code)] = p
        if other:
            row[CLASSES.index(other)] = q
        rows.append(row)
    return np.array(rows)


def codes(decoding_codes: tuple[int, ...]) -> list[str]:
    return [CLASSES[c] for c in decoding_codes]


HAND = ["1C", "1C", "1C", "2B", "3B", "4B", "5D", "6D", "7D", "EW", "EW", "EW", "RD", "RD"]


#: A search given this many steps finishes every hand here (the longest takes under 2000): these tests check what it
#: proves, not how far a photo's budget (``BUDGET_STEPS``) reaches.
PROVEN = 1_000_000


def test_a_pung_misread_on_one_tile_is_read_as_the_pung() -> None:
    """1C 1C 7C cannot finish four sets and a pair; 1C 1C 1C can, and the third tile gave 1C half 7C's chance."""
    tiles = list(HAND)
    tiles[2] = ("7C", 0.6, "1C", 0.3)  # type: ignore[call-overload]
    d = decode(reading(*tiles), Layout(tuple(range(14))), budget=PROVEN)
    assert codes(d.best.codes) == HAND
    assert [(c.tile, c.was, c.now) for c in d.changes] == [(2, "7C", "1C")]
    assert "pung 1C 1C 1C with tiles 0, 1" in d.changes[0].why
    assert d.best.log_ratio == pytest.approx(np.log(2.0))
    assert d.runner_up is not None and d.runner_up.log_ratio > d.best.log_ratio


def test_a_hand_read_right_tile_by_tile_is_left_as_read() -> None:
    d = decode(reading(*HAND), Layout(tuple(range(14))), budget=PROVEN)
    assert codes(d.best.codes) == HAND and d.changes == () and d.best.log_ratio == 0.0
    assert d.best.shape is HandShape.STANDARD


def test_no_fifth_tile_of_a_face() -> None:
    """Harr: "there are four of each tile". A loser's thirteen tiles read 7C five times: the least sure is read as its
    next face, and the hand is not made into a winning one."""
    tiles = ["7C"] * 4 + [("7C", 0.5, "1C", 0.4)] + ["2B", "3B", "4B", "5D", "6D", "7D", "EW", "EW"]
    d = decode(reading(*tiles), Layout(tuple(range(13))), budget=PROVEN)
    assert codes(d.best.codes).count("7C") == 4 and codes(d.best.codes)[4] == "1C"
    assert d.best.shape is HandShape.COUNT_RULE and not d.kept_own
    assert "at most 4 7C" in d.changes[0].why


def test_one_of_each_flower() -> None:
    """Two tiles read as the same flower: a set has one of each, so the less sure takes its next flower."""
    tiles = list(HAND) + [("2F", 0.5, "1F", 0.4), ("2F", 0.7, "3F", 0.1)]
    d = decode(reading(*tiles), Layout(tuple(range(16))), budget=PROVEN)
    assert codes(d.best.codes)[14:] == ["1F", "2F"]
    assert "a set holds 1 of each flower and season" in d.changes[0].why
    harrs = copies_in_a_set(["1F", "2F", "3F", "4F"])  # Harr's set: two each of four mandarins
    d = decode(reading(*tiles), Layout(tuple(range(16))), copies=harrs, budget=PROVEN)
    assert codes(d.best.codes)[14:] == ["2F", "2F"]


def test_sets_laid_apart_are_each_a_set() -> None:
    """A declared set laid apart is a chow, pung or kong by itself: 2B 3B 9B laid apart, the last tile giving 4B a
    fair chance, is the chow 2B 3B 4B."""
    tiles = list(HAND)
    tiles[5] = ("9B", 0.5, "4B", 0.2)  # type: ignore[call-overload]
    sets = ((0, 1, 2), (3, 4, 5), (6, 7, 8), (9, 10, 11))
    d = decode(reading(*tiles), Layout((12, 13), sets), budget=PROVEN)
    assert codes(d.best.codes) == HAND
    assert "chow 2B 3B 4B" in d.changes[0].why


def test_thirteen_orphans_where_the_book_has_it() -> None:
    """Thirteen different heads, one paired: a hand under Harr (who has it), read for it; a book without it reads the
    tiles as they are."""
    heads = ["1B", "9B", "1C", "9C", "1D", "9D", "EW", "SW", "WW", "NW", "RD", "GD", "WD"]
    tiles = heads[:-1] + [("2D", 0.5, "WD", 0.4), "RD"]
    d = decode(reading(*tiles), Layout(tuple(range(14))), shapes=frozenset({Shape.THIRTEEN_HEADS}), budget=PROVEN)
    assert d.best.shape is HandShape.THIRTEEN_HEADS and codes(d.best.codes)[12] == "WD"
    d = decode(reading(*tiles), Layout(tuple(range(14))), shapes=frozenset(), budget=PROVEN)
    assert d.best.shape is HandShape.COUNT_RULE and d.kept_own and d.notes
    assert codes(d.best.codes)[12] == "2D"


def test_far_from_any_legal_hand_the_tiles_keep_their_own() -> None:
    """Fourteen sure tiles that make no hand: no winning hand is within a thousand times, so nothing changes."""
    tiles = ["1C", "3C", "5C", "7C", "9C", "2B", "4B", "6B", "8B", "1D", "3D", "5D", "EW", "RD"]
    d = decode(reading(*tiles), Layout(tuple(range(14))), budget=PROVEN)
    assert d.kept_own and codes(d.best.codes) == tiles and d.changes == ()
    assert "keep their own" in d.notes[0]


def test_decoding_an_eighteen_tile_hand_is_quick() -> None:
    """A photo's budget proves an eighteen-tile hand misread on two tiles with steps to spare."""
    tiles = list(HAND) + ["1F", ("2S", 0.5, "3S", 0.3), "3F", "4S"]
    tiles[4] = ("9B", 0.5, "3B", 0.3)  # type: ignore[call-overload]
    d = decode(reading(*tiles), Layout(tuple(range(18))))
    assert d.complete and codes(d.best.codes)[4] == "3B"
    assert d.steps < BUDGET_STEPS / 4


#: Twenty tiles, ten read 1C (else 2C) and ten 2C (else 3C): no winning hand is near, and a set holds four of each,
#: so twelve tiles must move; the readings the count rule allows are too many to prove the likeliest within a
#: photo's budget.
CROWDED = [("1C", 0.5, "2C", 0.3)] * 10 + [("2C", 0.5, "3C", 0.3)] * 10


def test_a_search_too_large_for_its_budget_stops_at_the_same_reading_every_time() -> None:
    """Cut short, the search keeps what it found by then: the same reading at the same step on every run, which is
    why it counts steps, not time. The count rule's own reading needs no search (``least_under_the_count_rule``), so
    even a search starved of steps reads at most four of a tile, and reads them as a search given all the steps it
    wants does."""
    probs, layout = reading(*CROWDED), Layout(tuple(range(20)))
    runs = [decode(probs, layout, budget=1000) for _ in range(3)]
    assert not runs[0].complete
    assert len({(d.best.codes, d.steps, d.best.log_ratio) for d in runs}) == 1
    assert codes(runs[0].best.codes).count("1C") == 4  # at most four of a tile
    starved = decode(probs, layout, budget=100)
    assert not starved.complete and starved.best.codes == runs[0].best.codes
    assert starved.best.log_ratio == pytest.approx(decode(probs, layout, budget=10**5).best.log_ratio)


def test_a_busy_machine_reads_a_photo_as_a_quiet_one_does(monkeypatch: pytest.MonkeyPatch) -> None:
    """Other threads burning the processor, then every clock jumping a second a call: the same reading, cut short
    at the same step, as on a quiet machine (a budget of time would stop sooner on a busy machine)."""
    probs, layout = reading(*CROWDED), Layout(tuple(range(20)))
    quiet = decode(probs, layout)
    assert not quiet.complete
    stop = threading.Event()

    def burn() -> None:
        a = np.random.default_rng(0).random((300, 300))
        while not stop.is_set():
            a = np.tanh(a @ a)

    burners = [threading.Thread(target=burn) for _ in range(2)]
    for b in burners:
        b.start()
    try:
        busy = [decode(probs, layout) for _ in range(3)]
    finally:
        stop.set()
        for b in burners:
            b.join()
    ticks = iter(range(10**9))
    for clock in ("process_time", "perf_counter", "monotonic", "time"):
        monkeypatch.setattr(time, clock, lambda: float(next(ticks)))
    jumping = decode(probs, layout)
    for d in [*busy, jumping]:
        assert (d.best.codes, d.complete, d.steps) == (quiet.best.codes, quiet.complete, quiet.steps)


def test_tiles_alike_pull_toward_one_face() -> None:
    """Three crops alike (a pung) read 1C, 1C and 7C: pulled together, the third reads 1C too; a crop unlike them
    keeps its own reading."""
    probs = reading("1C", "1C", ("7C", 0.5, "1C", 0.4), "5D")
    emb = np.array([[1.0, 0.0, 0.0], [0.99, 0.1, 0.0], [0.98, 0.05, 0.1], [0.0, 0.0, 1.0]])
    pulled = pull_alike(probs, emb)
    assert [CLASSES[c] for c in pulled.argmax(axis=1)] == ["1C", "1C", "1C", "5D"]
    assert np.allclose(pulled[3], probs[3])
    assert np.allclose(pull_alike(probs, np.zeros((4, 0))), probs)


def test_a_set_laid_apart_is_a_set_even_when_the_hand_is_out_of_reach() -> None:
    """Eleven sure tiles in hand that make no sets: no winning hand is near, but the pung laid apart is still a pung:
    5D 5D 3D laid together reads 5D 5D 5D."""
    tiles = ["5D", "5D", ("3D", 0.6, "5D", 0.3), *["1C", "3C", "5C", "7C", "9C", "2B", "4B", "6B", "8B", "EW", "RD"]]
    d = decode(reading(*tiles), Layout(tuple(range(3, 14)), ((0, 1, 2),)), budget=PROVEN)
    assert d.kept_own and codes(d.best.codes) == ["5D", "5D", "5D", *codes(d.best.codes)[3:]]
    assert codes(d.best.codes)[3:] == tiles[3:]
    assert "pung 5D 5D 5D" in d.changes[0].why


def test_the_pipeline_step_reads_a_photos_layout_and_says_what_it_changed() -> None:
    """Eleven tiles in a row and a pung laid apart below, one of its tiles read 9D: read one by one there is no pung;
    read as a hand, the three are 5D 5D 5D, grouped again as a pung, and the record says which tile changed and why."""
    from recognizer.classify import with_probabilities
    from recognizer.decode import read_the_hand
    from recognizer.detections import Detections
    from recognizer.group import GroupKind, group

    hand = ["1C", "2C", "3C", "4B", "5B", "6B", "7D", "8D", "9D", "EW", "EW"]
    boxes = [[10 + 42 * i, 100, 40, 56] for i in range(len(hand))] + [[10 + 42 * i, 300, 40, 56] for i in range(3)]
    probs = reading(*hand, "5D", "5D", ("9D", 0.5, "5D", 0.4))
    dets = with_probabilities(Detections(np.array(boxes, np.float32), np.ones(len(boxes))), probs)
    dets, groups = group(dets)
    assert not any(g.kind is GroupKind.PUNG for g in groups)  # 5D 5D 9D is no set: read one by one, no pung lies there
    dets, groups, decoding = read_the_hand(dets, groups)
    assert decoding is not None and [(c.tile, c.was, c.now) for c in decoding.changes] == [(13, "9D", "5D")]
    assert [dets.code(k) for k in range(11, 14)] == ["5D", "5D", "5D"]
    assert any(g.kind is GroupKind.PUNG and set(g.members) == {11, 12, 13} for g in groups)
    assert decoding.to_json()["changes"][0] == {"tile": 13, "from": "9D", "to": "5D", "why": decoding.changes[0].why}


def test_recognize_json_and_text_carry_the_decoders_reading(capsys: pytest.CaptureFixture[str]) -> None:
    """The sample's tile #9 is a six of bamboo the reader is unsure of (6B about 0.6, 3B next). Read as a hand, the six
    completes the chow 5B 6B 7B, so the reader's own reading stands: --json says so, with the runner-up reading, and
    the text gives the unsure tile and the hand."""
    from pungchow.cli import main as cli_main
    from recognizer import SAMPLE_PHOTO

    assert cli_main(["recognize", str(SAMPLE_PHOTO), "--json"]) == 0
    data = json.loads(capsys.readouterr().out)
    decoded = data["decoded"]
    assert decoded["shape"] == "four sets and a pair"
    assert next(t["code"] for t in data["tiles"] if t["number"] == 9) == "6B"
    assert all(c["to"] == "6B" and c["number"] == 9 for c in decoded["changes"])  # a reader that took it for a 3B is put right
    assert cli_main(["recognize", str(SAMPLE_PHOTO)]) == 0
    text = capsys.readouterr().out
    assert "hand: 5B6B7B9B9B3C4C5C (1B1B1B1B) [7D7D7D] 1S" in text
    assert "runner-up reading:" in text


def test_the_text_names_each_tile_the_hand_changed_and_why(capsys: pytest.CaptureFixture[str]) -> None:
    """Eleven tiles in a row and a pung laid apart below, one of its tiles read 9D: the text of ``pungchow recognize``
    says, by the tile's number on the overlay, that it was read 5D as a hand, and why."""
    from pungchow.reader import _print_recognition, tile_numbers
    from recognizer.classify import with_probabilities
    from recognizer.decode import read_the_hand
    from recognizer.detections import Detections
    from recognizer.group import group
    from recognizer.hand import Recognition, read_hand

    hand = ["1C", "2C", "3C", "4B", "5B", "6B", "7D", "8D", "9D", "EW", "EW"]
    boxes = [[10 + 42 * i, 100, 40, 56] for i in range(len(hand))] + [[10 + 42 * i, 300, 40, 56] for i in range(3)]
    dets = with_probabilities(Detections(np.array(boxes, np.float32), np.ones(len(boxes))),
                              reading(*hand, "5D", "5D", ("9D", 0.5, "5D", 0.4)))
    dets, groups, decoding = read_the_hand(*group(dets))
    built = read_hand(dets, groups)
    res = Recognition(dets, groups, built.hand, [], (500, 400), {}, decoding=decoding, trace=built.trace)
    _print_recognition(res, as_json=False)
    text = capsys.readouterr().out
    assert decoding is not None and len(decoding.changes) == 1
    assert f"read as a hand: tile #{tile_numbers(res)[13]}: 9D -> 5D, {decoding.changes[0].why}" in text
    _print_recognition(res, as_json=True)
    data = json.loads(capsys.readouterr().out)
    assert [(c["number"], c["from"], c["to"]) for c in data["decoded"]["changes"]] == [(tile_numbers(res)[13], "9D", "5D")]


def test_the_count_rules_reading_is_the_least_of_all() -> None:
    """``least_under_the_count_rule`` against every reading there is: 300 small photos (up to seven tiles, four
    faces, some faces a tile may not be, room for 0-3 of each), the same least loss, or None exactly where no
    reading keeps to the room."""
    rng = np.random.default_rng(7)
    for _ in range(300):
        tiles, faces = int(rng.integers(1, 8)), 4
        loss = rng.exponential(1.0, (tiles, faces))
        loss[rng.random((tiles, faces)) < 0.25] = np.inf
        room = rng.integers(0, 4, faces)
        every = [sum(loss[t, f] for t, f in enumerate(pick)) for pick in itertools.product(range(faces), repeat=tiles)
                 if all(pick.count(f) <= room[f] for f in range(faces))]
        best = min((v for v in every if np.isfinite(v)), default=None)
        least = least_under_the_count_rule(loss, room)
        if best is None:
            assert least is None
        else:
            assert least is not None and least[1] == pytest.approx(best)
            assert (np.bincount(least[0], minlength=faces) <= room).all()


def test_other_tiles_on_the_table_share_the_sets_count() -> None:
    """Another player's tiles beside the hand are of the same set: the hand holds the pung EW EW EW, so of the three
    tiles beside it read EW, only one can be; the hand keeps its wind and the two least sure beside it take their
    next faces, saying why."""
    beside = [("EW", 0.8, "SW", 0.1), ("EW", 0.5, "NW", 0.4), ("EW", 0.45, "WW", 0.4)]
    d = decode(reading(*HAND, *beside), Layout(tuple(range(14))), budget=PROVEN)
    assert codes(d.best.codes) == HAND + ["EW", "NW", "WW"]
    assert [(c.tile, c.was, c.now) for c in d.changes] == [(15, "EW", "NW"), (16, "EW", "WW")]
    assert all("a set holds at most 4 EW" in c.why for c in d.changes)


def test_a_whole_set_laid_out_is_read_under_one_count() -> None:
    """No hand in the photo (a set laid out as sold, a few of its tiles taken for a hand's rows): six tiles read 1B,
    the hand's two among them, and a set has four. The two least sure of all six move, wherever they lie: here both
    outside the rows read as the hand."""
    rows = ["1C", "3C", "5C", "7C", "9C", "2B", "4B", "6B", "8B", "1D", "3D", "5D", "1B", "1B"]
    beside = ["1B", "1B", ("1B", 0.5, "2F", 0.45), ("1B", 0.6, "3F", 0.35)]
    d = decode(reading(*rows, *beside), Layout(tuple(range(14))), budget=PROVEN)
    assert codes(d.best.codes) == rows + ["1B", "1B", "2F", "3F"]
    assert d.best.shape is HandShape.COUNT_RULE


def test_a_page_of_hands_composed_apart_keeps_its_tiles() -> None:
    """Harr's page 47 prints seven 9C, each read surely: no one set holds them. Beside a hand with the pung EW EW EW,
    three more tiles read EW surely: moving two of them would make the photo a hundred thousand times less likely,
    far beyond ``NEAR``, so they are read as they are, and so are the hand's. The same with no hand in the rows: six
    sure EW, one among the rows, keep their faces."""
    beside = ["EW", "EW", "EW"]
    d = decode(reading(*HAND, *beside), Layout(tuple(range(14))), budget=PROVEN)
    assert codes(d.best.codes) == HAND + beside and d.changes == ()
    no_hand = ["1C", "3C", "5C", "7C", "9C", "2B", "4B", "6B", "8B", "1D", "3D", "5D", "EW", "RD"]
    d = decode(reading(*no_hand, *beside, "EW", "EW"), Layout(tuple(range(14))), budget=PROVEN)
    assert d.best.shape is HandShape.COUNT_RULE and codes(d.best.codes) == no_hand + ["EW"] * 5


def test_tiles_the_player_fixed_are_never_moved() -> None:
    """Five tiles the player typed as 1B (each probability 1 on 1B, 0 elsewhere): no set holds five, but no other face
    is possible for any of them, so the count rule has no reading and each keeps what the player said."""
    fixed = np.zeros((5, len(CLASSES)))
    fixed[:, CLASSES.index("1B")] = 1.0
    probs = np.vstack([fixed, reading("2C", "3C", "4C", "5D", "6D", "7D", "EW", "EW", "RD")])
    d = decode(probs, Layout(tuple(range(14))), budget=PROVEN)
    assert codes(d.best.codes)[:5] == ["1B"] * 5
    assert all(c.tile >= 5 for c in d.changes)
    assert least_under_the_count_rule(np.where(fixed > 0, 0.0, np.inf), copies_in_a_set()) is None


#: Where ``_laid_out`` lays the box apart: below the row, three and a half tiles down.
BELOW = (200, 300)
#: ... or at the row's right end, a sixth of a tile beyond its last tile, as a kong's end lies.
AT_THE_END = (10 + 42 * len(HAND) + 8, 100)


def _laid_out(hand: list[str], apart: np.ndarray, *at: tuple[int, int]) -> tuple[Detections, list[Group]]:
    """The ``hand`` in a row and more boxes laid ``at`` (one, below it, by default), read as ``apart``'s rows say,
    grouped."""
    from recognizer.classify import with_probabilities
    from recognizer.group import group

    boxes = [[10 + 42 * i, 100, 40, 56] for i in range(len(hand))] + [[*where, 40, 56] for where in at or (BELOW,)]
    dets = with_probabilities(Detections(np.array(boxes, np.float32), np.ones(len(boxes))), np.vstack([reading(*hand), apart]))
    return group(dets)


def _unsure(**faces: float) -> np.ndarray:
    """A box's probabilities: these faces as given, the flowers and seasons next to none, the rest shared."""
    row = np.full(len(CLASSES), 0.0)
    bonus = [CLASSES.index(c) for c in ("1F", "2F", "3F", "4F", "1S", "2S", "3S", "4S")]
    row[bonus] = 0.002
    rest = [i for i in range(len(CLASSES)) if i not in bonus and CLASSES[i] not in faces]
    row[rest] = (1.0 - sum(faces.values()) - row[bonus].sum()) / len(rest)
    for code, p in faces.items():
        row[CLASSES.index(code)] = p
    return row[None]


def test_a_word_laid_apart_from_a_whole_hand_is_set_aside_and_the_hand_read_whole() -> None:
    """Drawn text scene 3810: a printed word below a whole hand joined it as the winning tile laid apart, read as a
    north wind at 0.19, and no hand is whole with it (nor is it a flower or a season: 0.002 each). Without it the
    fourteen tiles are four sets and a pair: it is set aside, and the hand read whole."""
    from recognizer.decode import whole_without

    dets, groups = _laid_out(HAND, _unsure(NW=0.19, WW=0.15, SW=0.12))
    dets, groups, decoding, extra = whole_without(dets, groups)
    assert extra == (14,) and decoding is not None and decoding.best.shape is HandShape.STANDARD
    assert not any(g.in_hand and 14 in g.members for g in groups)


def test_a_back_beside_the_rows_end_is_a_kongs_end_and_never_set_aside() -> None:
    """Drawn scene 3609: a back a sixth of a tile beyond the row's last tile, as a kong's end lies, read at 0.88. It
    lies beside a tile, not apart from every tile, so it stays the hand's, though the hand is not whole with it."""
    from recognizer.decode import whole_without

    _, _, decoding, extra = whole_without(*_laid_out(HAND, _unsure(XX=0.88), AT_THE_END))
    assert extra == () and decoding is not None and decoding.best.shape is HandShape.COUNT_RULE


def test_tiles_read_surely_laid_apart_from_a_whole_hand_are_set_aside() -> None:
    """Drawn domino scene 4210: two blank domino halves, far above a whole hand and far from each other, read as white
    dragons at 0.88. How surely a box is read says nothing of whether it is the hand's; a tile lying apart from every
    tile of a hand that is whole without it is no tile of that hand (a discard, a tile of the wall): both are set
    aside, and the hand read whole."""
    from recognizer.decode import whole_without

    halves = np.vstack([_unsure(WD=0.88), _unsure(WD=0.88)])
    _, groups, decoding, extra = whole_without(*_laid_out(HAND, halves, (100, 300), (400, 300)))
    assert sorted(extra) == [14, 15] and decoding is not None and decoding.best.shape is HandShape.STANDARD
    assert not any(g.in_hand and set(g.members) & {14, 15} for g in groups)


def test_a_back_laid_apart_from_every_tile_is_set_aside_where_the_hand_is_whole_without_it() -> None:
    """Drawn domino scene 3810: a domino's blank half three tiles below a whole hand, read as a back at 0.82. No
    kong's end lies so far from every tile: it is set aside, and the hand read whole."""
    from recognizer.decode import whole_without

    _, groups, decoding, extra = whole_without(*_laid_out(HAND, _unsure(XX=0.82)))
    assert extra == (14,) and decoding is not None and decoding.best.shape is HandShape.STANDARD
    assert not any(g.in_hand and 14 in g.members for g in groups)


def test_keys_laid_apart_two_together_and_one_alone_are_set_aside_where_the_hand_is_whole_without_them() -> None:
    """Drawn keyboard scene 4008: deep in a keyboard below a whole hand, two keys side by side and a third two rows
    below them were read as backs (0.55-0.88) and joined the hand. Two boxes lying together apart from every tile are
    no kong's ends, which lie beside its middle tiles: the three are set aside, and the hand read whole."""
    from recognizer.decode import whole_without

    keys = np.vstack([_unsure(XX=0.88), _unsure(XX=0.55, NT=0.29), _unsure(XX=0.84)])
    _, groups, decoding, extra = whole_without(*_laid_out(HAND, keys, (200, 300), (242, 300), (260, 420)))
    assert sorted(extra) == [14, 15, 16] and decoding is not None and decoding.best.shape is HandShape.STANDARD
    assert not any(g.in_hand and set(g.members) & {14, 15, 16} for g in groups)


def test_a_pair_laid_apart_read_unsurely_is_never_set_aside_from_the_tiles_it_completes() -> None:
    """Twelve tiles in a row and a pair of red dragons laid apart below, read unsurely (0.6): two boxes lying together
    apart from every tile, but without them the hand is two tiles short, so they stay the hand's."""
    from recognizer.decode import whole_without

    pair = np.vstack([_unsure(RD=0.6), _unsure(RD=0.6)])
    _, groups, decoding, extra = whole_without(*_laid_out(HAND[:12], pair, (200, 300), (242, 300)))
    assert extra == () and decoding is not None
    assert all(any(g.in_hand and k in g.members for g in groups) for k in (12, 13))


def test_the_winning_tile_laid_apart_unsurely_is_the_hands_own() -> None:
    """Thirteen tiles in a row and the winning tile laid apart below, read as a red dragon at 0.45: with it the hand
    is whole, so nothing is set aside."""
    from recognizer.decode import whole_without

    _, groups, decoding, extra = whole_without(*_laid_out(HAND[:13], _unsure(RD=0.45, GD=0.3)))
    assert extra == () and decoding is not None and decoding.best.shape is HandShape.STANDARD
    assert any(g.in_hand and 13 in g.members for g in groups)


@pytest.mark.parametrize(("apart", "why"), [
    (_unsure(WD=0.63, NT=0.19), "drawn domino scene 3409: a domino's half read as a white dragon at 0.63 and no tile at "
                                "0.19 was made a flower (read at 0.01), and the winner was paid for it"),
    (_unsure(XX=0.84, **{"1F": 0.01}), "drawn keyboard scene 4008: a key read as a back at 0.84 and a flower at 0.01 was "
                                       "made the flower; a back is no tile of a hand outside a kong, so any face that "
                                       "fits will do, and sure of a back is not sure of a tile"),
])
def test_a_thing_made_a_flower_against_its_reading_is_set_aside_and_the_hand_read_whole(apart: np.ndarray, why: str) -> None:
    """A box laid apart below a whole hand, made a flower its reader all but ruled out for the hand to be whole with
    it: the hand is whole without it, so it is set aside, and the note says so."""
    from recognizer.decode import FACE_UNREAD, whole_without

    assert apart[0, CLASSES.index("1F")] < FACE_UNREAD
    _, groups, decoding, extra = whole_without(*_laid_out(HAND, apart))
    assert extra == (14,) and decoding is not None and decoding.best.shape is HandShape.STANDARD, why
    assert not any(g.in_hand and 14 in g.members for g in groups), why
    assert not any(c.now in BONUS_CODES for c in decoding.changes), why


def test_two_boxes_lying_together_are_not_split_by_a_face_made_up_for_one() -> None:
    """Drawn text scene 4806: a word's two boxes lie together below a whole hand, read as a 4 of bamboo (0.33, 0.25),
    a 1 of characters next to neither (0.03, 0.02). With one set aside, the decoder made the other the fourth 1C, a
    kong among the loose tiles: the hand was "whole" by a face its reader all but ruled out, and one word stayed in it.
    Such a face is no whole hand: both are set aside, and the hand read whole."""
    from recognizer.decode import whole_without

    word = np.vstack([_unsure(**{"4B": 0.33, "3B": 0.07, "1C": 0.03}), _unsure(**{"4B": 0.25, "3B": 0.05, "1C": 0.02})])
    _, groups, decoding, extra = whole_without(*_laid_out(HAND, word, (200, 300), (242, 300)))
    assert sorted(extra) == [14, 15] and decoding is not None and decoding.best.shape is HandShape.STANDARD
    assert not any(g.in_hand and set(g.members) & {14, 15} for g in groups)


def test_a_flower_read_unsurely_is_still_the_hands_flower() -> None:
    """The same box read as a white dragon at 0.5 and the first flower at 0.3: a flower the reader saw stays, as the
    hand's, however unsure."""
    from recognizer.decode import whole_without

    _, groups, decoding, extra = whole_without(*_laid_out(HAND, _unsure(WD=0.5, **{"1F": 0.3})))
    assert extra == () and decoding is not None and decoding.best.shape is HandShape.STANDARD
    assert any(g.in_hand and 14 in g.members for g in groups)
    assert CLASSES[decoding.best.codes[14]] == "1F"


def test_a_flower_neither_boxed_nor_read_surely_is_set_aside() -> None:
    """Drawn card scene 4408: a playing card's corner below a whole hand, boxed at 0.34 and read as the fourth flower
    at 0.11 (the hand's tiles are boxed at 0.85 and more). A flower counts for the winner, and neither the detector nor
    the reader saw one there: it is set aside, and the hand read whole without it."""
    from recognizer.decode import BARELY_BOXED, whole_without

    dets, groups = _laid_out(HAND, _unsure(**{"4F": 0.11, "9C": 0.08}))
    dets = dets.with_(scores=np.r_[np.full(len(HAND), 0.9), 0.34])
    assert dets.scores[14] < BARELY_BOXED
    _, groups, decoding, extra = whole_without(dets, groups)
    assert extra == (14,) and decoding is not None and decoding.best.shape is HandShape.STANDARD
    assert not any(g.in_hand and 14 in g.members for g in groups)


def _no_tile_over(*boxes: int) -> tuple[list[int], Callable[[], np.ndarray]]:
    """A beside detector's answer that sees no tile over these boxes (of ``len(HAND) + 1``), and the times it was asked."""
    asked: list[int] = []

    def answer() -> np.ndarray:
        asked.append(1)
        return np.isin(np.arange(len(HAND) + 1), boxes)

    return asked, answer


def test_a_season_read_unsurely_where_no_tile_is_seen_is_set_aside_wherever_it_lies() -> None:
    """Drawn text scene 4807: a printed word beside the flowers, boxed at 0.55 and read as a season at 0.09. It lies
    beside a tile, not apart, and a flower never breaks a hand, so the hand was whole with it and the winner paid for
    it. Looked at again, no tile is seen over it: a season on it is made up, it is set aside, and the hand read whole."""
    from recognizer.decode import whole_without

    dets, groups = _laid_out(HAND, _unsure(**{"1S": 0.09, "4C": 0.13}), AT_THE_END)
    asked, answer = _no_tile_over(14)
    _, groups, decoding, extra = whole_without(dets, groups, no_tile_over=answer)
    assert asked and extra == (14,) and decoding is not None and decoding.best.shape is HandShape.STANDARD
    assert not any(g.in_hand and 14 in g.members for g in groups)


def test_a_season_read_unsurely_where_a_tile_is_seen_stays_the_hands() -> None:
    """The same box where the second look sees a tile over it, or where nobody looked again: the season stays the
    hand's, as a flower the reader saw however unsurely does."""
    from recognizer.decode import whole_without

    for answer in (_no_tile_over()[1], None):
        dets, groups = _laid_out(HAND, _unsure(**{"1S": 0.09, "4C": 0.13}), AT_THE_END)
        _, groups, decoding, extra = whole_without(dets, groups, no_tile_over=answer)
        assert extra == () and decoding is not None and CLASSES[decoding.best.codes[14]] == "1S"
        assert any(g.in_hand and 14 in g.members for g in groups)


def test_a_fourth_tile_where_no_tile_is_seen_makes_no_kong_among_the_loose_tiles() -> None:
    """Drawn domino scene 4803: a blank domino half by the frame's corner read as a white dragon at 0.81, the fourth
    beside the hand's three: the decoder read a kong among the loose tiles, and the hand held a tile too many. Looked at
    again, no tile is seen over it: it is set aside, and the three read as the pung they are."""
    from recognizer.decode import whole_without

    dets, groups = _laid_out(HAND, _unsure(EW=0.81))
    _, _, decoding, extra = whole_without(dets, groups)
    assert extra == () and decoding is not None and "EW EW EW EW" in str(decoding.best)  # the kong, unasked
    asked, answer = _no_tile_over(14)
    _, groups, decoding, extra = whole_without(*_laid_out(HAND, _unsure(EW=0.81)), no_tile_over=answer)
    assert asked and extra == (14,) and decoding is not None and decoding.best.shape is HandShape.STANDARD
    assert "EW EW EW EW" not in str(decoding.best)


def test_a_whole_hand_read_surely_is_never_looked_at_again() -> None:
    """Looking again means reading the whole photo with a second detector: a hand whole with no flower read unsurely
    and no kong among its loose tiles never asks it."""
    from recognizer.decode import whole_without

    asked, answer = _no_tile_over(3)
    _, _, decoding, extra = whole_without(*_laid_out(HAND[:13], _unsure(RD=0.9)), no_tile_over=answer)
    assert not asked and extra == () and decoding is not None and decoding.best.shape is HandShape.STANDARD
