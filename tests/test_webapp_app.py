"""The page itself, driven through Streamlit's AppTest: each flow a player follows."""

from __future__ import annotations

import json
from pathlib import Path

import cv2
import numpy as np
import pytest
from streamlit.testing.v1 import AppTest

import streamlit as st

from recognizer.hand import Recognition
from scoring.api import Hand, rule_sets
from scoring.settle import Settlement
from tests.recognitions import misread_recognition
from webapp import recognition, reviewer
from webapp.review import tiles_in_review_order as rv_order

APP = str(Path(__file__).resolve().parents[1] / "webapp" / "app.py")
HAND = "7C8C9C6C7C8CSWSW [2D2D2D] [5C6C7C]"
#: Three losers' hands that one set of tiles holds beside HAND (a deal with more than four of a tile is refused).
LOSERS = ("2B3B4B 5D5D9D9D [RDRDRD] [4D4D4D4D]", "2B3B4B 1D1D8D8D [GDGDGD] [3D3D3D3D]", "2B3B4B 1C1C2C2C [WDWDWD] [8B8B8B8B]")

needs_harr = pytest.mark.skipif("harr-1922" not in rule_sets(), reason="the harr-1922 rule set is not installed")


@pytest.fixture
def app(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> AppTest:
    monkeypatch.setenv("PUNGCHOW_DB", str(tmp_path / "history.sqlite3"))
    at = AppTest.from_file(APP, default_timeout=90)
    at.run()
    assert not at.exception
    return at


class FakePipeline:
    @staticmethod
    def recognize(image: np.ndarray, tileset: str | None = None) -> Recognition:
        return misread_recognition()

    @staticmethod
    def better_tileset(image: np.ndarray, result: Recognition | None = None, current: str | None = None) -> None:
        return None  # no calibrated set looks like the stand-in's photo


@pytest.fixture
def fake_reader(monkeypatch: pytest.MonkeyPatch) -> object:
    """Stands in for the recognizer where its model is not installed; the page's code path is the same."""
    st.cache_resource.clear()
    st.cache_data.clear()
    monkeypatch.setattr(recognition, "load_reader", lambda: recognition.Reader(FakePipeline, ()))
    yield FakePipeline
    st.cache_resource.clear()
    st.cache_data.clear()


def real_reader_and_photo() -> tuple[recognition.Reader, Path] | None:
    """The shipped recognizer and a sample photo of a whole hand, when both are installed."""
    fixtures = Path(__file__).parent / "fixtures"
    photos = (sorted((fixtures / "photos").glob("synth-*.jpg")) + sorted((fixtures / "photos").glob("*.jpg"))
              + sorted((fixtures / "data" / "synth-sample" / "images").glob("*.jpg")))
    try:
        reader = recognition.load_reader()
    except recognition.ReaderMissing:
        return None
    return (reader, photos[0]) if photos else None


def errors(at: AppTest) -> list[str]:
    assert not at.exception, [e.value for e in at.exception]
    return [e.value for e in at.error]


def type_hand(at: AppTest, notation: str = HAND, winning: str = "2D", won_by: str | None = "discard") -> None:
    at.text_input(key="w_notation").set_value(notation)
    at.text_input(key="w_typed_winning").set_value(winning)
    at.selectbox(key="w_typed_won_by").set_value(won_by)
    at.button(key="w_use_typed").click()
    at.run()


def score_shown(at: AppTest) -> str:
    return at.metric[0].value


@needs_harr
def test_typed_hand_is_scored_line_by_line_with_citations(app: AppTest) -> None:
    type_hand(app)
    assert errors(app) == []
    assert score_shown(app) == "22"
    citations = app.table[0].value["citation"].tolist()
    assert citations and all("Harr, Pung Chow (1922)" in c for c in citations)


@needs_harr
def test_a_typed_hand_without_won_by_is_asked_not_guessed(app: AppTest) -> None:
    type_hand(app, won_by=None)
    assert errors(app) == []
    assert app.session_state["review"].won_by is None
    assert any("How was it won?" in i.value for i in app.info)


@needs_harr
def test_correcting_a_tile_changes_the_score(app: AppTest) -> None:
    type_hand(app, "7C8C9C6C7C8CSWSW [2D2D2D] [RDRDRD]", winning="2D")
    # Harr: 20 for Mah-Jongg, 2 for the exposed pung of 2D, 4 for the exposed red dragons = 26,
    # doubled once for the set of dragons.
    assert score_shown(app) == "52"
    review = app.session_state["review"]
    red = next(t for t in review.tiles if t.code == "RD")
    app.selectbox(key=f"w_pick_{app.session_state['review_version']}").set_value(red.id).run()
    for tile in [t for t in review.tiles if t.code == "RD"]:
        app.selectbox(key=f"w_pick_{app.session_state['review_version']}").set_value(tile.id).run()
        app.button(key=f"w_face_{app.session_state['review_version']}_3D").click().run()
    assert errors(app) == []
    assert [c.action for c in app.session_state["review"].corrections] == ["replace"] * 3
    # The dragons read as 3D: 20 + 2 + 2, and no double.
    assert score_shown(app) == "24"


@needs_harr
def test_all_rule_sets_side_by_side(app: AppTest) -> None:
    type_hand(app)
    app.selectbox(key="w_rules").set_value("all").run()
    assert errors(app) == []
    names = app.table[0].value["name"].tolist()
    assert "harr-1922" in names and "harr-1922-limit" in names


def test_bad_notation_is_a_message_not_a_traceback(app: AppTest) -> None:
    type_hand(app, "7C8C9Q", winning="")
    assert any("9Q" in e for e in errors(app))


@pytest.mark.parametrize(
    ("name", "data", "message"),
    [
        ("notes.txt", b"shopping list", "not a photo"),
        ("cut.jpg", b"\xff\xd8\xff\xe0" + b"\0" * 100, "read"),
        ("huge.jpg", b"\xff\xd8\xff\xe0" + b"\0" * (21 * 1024 * 1024), "limit"),
    ],
    ids=["not-an-image", "corrupt", "too-large"],
)
def test_bad_upload_keeps_the_page_working(app: AppTest, name: str, data: bytes, message: str) -> None:
    app.file_uploader(key="w_upload").set_value((name, data, "image/jpeg")).run()
    assert any(message in e for e in errors(app)), errors(app)
    type_hand(app)
    assert app.session_state["review"] is not None


def test_photo_without_tiles_read_can_be_filled_by_hand(app: AppTest) -> None:
    image = np.full((300, 400, 3), 90, np.uint8)
    app.file_uploader(key="w_upload").set_value(("hand.jpg", cv2.imencode(".jpg", image)[1].tobytes(), "image/jpeg")).run()
    assert not app.exception
    assert app.session_state["photo"] is not None and app.session_state["review"] is not None
    version = app.session_state["review_version"]
    app.button(key=f"w_add_{version}_RD").click().run()
    assert "RD" in [t.code for t in app.session_state["review"].tiles]


@needs_harr
def test_history_saved_and_reloaded(app: AppTest) -> None:
    type_hand(app)
    app.text_input(key="w_save_title").set_value("Friday")
    app.text_input(key="w_save_players").set_value("Ann, Bo, Cy, Di")
    app.button(key="w_save_hand").click().run()
    assert errors(app) == []
    assert "Saved as hand 1" in app.success[0].value
    app.session_state["review"] = None
    app.switch_page("views/history.py").run()
    assert errors(app) == []
    assert app.dataframe[-1].value["player"].tolist() == ["Ann"]
    assert len(app.get("download_button")) == 2, "the game exports as JSON and as CSV"
    app.button(key="w_load_hand_1").click().run()
    assert errors(app) == []
    assert app.session_state["review"] is not None
    assert any("from the history" in c.value for c in app.caption)
    assert score_shown(app) == "22"


@needs_harr
def test_marking_a_concealed_kong_changes_the_score(app: AppTest) -> None:
    type_hand(app, "7C8C9C6C7C8CSWSW [1D1D1D1D] [5C6C7C]", winning="SW")
    # Harr: 20 for Mah-Jongg, 2 for filling the only place (the pair), 16 for an exposed kong of 1D.
    before = score_shown(app)
    assert before == "38"
    version = app.session_state["review_version"]
    kong = app.session_state["review"].groups[0].id
    app.button(key=f"w_ckong_{version}_{kong}").click().run()
    assert errors(app) == []
    assert app.session_state["review"].groups[0].concealed
    assert score_shown(app) == "54", "a concealed kong of 1D is worth 32, not 16"
    app.checkbox(key=f"w_concealed_{version}_{kong}_True").uncheck().run()
    assert not app.session_state["review"].groups[0].concealed
    assert score_shown(app) == before


def test_tile_set_page_explains_what_is_missing(app: AppTest) -> None:
    app.switch_page("views/tilesets.py").run()
    assert errors(app) == []
    app.button(key="w_tileset_add").click().run()
    assert any("photo" in e for e in errors(app))


def photo_bytes() -> bytes:
    return cv2.imencode(".jpg", np.full((480, 640, 3), (40, 110, 50), np.uint8))[1].tobytes()


def marked_on_photo(app: AppTest) -> list[int]:
    """The tiles the photo chart draws as being fixed."""
    spec = json.loads(app.get("vega_lite_chart")[0].proto.spec)
    rows = [row for layer in spec["layer"] for row in (layer.get("data") or {}).get("values", []) if "colour" in row]
    return sorted({row["id"] for row in rows if row["colour"] == reviewer.PICKED})


@needs_harr
def test_upload_then_correct_a_tile_then_the_score_changes(app: AppTest, fake_reader: object) -> None:
    app.file_uploader(key="w_upload").set_value(("hand.jpg", photo_bytes(), "image/jpeg")).run()
    assert not app.exception
    review = app.session_state["review"]
    assert len(review.tiles) == 14 and app.session_state["photo"] is not None
    version = app.session_state["review_version"]
    assert app.button(key=f"w_check_{version}_7").label.startswith("#7 NW"), "the doubtful tile is listed first, by its number"
    assert any("how the hand was won" in w.value for w in app.warning), "the page asks, it does not guess a discard"
    app.get("button_group")[0].set_value("discard").run()
    assert app.session_state["review"].won_by.value == "discard"
    assert any("not a complete hand" in e for e in errors(app)), "a misread hand cannot be scored yet"
    assert app.selectbox(key=f"w_pick_{version}").value == 7, "the least sure tile is picked first"
    app.selectbox(key=f"w_pick_{version}").set_value(2).run()
    assert marked_on_photo(app) == [2], "the photo marks the tile just picked, not the one before it"
    app.selectbox(key=f"w_pick_{version}").set_value(7).run()
    app.button(key=f"w_alt_{version}_7_SW").click().run()
    assert errors(app) == []
    assert app.session_state["review"].corrections[-1].to_dict() == {"action": "replace", "tile": 7, "was": "NW", "now": "SW"}
    assert score_shown(app) == "22", "HAND as typed: 20 for Mah-Jongg and 2 for the exposed pung of 2D"
    assert any("#7 is SW" in s.value for s in app.success), "the tap says what it did"
    assert app.selectbox(key=f"w_pick_{version}").value == 3, "the next doubtful tile is picked"
    app.button(key=f"w_confirm_{version}").click().run()
    assert app.session_state["review"].corrections[-1].action == "confirm"
    assert not any(b.key and b.key.startswith(f"w_check_{version}_") for b in app.button)
    app.selectbox(key=f"w_winning_{version}_None").set_value(12).run()
    assert errors(app) == []
    assert app.session_state["review"].winning_tile == 12
    assert any("#7 was read as NW, it is SW" in m.value for m in app.markdown), "corrections read as sentences"


def test_upload_read_by_the_real_recognizer(app: AppTest) -> None:
    found = real_reader_and_photo()
    if found is None:
        pytest.skip("the recognizer's model or the sample photos (tests/fixtures/photos) are not installed")
    _, photo = found
    app.file_uploader(key="w_upload").set_value((photo.name, photo.read_bytes(), "image/jpeg")).run()
    assert not app.exception
    review = app.session_state["review"]
    assert review is not None and review.tiles, "the sample photo shows tiles"
    assert all(t.box is not None for t in review.tiles)
    first = rv_order(review)[0]
    version = app.session_state["review_version"]
    app.selectbox(key=f"w_pick_{version}").set_value(first.id).run()  # tapped (every tile may be read surely: none picked)
    app.button(key=f"w_face_{version}_{'1B' if first.code != '1B' else '2B'}").click().run()
    assert not app.exception
    fixed = app.session_state["review"].corrections[-1]
    assert fixed.action == "replace" and fixed.detail["tile"] == first.id


@needs_harr
def test_four_hands_to_the_settlement(app: AppTest) -> None:
    app.switch_page("views/table.py").run()
    assert errors(app) == []
    for i, name in enumerate(["Ann", "Bo", "Cy", "Di"]):
        app.text_input(key=f"w_player_{i}").set_value(name)
    app.selectbox(key="w_winner").set_value(0)
    app.run()
    app.text_input(key="w_seat_hand_0").set_value(HAND)
    app.text_input(key="w_seat_winning_0").set_value("2D")
    app.selectbox(key="w_seat_won_by_0").set_value("discard")
    for i, loser in enumerate(LOSERS, start=1):
        app.text_input(key=f"w_seat_hand_{i}").set_value(loser)
    app.selectbox(key="w_east").set_value(1)
    app.button(key="w_settle").click().run()
    assert not app.exception
    scores = app.table[0].value
    assert scores["player"].tolist() == ["Ann", "Bo", "Cy", "Di"]
    assert scores["wind"].tolist() == ["North", "East", "South", "West"]
    assert scores["score"].tolist()[0] == "22"
    assert errors(app) == []
    settlement = app.session_state["settlement"]
    assert isinstance(settlement, Settlement) and sum(settlement.nets().values()) == 0
    app.text_input(key="w_deal_title").set_value("Friday")
    app.button(key="w_save_deal").click().run()
    assert errors(app) == [] and "Saved deal 1" in app.success[0].value
    app.switch_page("views/history.py").run()
    assert errors(app) == []
    assert app.dataframe[-1].value["player"].tolist() == ["Ann", "Bo", "Cy", "Di"], "the deal's four hands are kept"
    assert "Settlements" in [h.value for h in app.subheader]


def test_a_seat_hand_read_from_its_photo(app: AppTest, fake_reader: object) -> None:
    app.switch_page("views/table.py").run()
    app.file_uploader(key="w_seat_photo_2").set_value(("west.jpg", photo_bytes(), "image/jpeg")).run()
    assert errors(app) == []
    assert app.session_state["table"].seats[2].hand == Hand.parse("6C7C7C8C8C9CSWNW [5C6C7C] [2D2D2D]", winner=False, check=False)
    assert app.session_state["table"].seats[2].photo_sha256
    assert app.button(key="w_s2_check_1_7").label.startswith("#7 NW"), "the seat's tiles get the same review"
    app.button(key="w_s2_alt_1_7_SW").click().run()
    assert errors(app) == []
    assert str(app.session_state["table"].seats[2].hand) == "6C7C7C8C8C9CSWSW [5C6C7C] [2D2D2D]", "a fix changes the seat's hand"
    app.button(key="w_seat_type_2").click().run()
    assert app.text_input(key="w_seat_hand_2").value == "6C7C7C8C8C9CSWSW [5C6C7C] [2D2D2D]", "typing starts from the fixed hand"
    assert str(app.session_state["table"].seats[2].hand) == "6C7C7C8C8C9CSWSW [5C6C7C] [2D2D2D]"


def test_a_seat_photo_starts_its_winning_tile_afresh(app: AppTest, fake_reader: object) -> None:
    app.switch_page("views/table.py").run()
    app.selectbox(key="w_winner").set_value(0).run()
    app.text_input(key="w_seat_hand_0").set_value(HAND)
    app.text_input(key="w_seat_winning_0").set_value("2D").run()
    app.file_uploader(key="w_seat_photo_0").set_value(("east.jpg", photo_bytes(), "image/jpeg")).run()
    assert errors(app) == []
    assert app.session_state["table"].seats[0].winning_tile is None, "the old hand's winning tile is not kept for the new photo"



@needs_harr
def test_a_rule_set_option_changes_the_score(app: AppTest) -> None:
    type_hand(app)
    app.selectbox(key="w_rules").set_value("harr-1922-limit").run()
    assert errors(app) == []
    app.text_input(key="w_opt_harr-1922-limit_limit").set_value("10").run()
    assert errors(app) == []
    assert score_shown(app).startswith("10 (capped")
    app.text_input(key="w_opt_harr-1922-limit_limit").set_value("lots").run()
    assert any("limit" in e for e in errors(app)), "a bad option value is a message"


def test_a_photo_from_the_phone_camera(app: AppTest, fake_reader: object) -> None:
    app.toggle(key="w_use_camera").set_value(True).run()
    app.camera_input(key="w_camera").set_value(("shot.jpg", photo_bytes(), "image/jpeg")).run()
    assert not app.exception
    assert len(app.session_state["review"].tiles) == 14


def layout_photo(rows: list[list[str]]) -> bytes:
    """One of each face in the layout's rows on a green cloth, drawn by the data generator's renderer."""
    faces = pytest.importorskip("pungchow_data.faces", reason="the tile-face renderer is not installed")
    if faces.missing_fonts():
        pytest.skip(faces.missing_fonts())
    from PIL import Image

    w, h, gap = faces.FACE_W, faces.FACE_H, 30
    canvas = Image.new("RGB", (gap + 9 * (w + gap), gap + len(rows) * (h + 2 * gap)), (40, 110, 60))
    for r, row in enumerate(rows):
        for c, code in enumerate(row):
            face = Image.fromarray(faces.render_face(faces.STYLES["western"], code))
            canvas.paste(face, (gap + c * (w + gap), gap + r * (h + 2 * gap)), face)
    return cv2.imencode(".jpg", cv2.cvtColor(np.asarray(canvas), cv2.COLOR_RGB2BGR))[1].tobytes()


def test_calibrate_a_tile_set_from_one_photo(app: AppTest, tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    try:
        recognition.load_reader()
    except recognition.ReaderMissing as exc:
        pytest.skip(str(exc))
    monkeypatch.setenv("PUNGCHOW_HOME", str(tmp_path))
    app.switch_page("views/tilesets.py").run()
    app.text_input(key="w_tileset_name").set_value("western-test")
    app.file_uploader(key="w_tileset_photo").set_value(("set.jpg", layout_photo(recognition.default_layout()), "image/jpeg"))
    app.button(key="w_tileset_add").click().run()
    assert errors(app) == []
    assert app.selectbox(key="w_tileset_code_1_0").value == "1B"  # each learnt crop shown with its code, to fix
    app.selectbox(key="w_tileset_code_1_0").set_value("2B")
    app.selectbox(key="w_tileset_code_1_1").set_value("1B")
    app.button(key="w_tileset_save").click().run()
    assert errors(app) == []
    assert "western-test" in app.success[0].value.replace("\\", "")  # as rendered: the name's escapes gone
    from recognizer.tileset import load_tileset

    assert load_tileset("western-test").codes[:2] == ("2B", "1B")
    app.switch_page("views/hand.py").run()
    assert "western-test" in app.selectbox(key="w_tileset").options


@needs_harr
def test_a_saved_hand_used_in_a_deal_is_kept_once(app: AppTest) -> None:
    type_hand(app)
    app.button(key="w_save_hand").click().run()
    assert errors(app) == [] and "Saved as hand 1" in app.success[0].value
    app.switch_page("views/table.py").run()
    app.button(key="w_seat_from_review_0").click().run()
    for i, loser in enumerate(LOSERS, start=1):
        app.text_input(key=f"w_seat_hand_{i}").set_value(loser)
    app.button(key="w_settle").click().run()
    assert errors(app) == []
    app.button(key="w_save_deal").click().run()
    assert errors(app) == [] and "Saved deal 1" in app.success[0].value, "the deal takes the saved hand's deal"
    app.switch_page("views/history.py").run()
    hands = app.dataframe[-1].value
    assert hands["hand"].tolist() == ["1", "2", "3", "4"], "the saved hand appears once, linked to the deal"
    assert set(hands["deal"]) == {"1"}
