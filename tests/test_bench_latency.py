"""The latency bench prints, for the sample hand, photo -> hand beside the same photo's full decode and their ratio
(no time is asserted: the machine is shared, and a bench's numbers are for the note, not the test)."""

from __future__ import annotations

import re
import sys
from pathlib import Path

import pytest

sys.path.insert(0, str(Path(__file__).resolve().parent.parent / "bench"))

from bench_latency import STEPS, print_table, run_cases


def test_one_pair_of_the_sample_prints_its_ratio_and_steps(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    cases = run_cases(tmp_path, pairs=1, whole_set=False, sets=False, peer=False)
    print_table(cases, 1)
    out = capsys.readouterr().out
    assert [c.name for c in cases] == ["12 MP sample"]
    assert cases[0].size[0] * cases[0].size[1] > 11_000_000  # the 12 MP photo, decoded whole
    row = next(line for line in out.splitlines() if line.startswith("12 MP sample"))
    assert re.search(r"\d+\.\d\dx\s+\d+\.\d\dx\s+\d+\.\d\d$", row), row
    assert "load average" in out
    assert all(f"{step} " in out for step in STEPS)
