"""``pungchow app``: the command starts Streamlit with the page's settings and history file."""

from __future__ import annotations

from pathlib import Path

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
