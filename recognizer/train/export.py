"""Export trained weights to ONNX in models/ with the sidecar that models.load_model checks."""

from __future__ import annotations

import argparse
import json
from pathlib import Path

import torch

from recognizer.geometry import BONUS_H, BONUS_W, CROP_H, CROP_W
from recognizer.models import SIDECAR_VERSION, expected_meta, sha256
from recognizer.train.nets import BonusReader, TileClassifier, TileDetector

#: The networks of the detector's shape: the detector, the beside detector and the close-up detector.
DETECTORS = ("detector", "beside_detector", "closeup_detector")


def averaged(paths: list[Path]) -> dict[str, torch.Tensor]:
    """The mean of one or more runs' weights of one network (the last run's integer counters kept): two points of one
    training path, averaged, read more evenly than either; one file is its own mean."""
    states = [torch.load(p, map_location="cpu") for p in paths]
    return {k: torch.stack([s[k].float() for s in states]).mean(0).to(v.dtype) if v.is_floating_point() else v
            for k, v in states[-1].items()}


def export(weights: list[Path], name: str, out: Path, data_version: str, extra: dict[str, object]) -> Path:
    """Write OUT/NAME.onnx and its sidecar from a weights file, or from the average of several (``averaged``)."""
    model = {"classifier": TileClassifier, "bonus": BonusReader, **dict.fromkeys(DETECTORS, TileDetector)}[name]()
    model.load_state_dict(averaged(weights))
    model.eval()
    if name == "classifier":
        dummy = torch.zeros(1, 3, CROP_H, CROP_W)
        outputs, axes = ["logits", "embedding"], {"input": {0: "n"}, "logits": {0: "n"}, "embedding": {0: "n"}}
    elif name == "bonus":
        dummy = torch.zeros(1, 3, BONUS_H, BONUS_W)
        outputs, axes = ["logits"], {"input": {0: "n"}, "logits": {0: "n"}}
    else:
        dummy = torch.zeros(1, 3, 224, 384)
        outputs, axes = ["maps"], {"input": {0: "n", 2: "h", 3: "w"}, "maps": {0: "n", 2: "h4", 3: "w4"}}
    out.mkdir(parents=True, exist_ok=True)
    path = out / f"{name}.onnx"
    torch.onnx.export(model, (dummy,), str(path), input_names=["input"], output_names=outputs,
                      dynamic_axes=axes, opset_version=17, dynamo=False)
    meta = {"sidecar_version": SIDECAR_VERSION, "name": name, **expected_meta(name), "sha256": sha256(path),
            "training_data": data_version, **extra}
    (out / f"{name}.json").write_text(json.dumps(meta, indent=2) + "\n")
    return path


def main() -> None:
    ap = argparse.ArgumentParser()
    ap.add_argument("name", choices=["classifier", "bonus", *DETECTORS])
    ap.add_argument("weights", nargs="+", help="a weights file; several (same network) are averaged")
    ap.add_argument("--out", default="models")
    ap.add_argument("--data-version", default="")
    args = ap.parse_args()
    print(export([Path(w) for w in args.weights], args.name, Path(args.out), args.data_version, {}))


if __name__ == "__main__":
    main()
