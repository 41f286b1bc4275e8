"""A live server for a :class:`FakeService`: uvicorn in a background thread on a loopback
port (0 picks a free one), with a readiness timeout.

:class:`FakeServer` is the uvicorn server both this and ``fakeservice serve`` run: when it
shuts down it first ends the dashboards' event streams, which would otherwise hold the
shutdown up until the graceful timeout.
"""

from __future__ import annotations

import socket
import threading
import time
from types import TracebackType
from typing import TYPE_CHECKING

import uvicorn

if TYPE_CHECKING:
    from fakeservice.host import Host as FakeService

GRACEFUL_SECONDS = 5


def listening_socket(host: str, port: int) -> socket.socket:
    """A bound TCP socket for uvicorn (IPv6 when ``host`` has a colon)."""
    sock = socket.socket(socket.AF_INET6 if ":" in host else socket.AF_INET, socket.SOCK_STREAM)
    sock.setsockopt(socket.SOL_SOCKET, socket.SO_REUSEADDR, 1)
    # accepted connections inherit this: without it, headers and body go out as two
    # small segments and Nagle + delayed ACK add ~40 ms to every response
    sock.setsockopt(socket.IPPROTO_TCP, socket.TCP_NODELAY, 1)
    try:
        sock.bind((host, port))
    except OSError:
        sock.close()
        raise
    return sock


def uvicorn_config(service: FakeService, *, log_level: str) -> uvicorn.Config:
    """How the fake is served: Starlette's lifespan, no access log, and no wall-clock
    ``Date`` or ``Server`` header from uvicorn (the app sends ``Date`` from the service's
    clock)."""
    return uvicorn.Config(
        service.app,
        log_level=log_level,
        access_log=False,
        lifespan="on",
        timeout_keep_alive=30,
        timeout_graceful_shutdown=GRACEFUL_SECONDS,
        date_header=False,
        server_header=False,
    )


class FakeServer(uvicorn.Server):
    """uvicorn's server for one service: ends its event streams before shutting down."""

    def __init__(self, service: FakeService, config: uvicorn.Config) -> None:
        super().__init__(config)
        self.service = service

    async def shutdown(self, sockets: list[socket.socket] | None = None) -> None:
        self.service.events.close()
        await super().shutdown(sockets)


class ServerStartError(RuntimeError):
    """The server did not become ready within its timeout."""


class LiveServer:
    def __init__(
        self, service: FakeService, *, host: str = "127.0.0.1", port: int = 0, timeout: float = 10.0
    ) -> None:
        self.service = service
        self.host = host
        self.timeout = timeout
        self.socket = listening_socket(host, port)
        self.port = self.socket.getsockname()[1]
        config = uvicorn_config(service, log_level="warning")
        self.server = FakeServer(service, config)
        self.thread = threading.Thread(
            target=self._run, name=f"fakeservice:{self.port}", daemon=True
        )

    @property
    def url(self) -> str:
        return f"http://{self.host}:{self.port}"

    def _run(self) -> None:
        self.server.run(sockets=[self.socket])

    def start(self) -> LiveServer:
        self.thread.start()
        deadline = time.monotonic() + self.timeout
        while not self.server.started:
            if not self.thread.is_alive() or time.monotonic() > deadline:
                self.stop()
                raise ServerStartError(
                    f"fakeservice did not start on {self.url} within {self.timeout}s"
                )
            time.sleep(0.01)
        return self

    def stop(self) -> None:
        self.server.should_exit = True
        if self.thread.is_alive():
            self.thread.join(timeout=self.timeout)
        self.socket.close()

    def __enter__(self) -> LiveServer:
        return self.start()

    def __exit__(
        self,
        kind: type[BaseException] | None,
        value: BaseException | None,
        tb: TracebackType | None,
    ) -> None:
        self.stop()
