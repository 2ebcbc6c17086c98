"""An httpx transport that counts requests in flight (to show that concurrency is bounded)."""

from __future__ import annotations

import httpx


class CountingTransport(httpx.AsyncHTTPTransport):
    def __init__(self, limits: httpx.Limits | None = None) -> None:
        if limits is None:
            super().__init__()
        else:
            super().__init__(limits=limits)
        self.in_flight = 0
        self.max_in_flight = 0

    def reset(self) -> None:
        self.max_in_flight = self.in_flight

    async def handle_async_request(self, request: httpx.Request) -> httpx.Response:
        self.in_flight += 1
        self.max_in_flight = max(self.max_in_flight, self.in_flight)
        try:
            resp = await super().handle_async_request(request)
            await resp.aread()
            return resp
        finally:
            self.in_flight -= 1
