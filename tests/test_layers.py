"""The layers only look down: photo -> tiles -> hand -> score -> settlement, with the page and the command on top.

Every import in the project's own modules is read from the source (those inside functions and behind
``TYPE_CHECKING`` too: a deferred import is still a dependency), so a new upward import or a cycle fails here
with the modules that make it. ``docs/architecture.md`` draws the same layers.
"""

from __future__ import annotations

import ast
import re
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


#: A type's name: CapWords (``Deal``, ``HandShape``), not a constant's CAPITALS.
TYPE_NAME = re.compile(r"[A-Z][a-z]\w*")


def type_names(source: str) -> set[str]:
    """The types a module defines: its classes, those inside a function too (a reader of one calibration is still a
    ``Reader`` to whoever reads the code), and its top-level type aliases (``Tally = Callable[...]``)."""
    tree = ast.parse(source)
    found = {node.name for node in ast.walk(tree) if isinstance(node, ast.ClassDef)}
    for node in tree.body:
        if isinstance(node, (ast.Assign, ast.AnnAssign)):
            targets = node.targets if isinstance(node, ast.Assign) else [node.target]
            found.update(t.id for t in targets if isinstance(t, ast.Name) and TYPE_NAME.fullmatch(t.id))
    return found


def shared_type_names(sources: dict[str, str]) -> dict[str, list[str]]:
    """Each type name that two modules define, with the modules: one name must mean one thing across the product."""
    where: dict[str, list[str]] = {}
    for module, source in sources.items():
        for name in type_names(source):
            where.setdefault(name, []).append(module)
    return {name: sorted(ms) for name, ms in sorted(where.items()) if len(ms) > 1}


def test_no_two_types_share_a_name() -> None:
    """A ``Table`` is the settlement's and a ``Deal`` the page's; a ``TileSet`` the reader's and a ``Wall`` the renderer's."""
    sources = {m: path.read_text(encoding="utf-8") for m, path in modules().items()}
    assert shared_type_names(sources) == {}


def test_the_check_finds_two_types_of_one_name() -> None:
    """The test itself can fail: a class and an alias of one name in two modules are found, a constant is not."""
    sources = {"a": "class Table:\n    pass\nSEATS = 4\n", "b": "Table = dict[str, int]\nSEATS = 4\n", "c": "class Deal: ...",
               "d": "def quantize() -> None:\n    class Deal: ...\n"}
    assert shared_type_names(sources) == {"Deal": ["c", "d"], "Table": ["a", "b"]}, "a class inside a function is a type too"
