"""The bad-input corpus (``tests/badinput/cases.txt``) run through ``pungchow``'s own ``main(argv)``.

Every case ends in one clear line and exit 2, or in the right answer with exit 0: never a
traceback, never a silent wrong answer. Inputs too big or too odd to keep in the repository (a
file nested 100,000 deep, a FIFO, a link to /dev/zero, a PNG whose header claims 100 MP) are made
here, once per session.
"""

from __future__ import annotations

import json
import os
import shlex
import shutil
import struct
import zipfile
import zlib
from dataclasses import dataclass
from pathlib import Path

import cv2
import numpy as np
import pytest
from PIL import Image

from pungchow.cli import main
from scoring.tiles import ALL_CODES

HERE = Path(__file__).parent / "badinput"
CASES_FILE = HERE / "cases.txt"
SAMPLE = Path(__file__).resolve().parents[1] / "recognizer" / "samples" / "finished-hand.jpg"
SYNTH_SAMPLE = Path(__file__).parent / "fixtures" / "data" / "synth-sample"
LONG_NOTATION = "1D" * 1000
#: A file name longer than any file system allows (255 bytes).
LONG_NAME = "n" * 300


@dataclass(frozen=True)
class Case:
    name: str
    args: str
    code: int
    words: tuple[str, ...]


def read_cases() -> list[Case]:
    cases = []
    for line in CASES_FILE.read_text(encoding="utf-8").splitlines():
        if not line.strip() or line.startswith("#"):
            continue
        name, args, code, words = (part.strip() for part in line.split("|"))
        cases.append(Case(name, args, int(code), tuple(w.strip() for w in words.split(";") if w.strip())))
    return cases


CASES = read_cases()


def _png_header_only(width: int, height: int, bit_depth: int, colour_type: int) -> bytes:
    """A PNG whose header claims ``width`` x ``height`` but holds almost no pixels: a bomb, cheaply."""
    def chunk(kind: bytes, data: bytes) -> bytes:
        return struct.pack(">I", len(data)) + kind + data + struct.pack(">I", zlib.crc32(kind + data) & 0xFFFFFFFF)

    ihdr = struct.pack(">IIBBBBB", width, height, bit_depth, colour_type, 0, 0, 0)
    return b"\x89PNG\r\n\x1a\n" + chunk(b"IHDR", ihdr) + chunk(b"IDAT", zlib.compress(b"\x00" * 64)) + chunk(b"IEND", b"")


def _exif_orientation_as_text(text: bytes) -> bytes:
    """EXIF whose Orientation tag is stored as ASCII text rather than a number, as some editors write it."""
    value = text + b"\x00"
    entry = struct.pack("<HHI", 0x0112, 2, len(value)) + struct.pack("<I", 8 + 2 + 12 + 4)
    return b"Exif\x00\x00" + b"II*\x00" + struct.pack("<I", 8) + struct.pack("<H", 1) + entry + struct.pack("<I", 0) + value


@pytest.fixture(scope="session")
def generated(tmp_path_factory: pytest.TempPathFactory) -> Path:
    gen = tmp_path_factory.mktemp("badinput-gen")
    deep = "[" * 100_000 + "]" * 100_000
    (gen / "deep.json").write_text(deep)
    trace = "[" * 10_000 + "]" * 10_000
    (gen / "deep-trace.json").write_text((HERE / "files" / "hand-ok.json").read_text().rstrip()[:-1] + f', "trace": {trace}}}')
    (gen / "bigint-hand.json").write_text('{"concealed": [' + "9" * 5000 + '], "winner": true}')
    (gen / "bigint-table.json").write_text('{"players": [{"seat": "E", "score": ' + "9" * 5000 + "}]}")
    (gen / "ds-deep").mkdir()
    (gen / "ds-deep" / "annotations.json").write_text(deep)
    os.mkfifo(gen / "fifo")
    for name in ("zero.json", "zero.jpg"):
        (gen / name).symlink_to("/dev/zero")
    photo = SAMPLE.read_bytes()
    (gen / "photo.jpg").write_bytes(photo)
    (gen / "truncated.jpg").write_bytes(photo[: len(photo) * 2 // 3])
    (gen / "trailer.jpg").write_bytes(photo + b"MotionPhoto_Data" + np.random.default_rng(0).bytes(100_000))
    with Image.open(SAMPLE) as im:
        im.save(gen / "exif-text.jpg", "JPEG", quality=92, exif=_exif_orientation_as_text(b"top-left"))
        rgb = np.asarray(im.convert("RGB"))
    rgba16 = np.dstack([rgb[..., ::-1], np.full(rgb.shape[:2], 255, np.uint8)]).astype(np.uint16) * 257
    cv2.imwrite(str(gen / "rgba16.png"), rgba16)
    (gen / "huge-header.png").write_bytes(_png_header_only(9999, 9999, 16, 6))
    (gen / "rgba16-big.png").write_bytes(_png_header_only(8000, 7000, 16, 6))
    cv2.imwrite(str(gen / "blank.jpg"), np.full((600, 800, 3), 230, np.uint8))
    (gen / "existing.png").write_bytes(b"keep me")
    (gen / "a-folder.png").mkdir()
    for name, shape in (("thin-1x1000.png", (1000, 1)), ("thin-5x5000.jpg", (5, 5000)), ("thin-1x20000.png", (1, 20000))):
        cv2.imwrite(str(gen / name), np.full((*shape, 3), 200, np.uint8))
    _datasets(gen)
    for name, size in (("huge-hand.json", 60_000_000), ("huge-layout.json", 10_000_000), ("ds-huge/annotations.json", 100_000_000)):
        (gen / name).parent.mkdir(exist_ok=True)
        with open(gen / name, "wb") as f:  # sparse: refused by its size before a byte is read
            f.truncate(size)
    (gen / "hand-380k-tiles.json").write_text('{"concealed": [' + ",".join(['"1D"'] * 380_000) + '], "winner": true}')
    (gen / "hand-600k-objects.json").write_text('{"melds": [' + ",".join(["{}"] * 600_000) + "]}")
    (gen / "hand-1000-melds.json").write_text('{"melds": [' + ",".join(["{}"] * 1000) + "]}")
    table = json.loads((HERE / "files" / "table-fraction-score.json").read_text())
    (gen / "table-1000-players.json").write_text(json.dumps({**table, "players": table["players"] * 250}))
    rows = [list(ALL_CODES[:9])] * 40
    (gen / "layout-360-tiles.json").write_text(json.dumps({"rows": rows}))
    (gen / "layout-1.9mb.json").write_text(json.dumps({"rows": rows * 4000}))
    _damaged_tilesets(gen / "home-damaged" / "tilesets")
    (gen / "sets-with-file").mkdir()
    (gen / "sets-with-file" / "mine").write_bytes(b"keep me")
    return gen


def _datasets(gen: Path) -> None:
    """A whole dataset, one whose image name leads out of its folder, and ones whose annotations are not a dataset's."""
    shutil.copytree(SYNTH_SAMPLE, gen / "ds-ok")
    shutil.copytree(SYNTH_SAMPLE, gen / "ds-escape")
    data = json.loads((SYNTH_SAMPLE / "annotations.json").read_text())
    data["images"][0]["file_name"] = "../escape-victim.jpg"
    (gen / "ds-escape" / "annotations.json").write_text(json.dumps(data))
    (gen / "escape-victim.jpg").write_bytes((SYNTH_SAMPLE / "images" / "000000.jpg").read_bytes())
    for name, text in (("ds-list", "[1, 2]"), ("ds-images-string", '{"images": "x", "annotations": []}')):
        (gen / name).mkdir()
        (gen / name / "annotations.json").write_text(text)


def _damaged_tilesets(folder: Path) -> None:
    """Beside one good set, each way a set's files were found damaged: a bad ``looks_like``, a null, deep nesting, a
    zip bomb (128 MB of zeros packed into 128 kB), a ``looks_like`` out of range."""
    good = Path(__file__).resolve().parents[1] / "models" / "tilesets" / "pungchow-1922"
    meta = json.loads((good / "tileset.json").read_text())
    texts = {"good": json.dumps(meta), "bad-looks": json.dumps({**meta, "looks_like": "high"}), "null": "null",
             "deep": "[" * 100_000 + "]" * 100_000, "bomb": json.dumps(meta), "looks-seven": json.dumps({**meta, "looks_like": 7})}
    for name, text in texts.items():
        (folder / name).mkdir(parents=True)
        (folder / name / "tileset.json").write_text(text)
        shutil.copy(good / "prototypes.npz", folder / name)
    bomb = folder / "bomb" / "prototypes.npz"
    with zipfile.ZipFile(bomb, "w", zipfile.ZIP_DEFLATED) as z, z.open("labels.npy", "w", force_zip64=True) as f:
        zeros = bytes(1 << 20)
        for _ in range(128):
            f.write(zeros)


def _argv(case: Case, gen: Path, out: Path) -> list[str]:
    fill = {"{files}": str(HERE / "files"), "{gen}": str(gen), "{out}": str(out), "{long}": LONG_NOTATION, "{longname}": LONG_NAME}
    argv = []
    for token in shlex.split(case.args):
        for key, value in fill.items():
            token = token.replace(key, value)
        argv.append(token)
    return argv


def test_the_corpus_has_at_least_a_hundred_cases_with_unique_names() -> None:
    assert len(CASES) >= 100
    assert len({c.name for c in CASES}) == len(CASES)


@pytest.mark.parametrize("case", CASES, ids=[c.name for c in CASES])
def test_bad_input_case(case: Case, generated: Path, tmp_path: Path, capsys: pytest.CaptureFixture[str],
                        monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setenv("PUNGCHOW_HOME", str(tmp_path / "home"))
    out = tmp_path / "out"
    out.mkdir()
    existing = (generated / "existing.png").read_bytes()
    photo = (generated / "photo.jpg").read_bytes()
    kept = {path: path.read_bytes() for path in kept_files(generated)}
    argv = _argv(case, generated, out)
    if argv[0].startswith("HOME="):  # the case runs with this folder as the user's data (its tile sets)
        monkeypatch.setenv("PUNGCHOW_HOME", argv.pop(0).removeprefix("HOME="))
    try:
        code = main(argv)
    except SystemExit as exc:  # argparse's usage errors
        code = int(exc.code or 0)
    stdout, stderr = capsys.readouterr()
    words = tuple(w.replace("{longname-start}", LONG_NAME[:40]) for w in case.words)
    assert "Traceback" not in stdout + stderr
    assert code == case.code, f"exit {code}, wanted {case.code}: {stderr or stdout}"
    if case.code == 2:
        assert stderr.count("\n") == 1, f"not one line: {stderr!r}"
        for word in words:
            assert word.lower() in stderr.lower(), f"{word!r} not in {stderr!r}"
    else:
        for word in words:
            assert word.lower() in stdout.lower(), f"{word!r} not in {stdout[:2000]!r}"
    assert (generated / "existing.png").read_bytes() == existing, "an existing file was overwritten"
    assert (generated / "photo.jpg").read_bytes() == photo, "the photo was overwritten"
    assert {path: path.read_bytes() for path in kept_files(generated)} == kept, "a file a case must never write was written"


def kept_files(gen: Path) -> list[Path]:
    """Files no case may change: a dataset's images and annotations, a file where a set's folder would go."""
    return [*sorted((gen / "ds-ok").rglob("*.*")), gen / "escape-victim.jpg", gen / "sets-with-file" / "mine"]


def _page_inputs() -> list[Case]:
    """The cases the page meets too: typed notation (with its winning tile) and photo files."""
    return [c for c in CASES if c.args.startswith(("score", "recognize")) and "{out}" not in c.args.split()[1]
            and not c.args.split()[1].endswith((".json", "fifo")) and "--overlay" not in c.args and "--tileset" not in c.args]


@pytest.mark.parametrize("case", _page_inputs(), ids=[c.name for c in _page_inputs()])
def test_the_page_meets_the_same_input_with_a_message(case: Case, generated: Path, tmp_path: Path) -> None:
    """The page's own readers (typed notation, uploaded photo bytes) answer or raise one of our errors."""
    from scoring.errors import PungChowError
    from webapp.photos import read_photo
    from webapp.review import from_notation

    argv = _argv(case, generated, tmp_path)
    try:
        if argv[0] == "score":
            winning = argv[argv.index("--winning") + 1] if "--winning" in argv else None
            review = from_notation(argv[1], winning=winning, won_by="discard" if winning else None)
            assert review.tiles
        else:
            source = Path(argv[1])
            data = source.read_bytes() if len(source.name) < 256 and source.is_file() else b""
            photo = read_photo(data, source.name)
            assert case.code == 0 and photo.image.ndim == 3
    except PungChowError as exc:
        assert str(exc) and "\n" not in str(exc)
        assert case.code == 2, f"the command line answers this, the page refused it: {exc}"
