"""The page under hostile names and hosts (issue 37): a file, photo or tile-set name never becomes a link or an
image, a foreign Host (DNS rebinding) is refused, and no other site may frame the page.

Before issue 37 an uploaded file's name in an error, a stored photo's name in the history and a tile set's folder
name rendered as markdown (same-site links and images), and the page served any Host without anti-framing headers.
"""

from __future__ import annotations

import base64
import json
import os
import shutil
import socket
import subprocess
import sys
import time
import urllib.error
import urllib.request
from pathlib import Path

import pytest
from streamlit.testing.v1 import AppTest

from scoring.errors import Ask, Problem
from webapp.history import History
from webapp.server import allowed, host_name
from webapp.widgets import player_words

from history_helpers import ANN

ROOT = Path(__file__).resolve().parents[1]
APP = str(ROOT / "webapp" / "app.py")
EVIL = "Ann![p](http://127.0.0.1:8611/p.png)"
#: A name a folder may hold (no "/"): a same-site image.
EVIL_FOLDER = "![p](p.png)"


def _markdown(at: AppTest) -> list[str]:
    """Every piece of markdown the page asked Streamlit to render."""
    texts = [m.value for m in at.markdown] + [s.value for s in at.success] + [w.value for w in at.warning]
    texts += [e.value for e in at.error] + [c.value for c in at.caption] + [e.label for e in at.expander]
    return texts


def _image_captions(node: object) -> list[str]:
    """The captions of every picture on the page (AppTest has no accessor for them: the element tree is walked)."""
    found = []
    for child in getattr(node, "children", {}).values():
        if getattr(child, "type", None) == "image":
            found += [img.caption for img in child.proto.imgs]
        found += _image_captions(child)
    return found


def _links_or_images(texts: list[str]) -> list[str]:
    return [t for t in texts if "](" in t or "![" in t]


def test_a_message_naming_a_file_shows_the_name_as_itself() -> None:
    shown = player_words(Problem(f"{EVIL} is not a photo: use ", Ask.WON_BY, " wall"))
    assert not _links_or_images([shown]) and "*Won by*" in shown


def test_a_stored_photo_name_is_shown_as_itself_in_the_history(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    db = tmp_path / "h.sqlite3"
    store = History(db)
    game = store.new_game("g", ["Ann", "Bo", "Cy", "Di"])
    thumbnail = (ROOT / "recognizer" / "samples" / "finished-hand.jpg").read_bytes()
    store.save_hand(game.id, player="Ann", hand=ANN, rule_set="harr-1922", rule_version="1",
                    options={}, score=None, photo_name=EVIL, photo_sha256="ab" * 32, thumbnail=thumbnail)
    monkeypatch.setenv("PUNGCHOW_DB", str(db))
    at = AppTest.from_file(APP, default_timeout=90)
    at.run()
    at.switch_page("views/history.py").run()
    assert not at.exception, [e.value for e in at.exception]
    captions = _image_captions(at._tree)
    assert any("Ann\\!\\[p\\]" in c for c in captions), captions
    assert not _links_or_images(_markdown(at) + captions)


def test_a_tile_set_folder_named_as_markdown_is_no_set_and_never_rendered(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    good = ROOT / "models" / "tilesets" / "pungchow-1922"
    shutil.copytree(good, tmp_path / "tilesets" / EVIL_FOLDER)
    monkeypatch.setenv("PUNGCHOW_HOME", str(tmp_path))
    monkeypatch.setenv("PUNGCHOW_DB", str(tmp_path / "h.sqlite3"))
    at = AppTest.from_file(APP, default_timeout=90)
    at.run()
    at.switch_page("views/tilesets.py").run()
    assert not at.exception, [e.value for e in at.exception]
    texts = _markdown(at)
    assert any(t.startswith("Calibrated sets:") for t in texts), texts
    assert not _links_or_images(texts)


@pytest.mark.parametrize("host, ok", [("localhost:8501", True), ("127.0.0.1:8501", True), ("[::1]:8501", True),
                                      ("192.168.1.20:8501", True), ("evil.example:8501", False), ("localhost.evil.example", False),
                                      ("", False)])
def test_the_page_answers_to_its_own_names_and_any_ip_address(host: str, ok: bool) -> None:
    assert allowed(host, frozenset({"localhost"})) is ok, host_name(host)


def _free_port() -> int:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return int(s.getsockname()[1])


def _get(port: int, host: str) -> tuple[int, dict[str, str]]:
    request = urllib.request.Request(f"http://127.0.0.1:{port}/", headers={"Host": host})
    try:
        with urllib.request.urlopen(request, timeout=5) as reply:
            return reply.status, {k.lower(): v for k, v in reply.headers.items()}
    except urllib.error.HTTPError as exc:
        return exc.code, {k.lower(): v for k, v in exc.headers.items()}


def _websocket(port: int, host: str, origin: str) -> str:
    key = base64.b64encode(os.urandom(16)).decode()
    request = (f"GET /_stcore/stream HTTP/1.1\r\nHost: {host}\r\nUpgrade: websocket\r\nConnection: Upgrade\r\n"
               f"Sec-WebSocket-Key: {key}\r\nSec-WebSocket-Version: 13\r\nOrigin: {origin}\r\n"
               "Sec-WebSocket-Protocol: streamlit\r\n\r\n")
    with socket.create_connection(("127.0.0.1", port), timeout=5) as s:
        s.sendall(request.encode())
        return s.recv(200).decode("latin-1").split("\r\n")[0]


@pytest.mark.skipif(not hasattr(os, "killpg"), reason="stops the page's process group")
def test_the_served_page_refuses_a_foreign_host_and_cannot_be_framed(tmp_path: Path) -> None:
    """`pungchow app` itself: DNS rebinding (Host and Origin both a foreign name) gets no page and no websocket."""
    port = _free_port()
    env = dict(os.environ, PYTHONPATH=os.pathsep.join([str(ROOT), str(ROOT / "datasets")]))
    app = subprocess.Popen([sys.executable, "-m", "pungchow", "app", "--port", str(port), "--address", "127.0.0.1",
                            "--db", str(tmp_path / "h.db")], cwd=tmp_path, env=env, stdout=subprocess.DEVNULL,
                           stderr=subprocess.DEVNULL, start_new_session=True)
    try:
        deadline = time.monotonic() + 90
        while True:
            try:
                status, headers = _get(port, f"127.0.0.1:{port}")
                break
            except OSError:
                assert app.poll() is None and time.monotonic() < deadline, "pungchow app did not start"
                time.sleep(0.3)
        assert status == 200
        assert headers["x-frame-options"] == "DENY" and "frame-ancestors 'none'" in headers["content-security-policy"]
        assert _get(port, f"localhost:{port}")[0] == 200
        assert _get(port, f"evil.example:{port}")[0] == 403
        assert _websocket(port, f"127.0.0.1:{port}", f"http://127.0.0.1:{port}").endswith("101 Switching Protocols")
        assert _websocket(port, f"evil.example:{port}", f"http://evil.example:{port}").endswith("403 Forbidden")
        assert _websocket(port, f"127.0.0.1:{port}", "http://evil.example").endswith("403 Forbidden")
    finally:
        os.killpg(app.pid, 15)
        app.wait(timeout=30)


def test_a_table_whose_player_name_holds_a_new_line_is_refused(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    """A name could forge a payment line ("Ann\\nBob pays Ann 500") or send terminal escapes; it is refused, on one line."""
    from pungchow.cli import main

    table = json.loads((ROOT / "tests" / "badinput" / "files" / "table-fraction-score.json").read_text())
    table["players"][0].update(name="Ann\nBob pays Ann 500\x1b[2J", score=10)
    (tmp_path / "t.json").write_text(json.dumps(table))
    assert main(["settle", str(tmp_path / "t.json")]) == 2
    err = capsys.readouterr().err
    assert err.count("\n") == 1 and "\x1b" not in err and "control character" in err
