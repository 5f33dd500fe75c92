"""The shipped model files: small, complete, and refused clearly when changed."""

from __future__ import annotations

import json
import shutil
from pathlib import Path

import pytest

from recognizer.errors import ModelFileError
from recognizer.models import SHIPPED, load_model, models_dir


def test_shipped_models_are_small_and_load() -> None:
    files = [p for p in models_dir().rglob("*") if p.is_file()]
    assert sum(p.stat().st_size for p in files) <= 30 * 1024 * 1024
    for name in SHIPPED:
        assert load_model(name).meta["sha256"]
    assert (models_dir() / "MODEL_CARD.md").is_file()


@pytest.mark.parametrize("damage, words", [
    (lambda d: (d / "classifier.onnx").write_bytes((d / "classifier.onnx").read_bytes() + b"x"), "sha256"),
    (lambda d: (d / "classifier.json").write_text(json.dumps({**json.loads((d / "classifier.json").read_text()), "labels": ["1B"]})), "labels"),
    (lambda d: (d / "classifier.json").unlink(), "missing"),
])
def test_changed_model_files_are_refused(tmp_path: Path, damage, words: str) -> None:  # type: ignore[no-untyped-def]
    for name in ("classifier.onnx", "classifier.json"):
        shutil.copy(models_dir() / name, tmp_path / name)
    damage(tmp_path)
    with pytest.raises(ModelFileError, match=words):
        load_model("classifier", str(tmp_path))
