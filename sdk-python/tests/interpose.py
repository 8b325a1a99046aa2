"""httpx transports that stand between the SDK and the real service, to provoke what a network
does: a 429 from a gateway, a response lost on the way back, a connection cut mid-stream."""

from __future__ import annotations

from typing import Any, AsyncIterator, Callable, Iterator, List, Optional

import httpx


class Recorded:
    def __init__(self, request: httpx.Request) -> None:
        self.method = request.method
        self.path = request.url.path
        self.query = dict(request.url.params)
        self.headers = request.headers


class Interposer(httpx.BaseTransport):
    """Forwards to the service, unless ``handle(request, forward, seen)`` answers otherwise.
    ``seen`` records every request that reached the interposer."""

    def __init__(self, handle: Optional[Callable[..., httpx.Response]] = None) -> None:
        self.inner = httpx.HTTPTransport()
        self.handle = handle
        self.seen: List[Recorded] = []

    def forward(self, request: httpx.Request) -> httpx.Response:
        return self.inner.handle_request(request)

    def handle_request(self, request: httpx.Request) -> httpx.Response:
        self.seen.append(Recorded(request))
        if self.handle is None:
            return self.forward(request)
        return self.handle(request, self.forward, self.seen)

    def close(self) -> None:
        self.inner.close()


class AsyncInterposer(httpx.AsyncBaseTransport):
    def __init__(self, handle: Optional[Callable[..., Any]] = None) -> None:
        self.inner = httpx.AsyncHTTPTransport()
        self.handle = handle
        self.seen: List[Recorded] = []

    async def forward(self, request: httpx.Request) -> httpx.Response:
        return await self.inner.handle_async_request(request)

    async def handle_async_request(self, request: httpx.Request) -> httpx.Response:
        self.seen.append(Recorded(request))
        if self.handle is None:
            return await self.forward(request)
        return await self.handle(request, self.forward, self.seen)

    async def aclose(self) -> None:
        await self.inner.aclose()


CUT_MARK = b"\nid: 6\n"
"""Where the first events connection is cut: after events 1 to 5 whole and half of event 6's frame."""


class CutStream(httpx.SyncByteStream):
    """The service's event stream up to the middle of event 6's frame, then a reset connection."""

    def __init__(self, inner: httpx.SyncByteStream) -> None:
        self.inner = inner

    def __iter__(self) -> Iterator[bytes]:
        seen = b""
        passed = 0
        for chunk in self.inner:
            seen += chunk
            at = seen.find(CUT_MARK)
            if at < 0:
                passed = len(seen)
                yield chunk
                continue
            yield seen[passed : at + len(CUT_MARK) + 2]
            raise httpx.ReadError("the connection was reset")
        raise AssertionError("the stream ended before event 6")

    def close(self) -> None:
        self.inner.close()


class AsyncCutStream(httpx.AsyncByteStream):
    def __init__(self, inner: httpx.AsyncByteStream) -> None:
        self.inner = inner

    async def __aiter__(self) -> AsyncIterator[bytes]:
        seen = b""
        passed = 0
        async for chunk in self.inner:
            seen += chunk
            at = seen.find(CUT_MARK)
            if at < 0:
                passed = len(seen)
                yield chunk
                continue
            yield seen[passed : at + len(CUT_MARK) + 2]
            raise httpx.ReadError("the connection was reset")
        raise AssertionError("the stream ended before event 6")

    async def aclose(self) -> None:
        await self.inner.aclose()
