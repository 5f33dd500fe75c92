"""The data manifest (``datasets/manifest.json``): every outside source, its licence, its credit.

Datasets carry the licences of the sources they were made from in their COCO ``licenses``
list, read from here, so the credit travels with the files.
"""

from __future__ import annotations

import json
from dataclasses import dataclass
from functools import lru_cache
from pathlib import Path
from typing import Any

from pungchow_data.faces import FAMILY_STYLES, STYLES

MANIFEST_PATH = Path(__file__).resolve().parents[1] / "manifest.json"


@dataclass(frozen=True)
class Source:
    """One outside source: where it comes from, under which licence, and how to credit it."""

    id: str
    kind: str
    title: str
    author: str
    url: str
    license: str
    license_url: str
    attribution_required: bool
    attribution: str
    used_for: str
    local_path: str = ""
    revision: str = ""


@lru_cache(maxsize=1)
def sources() -> dict[str, Source]:
    data = json.loads(MANIFEST_PATH.read_text())
    return {s["id"]: Source(**{k: v for k, v in s.items() if k in Source.__dataclass_fields__}) for s in data["sources"]}


def style_sources(style_name: str) -> list[str]:
    """Ids of the sources a tile style draws on."""
    if style_name in FAMILY_STYLES:
        from pungchow_data.realsets import FAMILIES, FONT_FILES

        packages = [FONT_FILES[k][1] for k in FAMILIES[style_name].fonts]
        return ["pungchow-synthetic", *dict.fromkeys("noto-cjk" if p == "fonts-noto-cjk" else p for p in packages), "dejavu"]
    style = STYLES[style_name]
    ids = ["pungchow-synthetic", "noto-cjk", "dejavu"]
    if style.art is not None:
        ids.insert(1, "fluffystuff-riichi")
    return ids


def coco_licenses(ids: list[str]) -> list[dict[str, Any]]:
    """COCO ``licenses`` entries (1-based ids) for some sources, with their attribution."""
    out = []
    for n, sid in enumerate(ids, start=1):
        s = sources()[sid]
        out.append({"id": n, "name": s.license, "url": s.license_url, "source": s.id, "attribution": s.attribution})
    return out


def synthetic_licenses(style_names: list[str]) -> list[dict[str, Any]]:
    """The licences of every source behind a synthetic dataset of these styles."""
    ids: list[str] = []
    for name in style_names:
        for sid in style_sources(name):
            if sid not in ids:
                ids.append(sid)
    return coco_licenses(ids)
