"""Quantise an exported reader to 8-bit integers, calibrated on rendered and leo crops of the pack.

    python -m recognizer.train.quantize_real FLOAT.onnx PACK OUT.onnx

EfficientNet-Lite was designed for integer arithmetic (ReLU6, no squeeze-and-excitation); on two CPU cores the
8-bit reader is several times quicker than the float one, and the real-photo bench decides whether it reads as well
(``models/MODEL_CARD.md``). Calibration sets only the ranges of the activations; it uses renders and leo crops, never
the real dev sets the bench reports on. The sidecar beside FLOAT.onnx is copied with the new file's sha256.

The weights keep 7 bits (``reduce_range``): a processor without VNNI multiplies 8-bit activations by 8-bit weights in
pairs summed into 16 bits, which overflow, so full 8-bit weights read a photo one way on such a processor and another
way on one with VNNI (the shipped reader's tests passed on one machine and failed on the next); with 7-bit weights the
pairs never overflow and every x86 processor computes the same integers.
"""

from __future__ import annotations

import argparse
import json
import tempfile
from pathlib import Path

import numpy as np
import onnx
import torch

from recognizer.models import sha256
from recognizer.train.fit_real import batch_input, decode_pack
from recognizer.train.foldpads import fold_pads
from recognizer.train.realtiles import LEO, RENDER

CALIBRATION_CROPS = 256


class PackCrops:
    """Batches of pack crops framed as the reader frames a tile, for onnxruntime's calibration."""

    def __init__(self, pack: Path, n: int = CALIBRATION_CROPS, seed: int = 0) -> None:
        data = decode_pack(pack)
        rng = np.random.default_rng(seed)
        pool = np.flatnonzero(np.isin(data["kind"], (RENDER, LEO)))
        idx = torch.as_tensor(rng.choice(pool, min(n, len(pool)), replace=False))
        g = torch.Generator()
        g.manual_seed(seed)
        images = torch.as_tensor(data["images"])
        tight = torch.zeros(len(images), dtype=torch.bool)
        x = batch_input(images, idx, tight, g, train=False).numpy().astype(np.float32)
        self.batches = iter([{"input": x[a:a + 16]} for a in range(0, len(x), 16)])

    def get_next(self) -> dict[str, np.ndarray] | None:
        return next(self.batches, None)


def quantize(model: Path, pack: Path, out: Path) -> Path:
    from onnxruntime.quantization import CalibrationDataReader, QuantFormat, QuantType, quantize_static
    from onnxruntime.quantization.shape_inference import quant_pre_process

    class CropFeed(CalibrationDataReader):  # type: ignore[misc]  # onnxruntime has no type hints: its base class is Any
        def __init__(self) -> None:
            self.crops = PackCrops(pack)

        def get_next(self) -> dict[str, np.ndarray] | None:
            return self.crops.get_next()

    with tempfile.TemporaryDirectory() as tmp:
        prepared = Path(tmp) / "prepared.onnx"
        quant_pre_process(str(model), str(prepared))
        quantize_static(str(prepared), str(out), CropFeed(), quant_format=QuantFormat.QDQ, per_channel=True,
                        activation_type=QuantType.QUInt8, weight_type=QuantType.QInt8, reduce_range=True)
    quantised = onnx.load(str(out))
    fold_pads(quantised)  # the same integers, convolutions run on them (recognizer/train/foldpads.py)
    onnx.save(quantised, str(out))
    sidecar = model.with_suffix(".json")
    if sidecar.is_file():
        meta = json.loads(sidecar.read_text())
        meta["sha256"] = sha256(out)
        meta["quantised"] = (f"8-bit (QDQ, per-channel 7-bit weights), calibrated on {CALIBRATION_CROPS} render and leo crops; each "
                             "zero padding folded into its convolution (python -m recognizer.train.foldpads: the same "
                             "outputs, twice as fast)")
        out.with_suffix(".json").write_text(json.dumps(meta, indent=2, ensure_ascii=False) + "\n")
    return out


def main(argv: list[str] | None = None) -> int:
    p = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    p.add_argument("model", type=Path)
    p.add_argument("pack", type=Path)
    p.add_argument("out", type=Path)
    a = p.parse_args(argv)
    if a.out.exists():
        print(f"{a.out} exists; name another file")
        return 2
    print(quantize(a.model, a.pack, a.out))
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
