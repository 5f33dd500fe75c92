"""What ``pungchow app`` serves: the page (``app.py``) behind a guard on every request.

Streamlit refuses a websocket from another origin, but a page at ``http://evil.example:8501`` whose
name a rebinding DNS points at 127.0.0.1 sends Host and Origin both ``evil.example``: same origin,
so the history would be open to it. The guard answers only to the page's own names (``localhost``,
an IP address, this machine's name, the ``--address`` given) and tells browsers never to show the
page inside another site's frame (a click-jacking frame could press *Save* for the player).

``streamlit run webapp/server.py`` finds ``app`` below and serves it (Streamlit's ``st.App``).
"""

from __future__ import annotations

import ipaddress
import os
import socket
from collections.abc import Awaitable, Callable, MutableMapping
from pathlib import Path
from typing import Any

Scope = MutableMapping[str, Any]
Message = MutableMapping[str, Any]
Receive = Callable[[], Awaitable[Message]]
Send = Callable[[Message], Awaitable[None]]
ASGIApp = Callable[[Scope, Receive, Send], Awaitable[None]]

#: Extra host names the page answers to, comma-separated (a name on the local network, say).
HOSTS_ENV = "PUNGCHOW_HOSTS"
#: Sent with every answer: no other site may frame the page.
FRAME_HEADERS = ((b"x-frame-options", b"DENY"), (b"content-security-policy", b"frame-ancestors 'none'"))
REFUSED = b"This page answers only to its own address (localhost or an IP address): open it by that address.\n"


def host_name(header: str) -> str:
    """The name in a Host header, without its port or an IPv6 address's brackets, lower case.

    >>> host_name("LocalHost:8501"), host_name("[::1]:8501"), host_name("127.0.0.1")
    ('localhost', '::1', '127.0.0.1')
    """
    header = header.strip().lower()
    if header.startswith("["):
        return header[1:].split("]", 1)[0]
    return header.rsplit(":", 1)[0] if header.count(":") == 1 else header


def own_names() -> frozenset[str]:
    """The names the page answers to besides any IP address: localhost, this machine's names, the address it
    listens on, and ``PUNGCHOW_HOSTS``."""
    names = {"localhost", socket.gethostname().lower(), socket.getfqdn().lower()}
    try:
        from streamlit import config

        names.add(str(config.get_option("server.address") or "localhost").lower())
    except Exception:  # no Streamlit config (a test): the fixed names stand
        pass
    names |= {n.strip().lower() for n in os.environ.get(HOSTS_ENV, "").split(",") if n.strip()}
    return frozenset(names)


def allowed(host: str, names: frozenset[str]) -> bool:
    """Whether a request's Host is the page's own: an IP address (no DNS rebinding reaches one) or one of ``names``."""
    name = host_name(host)
    try:
        ipaddress.ip_address(name)
        return True
    except ValueError:
        return name in names


class GuardHost:
    """ASGI middleware: a foreign Host gets 403 (a websocket is closed before it opens); every answer forbids framing."""

    def __init__(self, app: ASGIApp, names: frozenset[str] | None = None) -> None:
        self.app = app
        self.names = names

    async def __call__(self, scope: Scope, receive: Receive, send: Send) -> None:
        if scope["type"] not in ("http", "websocket"):
            await self.app(scope, receive, send)
            return
        headers = dict(scope.get("headers") or [])
        host = headers.get(b"host", b"").decode("latin-1")
        if self.names is None:
            self.names = own_names()
        if not allowed(host, self.names):
            if scope["type"] == "websocket":
                await send({"type": "websocket.close", "code": 1008})
            else:
                await send({"type": "http.response.start", "status": 403,
                            "headers": [(b"content-type", b"text/plain; charset=utf-8"), *FRAME_HEADERS]})
                await send({"type": "http.response.body", "body": REFUSED})
            return

        async def framed(message: Message) -> None:
            if message["type"] == "http.response.start":
                message["headers"] = [*message.get("headers", []), *FRAME_HEADERS]
            await send(message)

        await self.app(scope, receive, framed if scope["type"] == "http" else send)


if __name__ != "webapp.server":  # run by `streamlit run webapp/server.py` (as module "server"), not imported by the package
    import streamlit as st
    from starlette.middleware import Middleware

    app = st.App(str(Path(__file__).with_name("app.py")), middleware=[Middleware(GuardHost)])
