"""Keep the running mean of the weights, or the last weights, by what the fold readers read unseen.

    python -m recognizer.train.mean_or_last RUN_DIR OUT_DIR

``fit_real --ema`` saves each run twice (``foldK.pt`` and ``foldK-ema.pt``) and logs, per fold, both readings of the
crops that fold's reader never saw. A lent accelerator returns at most eight files, so this reads the logs
(``RUN_DIR/*.log``), sums the unseen tiles read right over every fold for each kind of weights, prints the two side by
side, and copies the better kind's ``final.pt`` and ``fold0.pt`` ... ``fold5.pt`` into OUT_DIR under those names.
A tie keeps the last weights: the recipe measured before.
"""

from __future__ import annotations

import re
import shutil
import sys
from pathlib import Path

LINE = re.compile(r"fold (\d+) (mean-weights )?unseen ([\w-]+): top-1 [\d.]+ of (\d+) \((\d+)\); flowers/seasons (\d+)/(\d+)")


def tallies(logs: list[Path]) -> dict[str, dict[str, list[int]]]:
    """Per kind of weights ('last', 'mean'), per kind of crop: [right, of, flowers and seasons right, of]."""
    out: dict[str, dict[str, list[int]]] = {"last": {}, "mean": {}}
    for log in logs:
        for m in LINE.finditer(log.read_text()):
            kind = "mean" if m.group(2) else "last"
            row = out[kind].setdefault(m.group(3), [0, 0, 0, 0])
            for i, v in enumerate((m.group(5), m.group(4), m.group(6), m.group(7))):
                row[i] += int(v)
    return out


def main(argv: list[str] | None = None) -> int:
    args = sys.argv[1:] if argv is None else argv
    if len(args) != 2:
        print(__doc__)
        return 2
    run, out = Path(args[0]), Path(args[1])
    t = tallies(sorted(run.glob("*.log")))
    for kind, rows in t.items():
        print(kind, " ".join(f"{name} {r[0]}/{r[1]} (flowers and seasons {r[2]}/{r[3]})" for name, r in sorted(rows.items())))
    right = {kind: sum(r[0] for r in rows.values()) for kind, rows in t.items()}
    mean = bool(t["mean"]) and right["mean"] > right["last"]
    print(f"kept: {'the running mean' if mean else 'the last weights'} ({right['mean']} against {right['last']} unseen right)")
    out.mkdir(parents=True, exist_ok=True)
    for name in ["final", *(f"fold{k}" for k in range(6))]:
        src = run / (f"{name}-ema.pt" if mean else f"{name}.pt")
        if src.is_file():
            shutil.copyfile(src, out / f"{name}.pt")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
