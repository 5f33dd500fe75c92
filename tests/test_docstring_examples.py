"""The docstring examples run: every product module that shows one is collected by the suite (pyproject's testpaths)."""

from __future__ import annotations

from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[1]
PRODUCT = ("scoring", "recognizer", "webapp", "pungchow", "datasets/pungchow_data")


def uncollected(root: Path, testpaths: list[str]) -> list[str]:
    """Modules with a ``>>>`` example that no test path covers (a folder covers the modules under it)."""
    shows = sorted(str(p.relative_to(root)) for folder in PRODUCT for p in (root / folder).rglob("*.py")
                   if ">>> " in p.read_text(encoding="utf-8"))
    return [m for m in shows if not any(m == t or m.startswith(t.rstrip("/") + "/") for t in testpaths)]


def test_every_docstring_example_is_collected(pytestconfig: pytest.Config) -> None:
    assert "--doctest-modules" in pytestconfig.getini("addopts")
    assert uncollected(ROOT, list(pytestconfig.getini("testpaths"))) == []


def test_the_check_finds_an_example_left_out(tmp_path: Path) -> None:
    """The test itself can fail: a module with an example outside the test paths is named."""
    for folder in PRODUCT:
        (tmp_path / folder).mkdir(parents=True)
    (tmp_path / "webapp" / "shown.py").write_text('"""\n>>> 1 + 1\n2\n"""\n')
    (tmp_path / "scoring" / "kept.py").write_text('"""\n>>> 1\n1\n"""\n')
    assert uncollected(tmp_path, ["scoring"]) == ["webapp/shown.py"]
