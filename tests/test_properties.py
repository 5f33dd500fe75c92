"""Properties over generated input (hypothesis), bounded so the whole suite stays quick on two cores.

Notation and JSON of any shape give a value or one of our errors, never another exception; a
finished hand's score is never negative, never over the limit and never depends on the order its
concealed tiles were typed in; a settlement's payments sum to zero; the command line ends in exit
0 or 2 whatever it is given.
"""

from __future__ import annotations

import contextlib
import json
import math
from typing import Any

import pytest

hypothesis = pytest.importorskip("hypothesis", reason="hypothesis is not installed: pip install -e '.[test]'")
from hypothesis import HealthCheck, given, settings  # noqa: E402
from hypothesis import strategies as st  # noqa: E402

from pungchow.cli import main  # noqa: E402
from scoring.api import Hand, rule_sets, score_all  # noqa: E402
from scoring.errors import PungChowError  # noqa: E402
from scoring.jsonfile import MAX_DEPTH, JsonInputError, load_json  # noqa: E402
from scoring.settle.books import settle  # noqa: E402
from scoring.settle.tablefile import table_from_dict  # noqa: E402
from scoring.tiles import ALL_CODES, parse_tiles  # noqa: E402

PLAYING = [c for c in ALL_CODES if c[1] not in "FS" and c != "XX"]
SUITS = "BCD"
HONOURS = ["EW", "SW", "WW", "NW", "RD", "GD", "WD"]
NOTATION_ALPHABET = "0123456789BCDEWSNRGFXmpsz[]() ,"

def bounded(examples: int) -> settings:
    """A fixed number of examples, no per-example deadline (the machine is shared), no example database on disk."""
    return settings(max_examples=examples, deadline=None, database=None,
                    suppress_health_check=[HealthCheck.too_slow, HealthCheck.large_base_example,
                                           HealthCheck.function_scoped_fixture])


@bounded(200)
@given(st.text(alphabet=NOTATION_ALPHABET, max_size=60) | st.text(max_size=40))
def test_any_notation_parses_or_says_why(text: str) -> None:
    with contextlib.suppress(PungChowError):
        Hand.parse(text, check=False)


@bounded(200)
@given(st.lists(st.sampled_from([c for c in ALL_CODES if c != "XX"]), max_size=20))
def test_tile_codes_read_back_as_written(codes: list[str]) -> None:
    assert [t.code for t in parse_tiles(" ".join(codes))] == codes


JSON_VALUES = st.recursive(
    st.none() | st.booleans() | st.integers(-10**17, 10**17) | st.floats(allow_nan=False, allow_infinity=False) | st.text(max_size=12),
    lambda inner: st.lists(inner, max_size=4) | st.dictionaries(st.text(max_size=6), inner, max_size=4),
    max_leaves=30,
)


@bounded(200)
@given(JSON_VALUES)
def test_json_the_loader_accepts_reads_back_as_written(value: Any) -> None:
    assert load_json(json.dumps(value), "test") == value


@bounded(200)
@given(st.text(alphabet='[]{}"\\:,0123456789-+.eE ntrufalsNIay\ufeff', max_size=200) | st.binary(max_size=100))
def test_any_text_loads_or_says_why(text: str | bytes) -> None:
    try:
        load_json(text, "test")
    except JsonInputError as exc:
        assert str(exc).startswith("the test file")


@bounded(50)
@given(st.integers(MAX_DEPTH + 1, 5000), st.sampled_from("[{"))
def test_nesting_past_the_limit_is_refused_before_parsing(depth: int, opener: str) -> None:
    inner = "[" * depth + "]" * depth if opener == "[" else '{"a":' * depth + "1" + "}" * depth
    with pytest.raises(JsonInputError, match="nested"):
        load_json(inner, "test")


@st.composite
def finished_hands(draw: st.DrawFn) -> tuple[list[list[str]], list[str], list[bool]]:
    """Four sets and a pair that a set of tiles can hold (at most four of each), each set exposed or not."""
    counts: dict[str, int] = {}

    def take(codes: list[str]) -> bool:
        if any(counts.get(c, 0) + codes.count(c) > 4 for c in codes):
            return False
        for c in codes:
            counts[c] = counts.get(c, 0) + 1
        return True

    sets: list[list[str]] = []
    while len(sets) < 4:
        if draw(st.booleans()):
            suit, start = draw(st.sampled_from(SUITS)), draw(st.integers(1, 7))
            meld = [f"{start + i}{suit}" for i in range(3)]
        else:
            meld = [draw(st.sampled_from(PLAYING))] * 3
        if take(meld):
            sets.append(meld)
    pair = draw(st.sampled_from([c for c in PLAYING if counts.get(c, 0) <= 2]))
    take([pair, pair])
    exposed = [draw(st.booleans()) for _ in sets]
    return sets, [pair, pair], exposed


def _notation(sets: list[list[str]], pair: list[str], exposed: list[bool], order: list[int]) -> str:
    concealed = [c for meld, out in zip(sets, exposed) if not out for c in meld] + pair
    concealed = [concealed[i] for i in order]
    return "".join(concealed) + " " + " ".join(f"[{''.join(m)}]" for m, out in zip(sets, exposed) if out)


@bounded(60)
@given(finished_hands(), st.randoms(use_true_random=False))
def test_a_finished_hand_scores_within_bounds_whatever_the_typing_order(hand: tuple, rng: Any) -> None:
    sets, pair, exposed = hand
    n = sum(3 for out in exposed if not out) + 2
    order = list(range(n))
    shuffled = order[:]
    rng.shuffle(shuffled)
    limits = {name: rs.resolve_options({}).get("limit") for name, rs in rule_sets().items()}
    totals = []
    for arrangement in (order, shuffled):
        parsed = Hand.parse(_notation(sets, pair, exposed, arrangement), winning_tile=pair[0], won_by="wall")
        results = score_all(parsed)
        totals.append({name: r.total for name, r in results.items()})
        for name, r in results.items():
            if r.total is not None:
                assert r.total >= 0
                assert limits[name] is None or r.total <= limits[name], (name, r.total)
    assert totals[0] == totals[1]


@bounded(100)
@given(st.lists(st.integers(0, 2000), min_size=4, max_size=4), st.integers(0, 3),
       st.sampled_from(["harr-1922", "foster-1924", "british-1920s"]))
def test_payments_of_a_settled_deal_sum_to_zero(scores: list[int], winner: int, book: str) -> None:
    players = [{"name": n, "seat": s, "score": v, "winner": i == winner}
               for i, (n, s, v) in enumerate(zip(["Ann", "Bo", "Cy", "Di"], "ESWN", scores))]
    try:
        settlement = settle(table_from_dict({"book": book, "players": players}))
    except PungChowError:
        return
    nets = settlement.nets()
    assert sum(nets.values()) == 0 and all(isinstance(v, int) and not math.isnan(v) for v in nets.values())


ARGS = st.lists(st.sampled_from(["--winning", "--won-by", "wall", "--seat", "--round", "--limit", "--rules", "all", "--loser",
                                 "--option", "limit=0", "flowers=no", "--json", "2D", "E", "S", "-1", "1e9", "none", "harr-1922",
                                 "7C8C9C6C7C8CSWSW[2D2D2D][5C6C7C]", "1D", "0z", "x"]), max_size=6)


@bounded(100)
@given(args=ARGS)
def test_score_on_the_command_line_ends_in_an_answer_or_one_message(args: list[str], capsys: pytest.CaptureFixture[str]) -> None:
    try:
        code = main(["score", "7C8C9C6C7C8CSWSW[2D2D2D][5C6C7C]", *args])
    except SystemExit as exc:
        code = int(exc.code or 0)
    _, err = capsys.readouterr()
    assert code in (0, 2) and "Traceback" not in err
    if code == 2:
        assert err.count("\n") == 1
