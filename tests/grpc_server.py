"""Run the real server in-process on a background event loop, on a free loopback port."""

from __future__ import annotations

import asyncio
import threading
import time

from service.config import ServerConfig
from service.server import Server


class RunningServer:
    def __init__(self, config: ServerConfig):
        self.loop = asyncio.new_event_loop()
        self.thread = threading.Thread(target=self.loop.run_forever, daemon=True)
        self.thread.start()
        self.server: Server = self.call(self._start(config))
        self.target = f"127.0.0.1:{self.server.port}"

    async def _start(self, config):
        server = Server(config)
        await server.start()
        return server

    def call(self, coroutine, timeout: float = 60):
        return asyncio.run_coroutine_threadsafe(coroutine, self.loop).result(timeout)

    @property
    def engine(self):
        return next(iter(self.server.engines.values()))

    def start_draining(self) -> None:
        """What SIGTERM starts (new calls refused UNAVAILABLE, batch streams stop reading), without stopping gRPC."""
        async def drain():
            self.server.servicer.draining.set()
            await asyncio.sleep(0.1)  # the streams waiting on it go on
        self.call(drain())

    def stop(self):
        self.call(self.server.drain_and_stop())
        self.loop.call_soon_threadsafe(self.loop.stop)
        self.thread.join(10)

    def requests_counted(self, method: str, code: str, model: str = "tiny") -> float:
        """translator_requests_total{method, model, code}: what the server counted."""
        value = self.server.metrics.registry.get_sample_value(
            "translator_requests_total", {"method": method, "model": model, "code": code})
        return value or 0.0


def wait_until(predicate, timeout: float = 10.0) -> bool:
    """Poll until predicate() holds (a call is counted just after its status is sent); its last value."""
    deadline = time.monotonic() + timeout
    while not predicate() and time.monotonic() < deadline:
        time.sleep(0.05)
    return bool(predicate())
