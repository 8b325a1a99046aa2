"""research.run / create / get / cancel / quote / list / stream against the running service."""

from __future__ import annotations

import time

import httpx
import pytest
from conftest import TARIFFS
from interpose import CutStream, Interposer

from deep_research import DeepResearch, InvalidRequestError, SyncPage


def test_run_answers_a_lite_job_synchronously_charged_its_price(client: DeepResearch) -> None:
    before = client.credits.get()["credits"]
    result = client.research.run(TARIFFS, mode="lite")
    assert result["status"] == "succeeded"
    assert result["question"] == TARIFFS
    assert result["credits_charged"] == 15
    assert result["error"] is None
    assert result["sources"] and "[1]" in (result["brief"] or "")
    assert client.credits.get()["credits"] == before - 15


def test_run_follows_an_asynchronous_job_over_its_events_to_the_result(client: DeepResearch) -> None:
    events = []
    result = client.research.run("What did presidents say about the gold standard?", mode="lite", on_event=events.append)
    assert result["status"] == "succeeded" and result["credits_charged"] == 15
    assert events[0]["event"] == "status" and events[0]["data"] == {"status": "pending"}
    assert [e["id"] for e in events] == list(range(1, len(events) + 1))
    assert any(e["event"] == "source" for e in events)
    assert [e["data"]["stage"] for e in events if e["event"] == "progress"][-1] == "done"
    assert events[-1] == {"id": len(events), "event": "result", "data": result}
    assert client.research.get(result["id"]) == result


def test_run_polls_the_job_when_its_event_stream_cannot_be_followed(base_url: str, api_key: str) -> None:
    def no_streams(request: httpx.Request, forward, seen) -> httpx.Response:
        if request.url.path.endswith("/events"):
            return httpx.Response(503, json={"error": {"code": "service_unavailable", "message": "a proxy that cuts event streams"}})
        return forward(request)

    transport = Interposer(no_streams)
    with DeepResearch(api_key=api_key, base_url=base_url, max_retries=0, http_client=httpx.Client(transport=transport)) as flaky:
        result = flaky.research.run("What did presidents say about railroads?", mode="lite", async_=True, max_reconnects=1, poll_interval=0.1)
    assert result["status"] == "succeeded"
    paths = [(r.method, r.path) for r in transport.seen]
    assert paths[0] == ("POST", "/v1/research")
    assert paths.count(("GET", f"/v1/research/{result['id']}/events")) == 2  # the first connection and one reconnection
    assert paths[-1] == ("GET", f"/v1/research/{result['id']}")


def test_create_get_and_cancel_a_running_job(held_client: DeepResearch) -> None:
    before = held_client.credits.get()["credits"]
    accepted = held_client.research.create("What did presidents say about canals?", mode="lite", async_=True)
    assert accepted["status"] == "pending" and accepted["status_url"].endswith(f"/v1/research/{accepted['id']}")
    assert accepted["events_url"].endswith(f"/v1/research/{accepted['id']}/events")
    job = held_client.research.get(accepted["id"])
    assert job["id"] == accepted["id"] and job["status"] in ("pending", "running")
    assert held_client.credits.get()["credits"] == before - 15  # the price is reserved while it runs
    cancelled = held_client.research.cancel(accepted["id"])
    assert cancelled["cancel_outcome"] == "cancelled" and cancelled["status"] == "cancelled"
    assert cancelled["credits_charged"] <= 15 and cancelled["cancel_message"]
    assert held_client.research.get(accepted["id"])["status"] == "cancelled"
    assert held_client.credits.get()["credits"] == before - cancelled["credits_charged"]  # the rest refunded
    again = held_client.research.cancel(accepted["id"])
    assert again["cancel_outcome"] == "already_finished" and again["status"] == "cancelled"


def test_cancel_of_a_finished_job_leaves_it_unchanged(client: DeepResearch) -> None:
    result = client.research.create(TARIFFS, mode="lite")
    assert result["status"] == "succeeded"  # a lite job answers 200 with its result
    cancelled = client.research.cancel(result["id"])
    assert cancelled["cancel_outcome"] == "already_finished"
    assert cancelled["status"] == "succeeded" and cancelled["credits_charged"] == 15


def test_quote_prices_a_request_without_reserving_anything(client: DeepResearch) -> None:
    before = client.credits.get()["credits"]
    quote = client.research.quote(TARIFFS, mode="pro")
    assert quote["mode"] == "pro" and quote["metered"] is False
    assert quote["credits_reserved"] == 200 and quote["max_charge_credits"] == 200
    assert quote["runs"] == "async" and quote["balance_credits"] == before
    assert quote["covered"] is True and quote["covered_by"] == "balance" and quote["insufficient_credits"] is None
    assert set(quote["envelope"]) == {"max_waves", "max_searches", "max_pages", "max_wallclock_secs"}
    lite = client.research.quote(TARIFFS, mode="lite")
    assert lite["runs"] == "sync" and lite["credits_reserved"] == 15
    with pytest.raises(InvalidRequestError):
        client.research.quote(TARIFFS, mode="max")  # max needs max_credits
    assert client.credits.get()["credits"] == before


def test_list_pages_through_every_job_with_the_link_header(base_url: str) -> None:
    import os

    transport = Interposer()
    key = os.environ["DEEP_RESEARCH_SECOND_API_KEY"]
    with DeepResearch(api_key=key, base_url=base_url, http_client=httpx.Client(transport=transport)) as second:
        created = [second.research.run(f"What did presidents say about tariffs ({n})?", mode="lite")["id"] for n in range(5)]
        transport.seen.clear()
        page = second.research.list(limit=2)
        assert isinstance(page, SyncPage) and len(page.data) == 2 and page.has_next_page()
        assert 'rel="next"' in page.response.headers["link"]
        listed = [job["id"] for job in page]
        assert listed[:5] == list(reversed(created))  # newest first, every page
        queries = [r.query for r in transport.seen if r.path == "/v1/research"]
        assert queries[:3] == [{"limit": "2"}, {"limit": "2", "offset": "2"}, {"limit": "2", "offset": "4"}]
        assert len(listed) == len(set(listed))
        pages = list(second.research.list(limit=2).iter_pages())
        assert [len(p.data) for p in pages][:3] == [2, 2, 1 if len(listed) == 5 else 2]
        assert not pages[-1].has_next_page() and pages[-1].next_page() is None
        succeeded = second.research.list(status="succeeded", limit=3)
        assert all(job["status"] == "succeeded" for job in succeeded)


def test_stream_resumes_a_dropped_connection_with_last_event_id(client: DeepResearch, base_url: str, api_key: str) -> None:
    event_requests = []

    def cut_first_stream(request: httpx.Request, forward, seen) -> httpx.Response:
        response = forward(request)
        if not request.url.path.endswith("/events"):
            return response
        event_requests.append(request.headers.get("last-event-id"))
        if len(event_requests) > 1:
            return response
        return httpx.Response(response.status_code, headers=response.headers, stream=CutStream(response.stream))

    with DeepResearch(api_key=api_key, base_url=base_url, http_client=httpx.Client(transport=Interposer(cut_first_stream))) as flaky:
        accepted = flaky.research.create("What did presidents say about railroads and canals?", mode="lite", async_=True)
        resumed = list(flaky.research.stream(accepted["id"]))
    assert event_requests == [None, "5"]
    replayed = list(client.research.stream(accepted["id"]))  # the whole log, from the start, on one connection
    assert resumed == replayed
    assert [e["id"] for e in resumed] == list(range(1, len(resumed) + 1))
    assert resumed[-1]["event"] == "result" and len(resumed) > 6
    # Resuming by hand after event 3 gives exactly what followed it.
    assert list(client.research.stream(accepted["id"], last_event_id=3)) == replayed[3:]


def test_a_submit_whose_response_is_lost_is_retried_once_and_runs_once(client: DeepResearch, base_url: str, api_key: str) -> None:
    def lose_first_submit(request: httpx.Request, forward, seen) -> httpx.Response:
        response = forward(request)
        if request.method == "POST" and request.url.path == "/v1/research" and sum(r.method == "POST" for r in seen) == 1:
            response.read()  # the service did the work and answered ...
            response.close()
            raise httpx.ReadError("connection reset before the response arrived")  # ... but the answer never arrived
        return response

    transport = Interposer(lose_first_submit)
    question = "What did presidents say about tariffs and trade?"
    before = client.credits.get()["credits"]
    jobs_before = {job["id"] for job in client.research.list(limit=100)}
    with DeepResearch(api_key=api_key, base_url=base_url, base_delay=0.05, http_client=httpx.Client(transport=transport)) as flaky:
        result = flaky.research.run(question, mode="lite")
    submits = [r for r in transport.seen if r.method == "POST" and r.path == "/v1/research"]
    assert len(submits) == 2
    key = submits[0].headers["idempotency-key"]
    assert key and submits[1].headers["idempotency-key"] == key
    assert result["status"] == "succeeded" and result["question"] == question
    assert client.credits.get()["credits"] == before - 15  # one charge
    new_jobs = [job["id"] for job in client.research.list(limit=100) if job["id"] not in jobs_before]
    assert new_jobs == [result["id"]]  # one job


def test_a_429_is_retried_after_retry_after(base_url: str, api_key: str) -> None:
    def gateway(request: httpx.Request, forward, seen) -> httpx.Response:
        if len(seen) == 1:
            return httpx.Response(429, headers={"Retry-After": "1"}, json={"error": {"code": "rate_limited", "message": "slow down"}})
        return forward(request)

    transport = Interposer(gateway)
    with DeepResearch(api_key=api_key, base_url=base_url, http_client=httpx.Client(transport=transport)) as limited:
        started = time.monotonic()
        result = limited.research.run(TARIFFS, mode="lite")  # a POST: a 429 is retried (nothing was done)
        waited = time.monotonic() - started
    assert result["status"] == "succeeded"
    assert [(r.method, r.path) for r in transport.seen] == [("POST", "/v1/research"), ("POST", "/v1/research")]
    assert transport.seen[0].headers["idempotency-key"] == transport.seen[1].headers["idempotency-key"]
    assert waited >= 1.0


def test_a_429_asking_longer_than_max_delay_is_raised_at_once(base_url: str, api_key: str) -> None:
    from deep_research import RateLimitError

    def gateway(request: httpx.Request, forward, seen) -> httpx.Response:
        return httpx.Response(429, headers={"Retry-After": "120", "X-Request-Id": "req-429"}, json={"error": {"code": "rate_limited", "message": "later"}})

    transport = Interposer(gateway)
    with DeepResearch(api_key=api_key, base_url=base_url, max_delay=5, http_client=httpx.Client(transport=transport)) as limited:
        with pytest.raises(RateLimitError) as caught:
            limited.credits.get()
    assert len(transport.seen) == 1
    assert caught.value.retry_after == 120 and caught.value.status == 429 and caught.value.request_id == "req-429"


def test_5xx_retried_for_a_get_never_for_a_post_without_key(base_url: str, api_key: str) -> None:
    from deep_research import ServerError

    def failing(request: httpx.Request, forward, seen) -> httpx.Response:
        if len(seen) <= 2:
            return httpx.Response(502, text="<html>bad gateway</html>")
        return forward(request)

    transport = Interposer(failing)
    with DeepResearch(api_key=api_key, base_url=base_url, base_delay=0.01, http_client=httpx.Client(transport=transport)) as flaky:
        assert flaky.credits.get()["credits"] >= 0
        assert len(transport.seen) == 3
        transport.seen.clear()
        with pytest.raises(ServerError) as caught:
            flaky.collections.create("never twice")  # a POST without an Idempotency-Key is not repeated
    assert len(transport.seen) == 1 and caught.value.status == 502 and "bad gateway" in caught.value.message


def test_ctrl_c_while_run_waits_cancels_the_job_unless_told_not_to(held_client: DeepResearch) -> None:
    def interrupt(event) -> None:
        raise KeyboardInterrupt

    with pytest.raises(KeyboardInterrupt):
        held_client.research.run("What did presidents say about harbors?", mode="lite", on_event=interrupt)
    newest = held_client.research.list(limit=1).data[0]
    assert newest["question"] == "What did presidents say about harbors?" and newest["status"] == "cancelled"

    with pytest.raises(KeyboardInterrupt):
        held_client.research.run("What did presidents say about lighthouses?", mode="lite", on_event=interrupt, cancel_on_interrupt=False)
    kept = held_client.research.list(limit=1).data[0]
    assert kept["question"] == "What did presidents say about lighthouses?" and kept["status"] in ("pending", "running")
    assert held_client.research.cancel(kept["id"])["cancel_outcome"] == "cancelled"
