"""Loading the shipped ONNX models, each checked against its JSON sidecar before use."""

from __future__ import annotations

import hashlib
import os
from dataclasses import dataclass
from functools import lru_cache
from pathlib import Path
from typing import Any

import numpy as np

from recognizer.errors import ModelFileError
from recognizer.geometry import BONUS_H, BONUS_W, CROP_H, CROP_W, DETECT_LONG_SIDE, MEAN, STD, STRIDE
from recognizer.labels import BONUS_LABELS, CLASSES, WAY_UP_LABELS
from scoring.jsonfile import JsonInputError, load_json_file

SIDECAR_VERSION = 1
#: The models a reading may open: the page opens them all before the first photo, so a missing one is said at once.
SHIPPED = ("detector", "classifier", "way_up", "beside_detector", "closeup_detector")
THREADS = 2
#: Whether onnxruntime's threads spin, waiting for the next piece of work, between a model's steps. They do not: on
#: two cores shared with other work, spinning threads take the cores from the work they wait for. The 12 MP sample,
#: photo -> hand, alternating in one process at load 12 (``bench/bench_latency.py``'s pairs, 7 each): spinning
#: 866-979 ms wall and 416-479 ms processor, not 447-469 ms and 224-258 ms (models/MODEL_CARD.md, issue 39).
SPIN = False


def models_dir() -> Path:
    """``$PUNGCHOW_MODELS`` or the ``models/`` folder beside the package."""
    env = os.environ.get("PUNGCHOW_MODELS")
    return Path(env) if env else Path(__file__).resolve().parent.parent / "models"


def sha256(path: Path) -> str:
    return hashlib.sha256(path.read_bytes()).hexdigest()


@dataclass(frozen=True)
class Model:
    """An onnxruntime session and the sidecar that says how to feed it."""

    name: str
    session: Any
    meta: dict[str, Any]

    def run(self, x: np.ndarray) -> list[np.ndarray]:
        outputs: list[np.ndarray] = self.session.run(None, {self.session.get_inputs()[0].name: x})
        return outputs


def expected_meta(name: str) -> dict[str, Any]:
    """What the code relies on; a sidecar that disagrees is refused."""
    common = {"normalisation": {"mean": MEAN, "std": STD, "scale": 1 / 255}, "colour_order": "RGB"}
    if name == "classifier":
        return {**common, "labels": list(CLASSES), "input_size": [CROP_H, CROP_W]}
    if name == "bonus":
        return {**common, "labels": list(BONUS_LABELS), "input_size": [BONUS_H, BONUS_W]}
    if name == "way_up":
        return {**common, "labels": list(WAY_UP_LABELS), "input_size": [CROP_H, CROP_W]}
    return {**common, "labels": ["tile"], "input_size": {"long_side": DETECT_LONG_SIDE, "pad_to_multiple_of": 32},
            "outputs": {"stride": STRIDE, "channels": ["centre_logit", "log_w", "log_h", "dx", "dy"]}}


@lru_cache(maxsize=8)
def load_model(name: str, directory: str | None = None) -> Model:
    """Load ``NAME.onnx`` + ``NAME.json``; fail with a clear message on any mismatch."""
    import onnxruntime as ort

    folder = Path(directory) if directory else models_dir()
    onnx_path, meta_path = folder / f"{name}.onnx", folder / f"{name}.json"
    for p in (onnx_path, meta_path):
        if not p.is_file():
            raise ModelFileError(f"model file {p} is missing; reinstall pungchow or set PUNGCHOW_MODELS to the folder holding {name}.onnx")
    try:
        meta = load_json_file(meta_path, "model sidecar")
    except JsonInputError as exc:
        raise ModelFileError(f"{meta_path}: {exc}; reinstall pungchow") from None
    if not isinstance(meta, dict):
        raise ModelFileError(f"{meta_path} holds a {type(meta).__name__}, not the model's description (a JSON object); reinstall pungchow")
    if meta.get("sidecar_version") != SIDECAR_VERSION:
        raise ModelFileError(f"{meta_path} has sidecar_version {meta.get('sidecar_version')}, this code reads {SIDECAR_VERSION}")
    for key, want in expected_meta(name).items():
        if meta.get(key) != want:
            raise ModelFileError(f"{meta_path}: {key} is {meta.get(key)!r}, the code expects {want!r}; the model and code do not match")
    digest = sha256(onnx_path)
    if meta.get("sha256") != digest:
        raise ModelFileError(f"{onnx_path} does not match the sha256 in {meta_path.name}; the file is damaged or was replaced, "
                             "reinstall pungchow")
    opts = ort.SessionOptions()
    opts.intra_op_num_threads = THREADS
    opts.inter_op_num_threads = 1
    opts.add_session_config_entry("session.intra_op.allow_spinning", "1" if SPIN else "0")
    opts.log_severity_level = 3
    try:
        session = ort.InferenceSession(str(onnx_path), opts, providers=["CPUExecutionProvider"])
    except Exception as exc:  # onnxruntime raises its own classes for a damaged or foreign file
        raise ModelFileError(f"{onnx_path} is not a model onnxruntime can load ({type(exc).__name__}); it is damaged or was replaced, "
                             "reinstall pungchow") from None
    return Model(name, session, meta)
