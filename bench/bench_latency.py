"""Photo -> hand against the same photo's full JPEG decode, in one process, on this machine as it is now.

    python bench/bench_latency.py                 # 7 pairs a case; the load average is printed beside every row
    python bench/bench_latency.py --pairs 15

A player photographs, then waits: the budget of issue 39 is the photo's own decode (``cv2.imread``, every pixel),
so each case alternates one warm ``recognizer.pipeline.recognize`` with one ``cv2.imread`` of the same file, N pairs,
and prints the median wall and processor ms of each and their ratio; alternating keeps a shared machine's bursts
from landing on one side only. The cases, all 12-megapixel JPEGs written into a temporary folder:

- the sample hand, made as ``bench_recognizer.py --make-12mp recognizer/samples/finished-hand.jpg OUT.jpg`` makes it;
- a whole set of 144 tiles (4 of each playing face and the 8 bonus tiles) laid flat in 8 rows of 18, drawn by the
  dataset renderer (``pungchow_data.scene.render_scene`` at scale 4.2, the phone's own photo);
- the sample read with the tile set pungchow-1922, and with a set learnt from two corrected tiles of Harr's first
  photo (in a temporary ``PUNGCHOW_HOME``);
- the peer (mahjong-detector 0.0.6, file -> tiles) on the sample, when it is installed.

Each case's steps (``Recognition.timings_ms``) are printed as shares of photo -> hand.
"""

from __future__ import annotations

import argparse
import contextlib
import importlib.util
import os
import sys
import tempfile
import time
from collections.abc import Callable, Iterator
from dataclasses import dataclass
from pathlib import Path
from typing import Any

import cv2
import numpy as np

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))
sys.path.insert(0, str(ROOT / "bench"))
sys.path.insert(0, str(ROOT / "datasets"))

from bench_recognizer import make_12mp, peer_runner  # noqa: E402

from recognizer.hand import Recognition  # noqa: E402
from recognizer.pipeline import recognize  # noqa: E402

SAMPLE = ROOT / "recognizer" / "samples" / "finished-hand.jpg"
STEPS = ("load", "detect", "level", "tileset", "classify", "group", "decode", "hand")
#: The whole-set photo: rows of a set laid flat, as a player lays a new set out to photograph it.
SET_ROWS, SET_COLUMNS = 8, 18
#: ``render_scene``'s scale for a phone's own photo (960 x 720 drawn 4.2 times larger: 4032 x 3024).
PHONE_SCALE = 4.2
SET_STYLE = "hk-serif"


@dataclass(frozen=True)
class Timed:
    """Median wall and processor (all threads) milliseconds of one side of the pairs."""

    wall_ms: float
    cpu_ms: float


@dataclass(frozen=True)
class Case:
    """One case's medians: photo -> hand (or the peer's file -> tiles) beside the photo's decode, and the steps."""

    name: str
    size: tuple[int, int]
    tiles: int
    read: Timed
    decode: Timed
    steps_ms: dict[str, float]
    load_average: float
    note: str = ""

    @property
    def ratio(self) -> float:
        return self.read.wall_ms / self.decode.wall_ms

    @property
    def cpu_ratio(self) -> float:
        return self.read.cpu_ms / self.decode.cpu_ms


def timed(work: Callable[[], Any]) -> tuple[Any, float, float]:
    """What ``work`` returned, its wall ms and its processor ms."""
    t0, c0 = time.perf_counter(), time.process_time()
    out = work()
    return out, (time.perf_counter() - t0) * 1000, (time.process_time() - c0) * 1000


def decode(photo: Path) -> np.ndarray:
    """The photo's full decode, every pixel: the budget."""
    img = cv2.imread(str(photo))
    if img is None:
        raise SystemExit(f"cannot decode {photo}")
    return img


def alternate(name: str, photo: Path, read: Callable[[], Any], pairs: int, note: str = "") -> Case:
    """``pairs`` rounds of read-then-decode after one warm-up of each; ``read`` returns a Recognition, or for the peer
    its list of tiles."""
    first = read()
    decode(photo)
    reads, decodes, steps = [], [], []
    for _ in range(pairs):
        out, wall, cpu = timed(read)
        reads.append((wall, cpu))
        img, wall, cpu = timed(lambda: decode(photo))
        decodes.append((wall, cpu))
        if isinstance(out, Recognition):
            steps.append(out.timings_ms)
    med_steps = {k: float(np.median([s.get(k, 0.0) for s in steps])) for k in STEPS} if steps else {}
    tiles = len(first.detections) if isinstance(first, Recognition) else len(first)
    return Case(name, (img.shape[1], img.shape[0]), tiles, median(reads), median(decodes), med_steps, os.getloadavg()[0], note)


def median(runs: list[tuple[float, float]]) -> Timed:
    return Timed(float(np.median([w for w, _ in runs])), float(np.median([c for _, c in runs])))


def print_table(cases: list[Case], pairs: int) -> None:
    """One row a case (ratio = photo -> hand wall / decode wall), then each case's step shares."""
    print(f"{pairs} pairs a case, medians; load average (1, 5, 15 min) now {' '.join(f'{v:.2f}' for v in os.getloadavg())} "
          f"on {os.cpu_count()} cores")
    head = f"{'case':<44}{'size':>11}{'tiles':>6}{'read ms':>9}{'cpu ms':>8}{'decode ms':>10}{'cpu ms':>8}{'ratio':>8}{'cpu':>8}{'load':>6}"
    print(head)
    print("-" * len(head))
    for c in cases:
        print(f"{c.name:<44}{c.size[0]:>5}x{c.size[1]:<5}{c.tiles:>6}{c.read.wall_ms:>9.1f}{c.read.cpu_ms:>8.1f}"
              f"{c.decode.wall_ms:>10.1f}{c.decode.cpu_ms:>8.1f}{c.ratio:>7.2f}x{c.cpu_ratio:>7.2f}x{c.load_average:>6.2f}")
    print()
    print("each step's share of photo -> hand (median ms, share of the steps' sum):")
    for c in cases:
        if c.steps_ms:
            whole = sum(c.steps_ms.values()) or 1.0
            print(f"  {c.name:<42} " + "  ".join(f"{k} {v:.0f} ({v / whole:.0%})" for k, v in c.steps_ms.items()))
    for c in cases:
        if c.note:
            print(f"  note, {c.name}: {c.note}")


def whole_set_codes() -> list[str]:
    """A complete set as it is laid out: four of every playing face, then the flowers and seasons."""
    from scoring.tiles import BONUS_CODES, PLAYING_CODES

    return [code for code in PLAYING_CODES for _ in range(4)] + list(BONUS_CODES)


@contextlib.contextmanager
def laid_out_whole_set() -> Iterator[None]:
    """``render_scene`` draws what ``random_layout`` lays out (one to four hands); while this holds, it lays out a
    whole set flat in rows, seen from above, upright, filling most of the frame."""
    from pungchow_data import scene
    from pungchow_data.hands import HandPlan

    def whole_set(rng: np.random.Generator, style: Any) -> tuple[Any, dict[str, float]]:
        w = 26.0
        size = (w, w * 1.35, w * style.thickness)
        layout = scene.Scene(hands=[HandPlan(None)])
        for k, code in enumerate(whole_set_codes()):
            row, col = divmod(k, SET_COLUMNS)
            centre = np.array([col * (w + 1.0) + w / 2, -row * (size[1] + 4.0)])
            layout.bodies.append(scene._body(code, centre, 0.0, *size, False, None))
        return layout, {"tilt": 12.0, "azimuth": 0.0, "distance": 1.4, "roll": 0.0, "fill": 0.9}

    kept = scene.random_layout
    scene.random_layout = whole_set
    try:
        yield
    finally:
        scene.random_layout = kept


@dataclass(frozen=True)
class Drawn:
    """The tiles a rendered photo shows: boxes (x, y, w, h, in its pixels) and codes."""

    boxes: np.ndarray
    codes: tuple[str, ...]

    def read_right(self, res: Recognition, size: tuple[int, int]) -> int:
        """How many drawn tiles have a box read as their face (IoU >= 0.5, each box used once)."""
        from recognizer.detect import iou_matrix

        if not len(res.detections):
            return 0
        iou = iou_matrix(self.boxes, res.boxes_at(*size))
        used: set[int] = set()
        right = 0
        for i, code in enumerate(self.codes):
            k = int(iou[i].argmax())
            if iou[i, k] >= 0.5 and k not in used:
                used.add(k)
                right += res.detections.code(k) == code
        return right


def render_whole_set(out: Path, seed: int = 0) -> Drawn:
    """Write a phone-sized JPEG of a whole set; the tiles it labels (those the camera sees)."""
    from pungchow_data.faces import STYLES
    from pungchow_data.scene import IMAGE_SIZE_P, IMAGE_SIZES, render_scene

    def shape(s: int) -> tuple[int, int]:  # the renderer's first draw, with this layout, is the photo's shape
        return IMAGE_SIZES[np.random.default_rng(s).choice(len(IMAGE_SIZES), p=IMAGE_SIZE_P)]

    while shape(seed) != (960, 720):  # 4:3, a phone's
        seed += 1
    with laid_out_whole_set():
        drawn = render_scene(np.random.default_rng(seed), STYLES[SET_STYLE], "whole-set", scale=PHONE_SCALE)
    cv2.imwrite(str(out), drawn.image, [cv2.IMWRITE_JPEG_QUALITY, 92])
    tiles = drawn.record.tiles
    return Drawn(np.array([t.bbox for t in tiles], np.float32).reshape(-1, 4), tuple(t.code for t in tiles))


@contextlib.contextmanager
def learnt_set_home(folder: Path) -> Iterator[str]:
    """A temporary ``PUNGCHOW_HOME`` holding a set learnt from two corrected tiles (nine of bamboo, eight of dots) of
    Harr's first photo, as ``tests/test_recognizer_learnt_set.py`` teaches one; the set's name."""
    from recognizer.examples import CorrectedTile
    from recognizer.image import load_photo
    from recognizer.tileset import builtin_tileset_dir, learn_tiles, read_calibration, read_layout

    kept = os.environ.get("PUNGCHOW_HOME")
    os.environ["PUNGCHOW_HOME"] = str(folder / "home")
    try:
        source = builtin_tileset_dir() / "pungchow-1922" / "source"
        cal = read_calibration(source / "illustration_1.jpg", read_layout(source / "layout.json"))
        boxes = {c: cal.boxes[cal.codes.index(c)] for c in ("9B", "8D")}
        tiles = [CorrectedTile((float(x), float(y), float(w), float(h)), c) for c, (x, y, w, h) in boxes.items()]
        learn_tiles("bench-learnt", load_photo(source / "illustration_1.jpg"), tiles, "illustration_1.jpg")
        yield "bench-learnt"
    finally:
        if kept is None:
            del os.environ["PUNGCHOW_HOME"]
        else:
            os.environ["PUNGCHOW_HOME"] = kept


def set_note(res: Recognition, name: str) -> str:
    """Whether the set was read with, or left out because the photo does not look like it."""
    left_out = [p for p in res.problems if f"tile set {name!r}" in p]
    return left_out[0] if left_out else f"read with set {name!r}"


def peer_case(photo: Path, pairs: int) -> Case | str:
    """The peer, file -> tiles, beside the same decode; or why it was skipped."""
    if importlib.util.find_spec("mahjong_detector") is None:
        return "skipped: mahjong-detector is not installed here (pip install mahjong-detector==0.0.6, for benches only)"
    run = peer_runner()  # type: ignore[no-untyped-call]
    h, w = decode(photo).shape[:2]
    return alternate("peer mahjong-detector 0.0.6, 12 MP sample", photo, lambda: run(photo, (w, h))[1], pairs,
                     "file -> tiles: PIL full decode, grey, autocontrast, 640 letterbox, one YOLO pass; no steps")


def run_cases(folder: Path, pairs: int, sample: Path = SAMPLE, whole_set: bool = True, sets: bool = True,
              peer: bool = True) -> list[Case]:
    """Every case of the bench, photos written into ``folder``; the small-sample test leaves out the slow ones."""
    import io

    photo = folder / "sample-12mp.jpg"
    with contextlib.redirect_stdout(io.StringIO()):
        if make_12mp(sample, photo) != 0:
            raise SystemExit(f"cannot make a 12 MP photo from {sample}")
    cases = [alternate("12 MP sample", photo, lambda: recognize(photo), pairs)]
    if whole_set:
        set_photo = folder / "whole-set-12mp.jpg"
        drawn = render_whole_set(set_photo)
        res = recognize(set_photo)
        right = drawn.read_right(res, res.photo_size or res.size)
        cases.append(alternate(f"12 MP whole set ({len(drawn.codes)} tiles drawn)", set_photo, lambda: recognize(set_photo), pairs,
                               f"{right} of {len(drawn.codes)} drawn tiles read as their face (IoU >= 0.5), style {SET_STYLE}"))
    if sets:
        with_set = recognize(photo, "pungchow-1922")
        cases.append(alternate("12 MP sample, tile set pungchow-1922", photo, lambda: recognize(photo, "pungchow-1922"), pairs,
                               set_note(with_set, "pungchow-1922")))
        with learnt_set_home(folder) as name:
            learnt = recognize(photo, name)
            cases.append(alternate("12 MP sample, learnt set (2 tiles)", photo, lambda: recognize(photo, name), pairs,
                                   set_note(learnt, name)))
    if peer:
        got = peer_case(photo, pairs)
        if isinstance(got, str):
            print(f"peer: {got}")
        else:
            cases.append(got)
    return cases


def main(argv: list[str] | None = None) -> int:
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("--pairs", type=int, default=7, help="read/decode pairs a case (default 7)")
    ap.add_argument("--sample", type=Path, default=SAMPLE, help="the photo the 12 MP sample is made from")
    args = ap.parse_args(argv)
    if args.pairs < 1:
        ap.error("--pairs needs a whole number of 1 or more")
    if not args.sample.is_file():
        ap.error(f"no photo at {args.sample}")
    with tempfile.TemporaryDirectory(prefix="bench-latency-") as tmp:
        cases = run_cases(Path(tmp), args.pairs, args.sample)
    print_table(cases, args.pairs)
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
