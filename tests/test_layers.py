"""The layers only look down: photo -> tiles -> hand -> score -> settlement, with the page and the command on top.

Every import in the project's own modules is read from the source (those inside functions and behind
``TYPE_CHECKING`` too: a deferred import is still a dependency), so a new upward import or a cycle fails here
with the modules that make it. ``docs/architecture.md`` draws the same layers.
"""

from __future__ import annotations

import ast
from functools import cache
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
#: Where each top-level package's source lies.
PACKAGES = {"scoring": ROOT / "scoring", "recognizer": ROOT / "recognizer", "pungchow_data": ROOT / "datasets" / "pungchow_data",
            "webapp": ROOT / "webapp", "pungchow": ROOT / "pungchow"}
#: The layers, lowest first; a module belongs to the longest prefix that names it and may import only from its
#: own layer and those below. The scorer's rules and hands are the floor; settlement stands on them, the service
#: (what the CLI and the page both do) on settlement, the scorer's public names on that; the recogniser on the
#: scorer; the training data and the recogniser's training on the recogniser; the page on all of them; each
#: package's commands above its library; the ``pungchow`` command, which joins them, on top.
RANK = {"scoring": 0, "scoring.settle": 1, "scoring.service": 2, "scoring.api": 3, "recognizer": 4, "pungchow_data": 5,
        "recognizer.train": 6, "webapp": 7, "scoring.cli": 8, "scoring.settle.cli": 8, "pungchow_data.cli": 8, "webapp.cli": 8,
        "pungchow": 9}
LAYERS = tuple(RANK)


def modules() -> dict[str, Path]:
    found: dict[str, Path] = {}
    for package, folder in PACKAGES.items():
        for path in sorted(folder.rglob("*.py")):
            parts = [package, *path.relative_to(folder).with_suffix("").parts]
            found[".".join(parts[:-1] if parts[-1] == "__init__" else parts)] = path
    return found


def imports(path: Path, known: dict[str, Path]) -> set[str]:
    """The project modules ``path`` imports (``from a import b`` counts ``a.b`` when that is a module)."""
    out: set[str] = set()
    for node in ast.walk(ast.parse(path.read_text(encoding="utf-8"))):
        if isinstance(node, ast.ImportFrom) and node.module and node.level == 0:
            wanted = [node.module, *(f"{node.module}.{a.name}" for a in node.names)]
        elif isinstance(node, ast.Import):
            wanted = [a.name for a in node.names]
        else:
            continue
        out.update(w for w in wanted if w in known)
    return out


def layer(module: str) -> str:
    return max((name for name in LAYERS if module == name or module.startswith(name + ".")), key=len)


@cache
def graph() -> dict[str, set[str]]:
    known = modules()
    return {m: imports(path, known) - {m} for m, path in known.items()}


def test_no_module_imports_a_layer_above_its_own() -> None:
    upward = sorted(f"{m} ({layer(m)}) imports {t} ({layer(t)})"
                    for m, targets in graph().items() for t in targets if RANK[layer(t)] > RANK[layer(m)])
    assert upward == [], "\n".join(upward)


def cycles(edges: dict[str, set[str]]) -> list[list[str]]:
    """The strongly connected groups of more than one module (Tarjan's algorithm, without recursion)."""
    index: dict[str, int] = {}
    low: dict[str, int] = {}
    stack: list[str] = []
    on_stack: set[str] = set()
    found: list[list[str]] = []
    for start in sorted(edges):
        if start in index:
            continue
        work = [(start, iter(sorted(edges[start])))]
        index[start] = low[start] = len(index)
        stack.append(start)
        on_stack.add(start)
        while work:
            node, targets = work[-1]
            target = next(targets, None)
            if target is not None:
                if target not in index:
                    index[target] = low[target] = len(index)
                    stack.append(target)
                    on_stack.add(target)
                    work.append((target, iter(sorted(edges[target]))))
                elif target in on_stack:
                    low[node] = min(low[node], index[target])
                continue
            work.pop()
            if work:
                low[work[-1][0]] = min(low[work[-1][0]], low[node])
            if low[node] == index[node]:
                group = []
                while True:
                    member = stack.pop()
                    on_stack.discard(member)
                    group.append(member)
                    if member == node:
                        break
                if len(group) > 1:
                    found.append(sorted(group))
    return found


def test_no_import_cycles() -> None:
    assert cycles(graph()) == []


def test_the_checks_find_an_upward_import_and_a_cycle() -> None:
    """The test itself can fail: a made-up cycle is found, and a page module is above the recogniser."""
    assert cycles({"a": {"b"}, "b": {"c"}, "c": {"a"}, "d": set()}) == [["a", "b", "c"]]
    assert RANK[layer("webapp.drawing")] > RANK[layer("recognizer.pipeline")]
    assert RANK[layer("scoring.service")] > RANK[layer("scoring.settle.tablefile")]
