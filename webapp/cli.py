"""``pungchow app``: start the review-and-correct page in Streamlit.

The page's own settings travel on the command line, not only in ``.streamlit/config.toml``,
because a player starts the app from any folder and Streamlit reads that file from the
current one.
"""

from __future__ import annotations

import argparse
import contextlib
import errno
import os
import signal
import socket
import subprocess
import sys
from pathlib import Path
from types import FrameType

from scoring.argtypes import address, port
from scoring.errors import PungChowError
from webapp.history import default_db_path
from webapp.photos import SERVER_UPLOAD_MB

#: What Streamlit runs: the page (``app.py``) behind the guard on Host and framing (``server.py``).
APP_PATH = Path(__file__).with_name("server.py")


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


#: Signals that stop the page: each is passed on to Streamlit and its children.
STOP_SIGNALS = tuple(getattr(signal, name) for name in ("SIGTERM", "SIGINT", "SIGHUP") if hasattr(signal, name))
#: Seconds Streamlit gets to close its sessions before it is killed.
GRACE_S = 10.0


class _Stopped(Exception):
    def __init__(self, signum: int) -> None:
        super().__init__(signum)
        self.signum = signum


def _raise_stopped(signum: int, frame: FrameType | None) -> None:
    raise _Stopped(signum)


def _signal_group(proc: subprocess.Popen[bytes], sig: int) -> bool:
    """Send ``sig`` to Streamlit's process group; False once nothing of it is left."""
    try:
        if hasattr(os, "killpg"):
            os.killpg(proc.pid, sig)
        else:
            proc.send_signal(sig)
    except ProcessLookupError:
        return False
    return True


def stop_server(proc: subprocess.Popen[bytes], grace_s: float = GRACE_S) -> None:
    """Stop Streamlit and everything it started: asked first, and after ``grace_s`` whatever is left is killed."""
    if not _signal_group(proc, signal.SIGTERM):
        return
    with contextlib.suppress(subprocess.TimeoutExpired):
        proc.wait(timeout=grace_s)
    _signal_group(proc, getattr(signal, "SIGKILL", signal.SIGTERM))
    proc.wait()


def check_port_free(address: str, number: int) -> None:
    """Refuse, in one line with the way out, a port something else already serves on (Streamlit would say less)."""
    host = "" if address in ("0.0.0.0", "::") else address
    try:
        for family, kind, proto, _, where in socket.getaddrinfo(host or None, number, type=socket.SOCK_STREAM, flags=socket.AI_PASSIVE):
            with socket.socket(family, kind, proto) as probe:
                probe.bind(where)
    except OSError as exc:
        if exc.errno == errno.EADDRINUSE:
            raise PungChowError(f"port {number} on {address} is in use (another pungchow app, or another program): "
                                f"start with --port {number + 1 if number < 65535 else 8502}, or stop the other one") from None
        raise


def _app(args: argparse.Namespace) -> int:
    """Serve the page until it stops, or until this process is told to stop: then no part of it keeps serving.

    Streamlit runs in its own process group, so a SIGTERM, SIGHUP or Ctrl-C sent to ``pungchow app``
    reaches Streamlit and whatever it started, and nothing is left holding the port.
    """
    check_port_free(args.address, args.port)
    command = streamlit_command(args)
    print(f"pungchow: history in {streamlit_env(args)['PUNGCHOW_DB']}; open http://{args.address}:{args.port}", file=sys.stderr)
    previous = {sig: signal.getsignal(sig) for sig in STOP_SIGNALS}
    proc = subprocess.Popen(command, env=streamlit_env(args), start_new_session=True)
    try:
        for sig in STOP_SIGNALS:
            signal.signal(sig, _raise_stopped)
        return proc.wait()
    except (_Stopped, KeyboardInterrupt) as exc:
        stop_server(proc)
        return 128 + (exc.signum if isinstance(exc, _Stopped) else signal.SIGINT)
    finally:
        for sig, handler in previous.items():
            signal.signal(sig, handler)
        if proc.poll() is None:
            stop_server(proc)


def register(sub: argparse._SubParsersAction[argparse.ArgumentParser]) -> None:
    app = sub.add_parser(
        "app",
        help="start the page: photograph a hand, fix tiles, score it, settle the table",
        description="Start the Pung Chow page in Streamlit. Extra Streamlit settings go after `--`, "
        "e.g. `pungchow app --port 8600 -- --server.enableCORS false`.",
    )
    app.add_argument("--port", type=port, default=8501, help="port to serve on (default 8501)")
    app.add_argument("--address", type=address, default="localhost",
                     help="address to listen on (default localhost; 0.0.0.0 to reach it from a phone)")
    app.add_argument("--db", metavar="PATH", help=f"history file (default {default_db_path()})")
    app.add_argument("--headless", action=argparse.BooleanOptionalAction, default=True,
                     help="do not open a browser (default: headless; --no-headless opens one)")
    app.add_argument("streamlit_args", nargs=argparse.REMAINDER, help="after --: further `streamlit run` options, passed through")
    app.set_defaults(func=_app)
