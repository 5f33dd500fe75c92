"""``pungchow app``: the command starts Streamlit with the page's settings and history file."""

from __future__ import annotations

import contextlib
import os
import signal
import socket
import subprocess
import sys
import time
import urllib.request
from pathlib import Path

import pytest

from pungchow.cli import build_parser
from webapp.cli import APP_PATH, streamlit_command, streamlit_env


def test_app_command_line(tmp_path: Path) -> None:
    args = build_parser().parse_args(["app", "--port", "8765", "--db", str(tmp_path / "h.db"), "--", "--server.enableCORS", "false"])
    command = streamlit_command(args)
    assert command[1:5] == ["-m", "streamlit", "run", str(APP_PATH)]
    assert command[command.index("--server.port") + 1] == "8765"
    assert command[command.index("--server.headless") + 1] == "true"
    assert "--server.maxUploadSize" in command and command[-2:] == ["--server.enableCORS", "false"]
    assert streamlit_env(args)["PUNGCHOW_DB"] == str(tmp_path / "h.db")
    assert APP_PATH.is_file()


def _children(pid: int) -> list[int]:
    found: list[int] = []
    for task in Path(f"/proc/{pid}/task").glob("*/children"):
        found += [int(c) for c in task.read_text().split()]
    return found


def _serving(port: int) -> bool:
    try:
        with urllib.request.urlopen(f"http://127.0.0.1:{port}/_stcore/health", timeout=2) as reply:
            return reply.status == 200
    except OSError:
        return False


@pytest.mark.skipif(not Path("/proc/self/task").exists() or not hasattr(os, "killpg"), reason="needs Linux's /proc and process groups")
@pytest.mark.parametrize("stop", [signal.SIGTERM, signal.SIGINT], ids=["SIGTERM", "Ctrl-C"])
def test_stopping_the_app_leaves_nothing_serving(tmp_path: Path, stop: int) -> None:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        port = int(s.getsockname()[1])
    root = Path(__file__).resolve().parents[1]
    env = dict(os.environ, PYTHONPATH=os.pathsep.join([str(root), str(root / "datasets"), os.environ.get("PYTHONPATH", "")]))
    app = subprocess.Popen([sys.executable, "-m", "pungchow", "app", "--port", str(port), "--address", "127.0.0.1",
                            "--db", str(tmp_path / "h.db")], cwd=tmp_path, env=env, stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)
    streamlit: list[int] = []
    try:
        deadline = time.monotonic() + 90
        while not _serving(port):
            assert app.poll() is None and time.monotonic() < deadline, "pungchow app did not start"
            time.sleep(0.3)
        streamlit = _children(app.pid)
        assert streamlit, "Streamlit runs as a child of pungchow app"
        app.send_signal(stop)  # to pungchow app alone, as `kill PID` or a service manager would send it
        assert app.wait(timeout=30) != 0
        assert not _serving(port), "nothing answers on the port"
        for pid in streamlit:
            gone = not Path(f"/proc/{pid}").exists() or "Z" in Path(f"/proc/{pid}/stat").read_text().split()[2]
            assert gone, f"Streamlit ({pid}) still runs"
    finally:
        if app.poll() is None:
            app.kill()
        for pid in streamlit:  # a failing run leaves nothing behind either
            with contextlib.suppress(ProcessLookupError):
                os.kill(pid, signal.SIGKILL)


def test_a_busy_port_is_one_line_with_the_way_out(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    """Something already listens on the port: the command says so and which --port to try, and starts nothing."""
    from pungchow.cli import main

    with socket.socket() as taken:
        taken.bind(("127.0.0.1", 0))
        taken.listen()
        number = taken.getsockname()[1]
        assert main(["app", "--port", str(number), "--address", "127.0.0.1", "--db", str(tmp_path / "h.db")]) == 2
    err = capsys.readouterr().err
    assert f"port {number} on 127.0.0.1 is in use" in err and f"--port {number + 1}" in err
    assert not (tmp_path / "h.db").exists()
