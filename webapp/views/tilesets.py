"""Tile sets: teach the reader a new set of tiles from one photo of its faces laid out in rows."""

from __future__ import annotations

from functools import partial

import streamlit as st

from recognizer.tileset import check_layout
from scoring.errors import PungChowError
from scoring.jsonfile import JsonInputError, load_json
from scoring.tiles import BONUS_CODES, PLAYING_CODES
from webapp import state
from webapp.drawing import tile_row
from webapp.photos import MAX_UPLOAD_MB, read_photo
from webapp.recognition import (
    default_layout,
    export_tileset,
    forget_examples,
    import_tileset,
    known_tilesets,
    learnt_examples,
    own_tilesets,
    read_tileset_photo,
    rename_tileset,
    save_tileset,
)
from webapp.text import markdown_text
from webapp.widgets import user_errors

#: The calibration waiting for the player's check: (name, recognizer Calibration, version for widget keys).
PENDING = "w_tileset_pending"
FACE_CODES = list(PLAYING_CODES) + list(BONUS_CODES)
PER_ROW = 9
#: A face's latest examples shown (a set learnt all year holds hundreds of each; a wrong one is usually the latest).
SHOWN_PER_FACE = 2 * PER_ROW


def layout_from_upload(upload: object) -> list[list[str]]:
    try:
        data = load_json(upload.getvalue(), "layout")  # type: ignore[attr-defined]
    except JsonInputError as exc:
        raise PungChowError(f'{exc}; write {{"rows": [["1D", "2D"], ["EW"]]}}') from None
    return check_layout(data.get("rows") if isinstance(data, dict) else data, "the layout file")


st.title("Tile sets")
st.markdown(
    "A set whose faces the reader has not seen (old bone tiles, unusual art) is read better after "
    "calibration. Lay **one of each face** out in these rows, with a clear gap between rows, on a plain "
    "table; photograph them from straight above, in daylight or even room light, with the rows filling "
    "the frame (each tile at least 40 pixels wide). Then check what was learnt and save."
)
with_bonus = st.checkbox("The set has flowers and seasons", value=True, key="w_tileset_bonus")
for row in default_layout(with_bonus):
    st.image(tile_row(row))

with user_errors():
    known = known_tilesets()
    st.caption("Calibrated sets: " + (markdown_text(", ".join(known)) if known else "none yet"))
    with st.form("w_tileset_form"):
        name = st.text_input("Name of the set", placeholder="grandma-bone", key="w_tileset_name")
        upload = st.file_uploader("Photo of the faces laid out", key="w_tileset_photo", max_upload_size=MAX_UPLOAD_MB)
        layout_file = st.file_uploader("Another layout (optional JSON: {\"rows\": [[\"1D\", ...], ...]})", key="w_tileset_layout",
                                       type=["json"])
        if st.form_submit_button("Calibrate", key="w_tileset_add"):
            if upload is None:
                raise PungChowError("upload the photo of the laid-out faces first")
            if not name.strip():
                raise PungChowError("name the tile set first, e.g. grandma-bone")
            photo = read_photo(upload.getvalue(), upload.name)
            layout = layout_from_upload(layout_file) if layout_file is not None else default_layout(with_bonus)
            with st.spinner("Finding the faces in the photo…"):
                calibration = read_tileset_photo(photo, layout)
            version = st.session_state.get(PENDING, (None, None, 0))[2] + 1
            st.session_state[PENDING] = (name.strip(), calibration, version)

    pending = st.session_state.get(PENDING)
    if pending and pending[1] is not None:
        set_name, calibration, version = pending
        st.subheader(f"What the reader learnt for {markdown_text(set_name)}")
        st.caption("Each tile as the reader found it, with the code the layout gives it. "
                   "Fix any wrong one (each code once), then save.")
        crops = calibration.crops()
        for start in range(0, len(crops), PER_ROW):
            columns = st.columns(PER_ROW)
            for column, i in zip(columns, range(start, min(start + PER_ROW, len(crops)))):
                column.image(crops[i], width=72)
                column.selectbox(f"Tile {i + 1}", FACE_CODES, index=FACE_CODES.index(calibration.codes[i]),
                                 key=f"w_tileset_code_{version}_{i}", label_visibility="collapsed")
        if st.button("Save the tile set", key="w_tileset_save", type="primary"):
            fixes = {i: st.session_state[f"w_tileset_code_{version}_{i}"] for i in range(len(crops))}
            with st.spinner("Learning the faces of this set…"):
                folder = save_tileset(set_name, calibration, fixes)
            st.session_state[PENDING] = (None, None, version)
            st.success(f"Tile set {markdown_text(set_name)} calibrated and saved in {markdown_text(folder)}.")

    st.subheader("What your sets have learnt")
    with st.form("w_import_form", clear_on_submit=True), user_errors():  # a file refused still lists the sets below
        exported = st.file_uploader("A set you exported (.zip)", type=["zip"], key="w_import_set", max_upload_size=MAX_UPLOAD_MB)
        if st.form_submit_button("Import the set", key="w_import") and exported is not None:
            st.success(markdown_text(import_tileset(exported.getvalue(), exported.name)))
    own = own_tilesets()
    if not own:
        st.caption("No set of yours yet: calibrate one above, or learn one from corrected photos "
                   "(pungchow tileset learn NAME PHOTO --corrected FILE).")
    else:
        chosen = st.selectbox("Set", own, key="w_learnt_set") or own[0]
        examples = learnt_examples(chosen)
        st.caption(f"{len(examples)} examples of {len(examples.faces_seen)} faces. Each example is a tile as it was "
                   "photographed, named as you checked it; forget one you named wrongly, and the reader stops learning from it.")
        for code in examples.faces_seen:
            places = [k for k, c in enumerate(examples.codes) if c == code]
            st.markdown(f"**{code}**: {len(places)} example{'s' if len(places) > 1 else ''}")
            if len(places) > SHOWN_PER_FACE:
                st.caption(f"the latest {SHOWN_PER_FACE} shown")
                places = places[-SHOWN_PER_FACE:]
            for start in range(0, len(places), PER_ROW):
                for column, k in zip(st.columns(PER_ROW), places[start:start + PER_ROW]):
                    column.image(examples.crops[k], width=56, caption=markdown_text(examples.sources[k].partition(":")[2]))
                    if column.button("Forget", key=f"w_forget_{chosen}_{len(examples)}_{k}"):
                        st.session_state["w_learnt_said"] = forget_examples(chosen, [k])
                        st.rerun()
        with st.form("w_rename_form", clear_on_submit=True), user_errors():
            cols = st.columns([3, 1], vertical_alignment="bottom")
            new_name = cols[0].text_input(f"A new name for {chosen}", placeholder="grandma-bone", key="w_rename_to")
            if cols[1].form_submit_button("Rename", key="w_rename") and new_name.strip():
                st.session_state["w_learnt_said"] = rename_tileset(chosen, new_name)
                if st.session_state.get(state.LEARNING_SET) == chosen:
                    st.session_state[state.LEARNING_SET] = new_name.strip()  # Score a hand goes on teaching it
                st.session_state.pop("w_learnt_set", None)
                st.rerun()
        said = st.session_state.pop("w_learnt_said", None)
        if said:
            st.success(markdown_text(said))
        left, right = st.columns(2)
        if left.button("Forget all it learnt from photos", key="w_forget_all"):
            st.session_state["w_learnt_said"] = forget_examples(chosen)
            st.rerun()
        right.download_button("Export the set (one file)", partial(export_tileset, chosen), file_name=f"{chosen}.zip",
                              mime="application/zip", key="w_export_set", on_click="ignore")  # made on the tap, not each run
