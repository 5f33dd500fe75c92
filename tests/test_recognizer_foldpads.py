"""An 8-bit reader's zero paddings folded into their convolutions compute exactly what they did, and the shipped
reader has none left (each one kept a convolution off the integer path: twice the processor time a crop)."""

from __future__ import annotations

import numpy as np
import pytest

onnx = pytest.importorskip("onnx", reason="onnx not installed (optional extra: pip install -e .[train])")

import onnxruntime as ort  # noqa: E402
from onnx import TensorProto, helper, numpy_helper  # noqa: E402

from recognizer.models import models_dir  # noqa: E402
from recognizer.train.foldpads import fold_pads  # noqa: E402


def padded_convolution(pads: list[int]) -> onnx.ModelProto:
    """input -> quantise -> dequantise -> Pad(pads) -> quantise -> dequantise -> 3x3 Conv (8-bit weights) -> output."""
    rng = np.random.default_rng(0)
    weights = rng.integers(-100, 100, (4, 3, 3, 3)).astype(np.int8)
    inits = [
        numpy_helper.from_array(np.array(0.02, np.float32), "scale"),
        numpy_helper.from_array(np.array(128, np.uint8), "zero"),
        numpy_helper.from_array(np.array(pads, np.int64), "pads"),
        numpy_helper.from_array(weights, "w_q"),
        numpy_helper.from_array(np.array(0.01, np.float32), "w_scale"),
        numpy_helper.from_array(np.array(0, np.int8), "w_zero"),
    ]
    nodes = [
        helper.make_node("QuantizeLinear", ["input", "scale", "zero"], ["q1"]),
        helper.make_node("DequantizeLinear", ["q1", "scale", "zero"], ["d1"]),
        helper.make_node("Pad", ["d1", "pads"], ["padded"], mode="constant"),
        helper.make_node("QuantizeLinear", ["padded", "scale", "zero"], ["q2"]),
        helper.make_node("DequantizeLinear", ["q2", "scale", "zero"], ["d2"]),
        helper.make_node("DequantizeLinear", ["w_q", "w_scale", "w_zero"], ["w"]),
        helper.make_node("Conv", ["d2", "w"], ["output"], strides=[2, 2]),
    ]
    graph = helper.make_graph(nodes, "padded", [helper.make_tensor_value_info("input", TensorProto.FLOAT, [1, 3, 9, 8])],
                              [helper.make_tensor_value_info("output", TensorProto.FLOAT, None)], inits)
    return helper.make_model(graph, opset_imports=[helper.make_opsetid("", 17)])


def run(model: onnx.ModelProto, x: np.ndarray) -> np.ndarray:
    session = ort.InferenceSession(model.SerializeToString(), providers=["CPUExecutionProvider"])
    out: np.ndarray = session.run(None, {"input": x})[0]
    return out


@pytest.mark.parametrize("pads", [[0, 0, 1, 1, 0, 0, 1, 1], [0, 0, 0, 0, 0, 0, 1, 1], [0, 0, 2, 0, 0, 0, 1, 2]])
def test_a_folded_padding_computes_what_the_padding_did(pads: list[int]) -> None:
    x = np.random.default_rng(1).uniform(-2, 2, (1, 3, 9, 8)).astype(np.float32)
    model = padded_convolution(pads)
    want = run(model, x)
    assert fold_pads(model) == 1
    assert not any(n.op_type == "Pad" for n in model.graph.node)
    np.testing.assert_array_equal(run(model, x), want)


def test_a_padding_by_another_value_is_left_alone() -> None:
    model = padded_convolution([0, 0, 1, 1, 0, 0, 1, 1])
    model.graph.initializer.append(numpy_helper.from_array(np.array(1.0, np.float32), "one"))
    next(n for n in model.graph.node if n.op_type == "Pad").input.append("one")
    assert fold_pads(model) == 0


def test_the_shipped_reader_has_no_padding_outside_its_convolutions() -> None:
    model = onnx.load(str(models_dir() / "classifier.onnx"))
    assert not [n.name for n in model.graph.node if n.op_type == "Pad"]
