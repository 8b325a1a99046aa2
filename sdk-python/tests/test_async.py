"""AsyncDeepResearch: the same calls, awaited (asyncio.run: no pytest plugin needed)."""

from __future__ import annotations

import asyncio
import json

import httpx
import pytest
from conftest import TARIFFS
from interpose import AsyncCutStream, AsyncInterposer

from deep_research import AsyncDeepResearch, AsyncPage, NotFoundError, RateLimitError, tools


def test_async_run_list_credits_and_errors(base_url: str, api_key: str) -> None:
    async def main() -> None:
        async with AsyncDeepResearch(api_key=api_key, base_url=base_url) as client:
            before = (await client.credits.get())["credits"]
            result = await client.research.run(TARIFFS, mode="lite")
            assert result["status"] == "succeeded" and (await client.credits.get())["credits"] == before - 15
            seen = []

            async def on_event(event) -> None:
                seen.append(event["id"])

            followed = await client.research.run("What did presidents say about the gold standard?", mode="lite", on_event=on_event)
            assert followed["status"] == "succeeded" and seen == list(range(1, len(seen) + 1))
            page = await client.research.list(limit=1)
            assert isinstance(page, AsyncPage) and len(page.data) == 1 and page.has_next_page()
            ids = [job["id"] async for job in client.research.list(limit=1)]
            assert ids[:2] == [followed["id"], result["id"]] and len(ids) == len(set(ids)) >= 2
            raw = await client.research.with_raw_response.get(result["id"])
            assert raw.status_code == 200 and raw.request_id and raw.parse() == await client.research.get(result["id"])
            with pytest.raises(NotFoundError):
                await client.research.get("00000000-0000-4000-8000-000000000000")
            output = await tools.async_run_tool_call(client, json.dumps({"question": TARIFFS, "mode": "lite"}))
            assert output["status"] == "succeeded"

    asyncio.run(main())


def test_async_stream_resumes_with_last_event_id_and_429_is_retried(base_url: str, api_key: str) -> None:
    event_requests = []

    async def network(request: httpx.Request, forward, seen) -> httpx.Response:
        if len(seen) == 1:
            return httpx.Response(429, headers={"Retry-After": "0"}, json={"error": {"code": "rate_limited", "message": "slow down"}})
        response = await forward(request)
        if not request.url.path.endswith("/events"):
            return response
        event_requests.append(request.headers.get("last-event-id"))
        if len(event_requests) > 1:
            return response
        return httpx.Response(response.status_code, headers=response.headers, stream=AsyncCutStream(response.stream))

    async def main() -> None:
        transport = AsyncInterposer(network)
        async with AsyncDeepResearch(api_key=api_key, base_url=base_url, http_client=httpx.AsyncClient(transport=transport)) as client:
            accepted = await client.research.create("What did presidents say about railroads?", mode="lite", async_=True)
            assert [r.path for r in transport.seen] == ["/v1/research", "/v1/research"]  # the 429, then the submit
            resumed = [event async for event in client.research.stream(accepted["id"])]
        assert event_requests == [None, "5"]
        async with AsyncDeepResearch(api_key=api_key, base_url=base_url) as plain:
            replayed = [event async for event in plain.research.stream(accepted["id"])]
            with pytest.raises(RateLimitError):
                limited = AsyncDeepResearch(
                    api_key=api_key,
                    base_url=base_url,
                    max_retries=0,
                    http_client=httpx.AsyncClient(transport=AsyncInterposer(lambda r, f, s: _too_many())),
                )
                await limited.credits.get()
        assert resumed == replayed and [e["id"] for e in resumed] == list(range(1, len(resumed) + 1))
        assert resumed[-1]["event"] == "result"

    asyncio.run(main())


async def _too_many() -> httpx.Response:
    return httpx.Response(429, json={"error": {"code": "rate_limited", "message": "slow down"}})


def test_cancelling_the_task_of_run_cancels_the_job() -> None:
    import os

    async def main() -> None:
        async with AsyncDeepResearch(api_key=os.environ["DEEP_RESEARCH_HELD_API_KEY"], base_url=os.environ["DEEP_RESEARCH_HELD_BASE_URL"]) as client:
            running = asyncio.Event()
            task = asyncio.create_task(client.research.run("What did presidents say about ports?", mode="lite", on_event=lambda event: running.set()))
            await running.wait()  # the job is accepted and its events are being followed
            task.cancel()
            with pytest.raises(asyncio.CancelledError):
                await task
            newest = (await client.research.list(limit=1)).data[0]
            assert newest["question"] == "What did presidents say about ports?" and newest["status"] == "cancelled"

    asyncio.run(main())
