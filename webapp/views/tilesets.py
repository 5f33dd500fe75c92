"""Tile sets: teach the reader a new set of tiles from one photo of its faces laid out in rows."""

from __future__ import annotations

import streamlit as st

from scoring.errors import PungChowError
from scoring.jsonfile import JsonInputError, load_json
from webapp.drawing import tile_row
from webapp.photos import MAX_UPLOAD_MB, read_photo
from webapp.recognition import add_tileset, default_layout, known_tilesets
from webapp.widgets import user_errors


def layout_from_upload(upload: object) -> list[list[str]]:
    try:
        data = load_json(upload.getvalue(), "layout")  # type: ignore[attr-defined]
    except JsonInputError as exc:
        raise PungChowError(f'{exc}; write {{"rows": [["1D", "2D"], ["EW"]]}}') from None
    rows = data.get("rows") if isinstance(data, dict) else data
    if not isinstance(rows, list) or not all(isinstance(r, list) and r for r in rows):
        raise PungChowError('the layout file needs "rows": a list of non-empty lists of tile codes')
    return [[str(c) for c in r] for r in rows]


st.title("Tile sets")
st.markdown(
    "A set whose faces the reader has not seen (old bone tiles, unusual art) is read better after "
    "calibration. Lay **one of each face** out in these rows, with a clear gap between rows, on a plain "
    "table; photograph them from above and upload the photo."
)
with_bonus = st.checkbox("The set has flowers and seasons", value=True, key="w_tileset_bonus")
for row in default_layout(with_bonus):
    st.image(tile_row(row))

with user_errors():
    known = known_tilesets()
    st.caption("Calibrated sets: " + (", ".join(known) if known else "none yet"))
    with st.form("w_tileset_form"):
        name = st.text_input("Name of the set", placeholder="grandma-bone", key="w_tileset_name")
        upload = st.file_uploader("Photo of the faces laid out", key="w_tileset_photo", max_upload_size=MAX_UPLOAD_MB)
        layout_file = st.file_uploader("Another layout (optional JSON: {\"rows\": [[\"1D\", ...], ...]})", key="w_tileset_layout",
                                       type=["json"])
        if st.form_submit_button("Calibrate", key="w_tileset_add"):
            if upload is None:
                raise PungChowError("upload the photo of the laid-out faces first")
            photo = read_photo(upload.getvalue(), upload.name)
            layout = layout_from_upload(layout_file) if layout_file is not None else default_layout(with_bonus)
            with st.spinner("Learning the faces of this set…"):
                folder = add_tileset(name, photo, layout)
            st.success(f"Tile set {name.strip()} calibrated and saved in {folder}.")
