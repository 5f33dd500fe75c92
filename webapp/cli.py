"""``pungchow app``: start the review-and-correct page in Streamlit.

The page's own settings travel on the command line, not only in ``.streamlit/config.toml``,
because a player starts the app from any folder and Streamlit reads that file from the
current one.
"""

from __future__ import annotations

import argparse
import os
import subprocess
import sys
from pathlib import Path

from webapp.history import default_db_path
from webapp.photos import SERVER_UPLOAD_MB

APP_PATH = Path(__file__).with_name("app.py")


def streamlit_command(args: argparse.Namespace) -> list[str]:
    """The ``python -m streamlit run`` line for these options; extra ``--server.x v`` pairs pass through."""
    command = [
        sys.executable, "-m", "streamlit", "run", str(APP_PATH),
        "--server.port", str(args.port),
        "--server.address", args.address,
        "--server.headless", "true" if args.headless else "false",
        "--server.maxUploadSize", str(SERVER_UPLOAD_MB),
        "--browser.gatherUsageStats", "false",
        "--client.showErrorDetails", "none",
        "--client.toolbarMode", "minimal",
    ]
    extra = [a for a in args.streamlit_args if a != "--"]
    return command + extra


def streamlit_env(args: argparse.Namespace) -> dict[str, str]:
    """The page finds its history file through ``PUNGCHOW_DB``."""
    env = dict(os.environ)
    env["PUNGCHOW_DB"] = str(Path(args.db).expanduser().resolve()) if args.db else str(default_db_path())
    return env


def _app(args: argparse.Namespace) -> int:
    command = streamlit_command(args)
    print(f"pungchow: history in {streamlit_env(args)['PUNGCHOW_DB']}; open http://{args.address}:{args.port}", file=sys.stderr)
    return subprocess.call(command, env=streamlit_env(args))


def register(sub: argparse._SubParsersAction) -> None:
    app = sub.add_parser(
        "app",
        help="start the page: photograph a hand, fix tiles, score it, settle the table",
        description="Start the Pung Chow page in Streamlit. Extra Streamlit settings go after `--`, "
        "e.g. `pungchow app --port 8600 -- --server.enableCORS false`.",
    )
    app.add_argument("--port", type=int, default=8501, help="port to serve on (default 8501)")
    app.add_argument("--address", default="localhost", help="address to listen on (default localhost; 0.0.0.0 to reach it from a phone)")
    app.add_argument("--db", metavar="PATH", help=f"history file (default {default_db_path()})")
    app.add_argument("--headless", action=argparse.BooleanOptionalAction, default=True,
                     help="do not open a browser (default: headless; --no-headless opens one)")
    app.add_argument("streamlit_args", nargs=argparse.REMAINDER, help="after --: further `streamlit run` options, passed through")
    app.set_defaults(func=_app)
