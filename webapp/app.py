"""The entry file: frames the pages with ``st.navigation``; each page is a thin view in ``views/`` (not ``pages/``,
which Streamlit would also serve on its own).

Run with ``pungchow app`` (or ``python -m streamlit run webapp/app.py``).
"""

from __future__ import annotations

import os

import streamlit as st

from webapp import state

st.set_page_config(page_title="Pung Chow", page_icon="🀄", layout="wide")
state.init(st.session_state)
if not st.session_state[state.HISTORY_PATH] and os.environ.get("PUNGCHOW_DB"):
    st.session_state[state.HISTORY_PATH] = os.environ["PUNGCHOW_DB"]

navigation = st.navigation(
    [
        st.Page("views/hand.py", title="Score a hand", icon=":material/photo_camera:", default=True),
        st.Page("views/table.py", title="Settle the table", icon=":material/payments:"),
        st.Page("views/history.py", title="History", icon=":material/history:"),
        st.Page("views/tilesets.py", title="Tile sets", icon=":material/grid_view:"),
    ]
)
navigation.run()
