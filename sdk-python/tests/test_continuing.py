"""Research that continues (issue 45) through the SDK against the running service: follow-ups
(``previous_job_id``), reviewed plans (``research.plan`` then ``plan_id``) and monitors
(``client.monitors``), sync and async. The errors are the ones docs/decisions.md documents:
"Follow-ups", "Reviewable plans" and "Monitors" (issue 45)."""

from __future__ import annotations

import asyncio
import re
import time
import uuid
from datetime import datetime, timedelta

import pytest
from conftest import TARIFFS

from deep_research import AsyncDeepResearch, DeepResearch, InvalidRequestError, NotFoundError
from deep_research.types import ResearchResult

FOLLOW_UP = "What did they say about protective tariffs and free trade?"
CANAL = "What did presidents say about the Panama Canal?"
# A plan's edit of another subject: the pages the job reads show which searches ran (the
# question's own searches never reach Eisenhower's addresses). The question asks of one speaker:
# one of several ("What did presidents say …") reads each speaker's best page first, so the
# edited search's reads would not all be Eisenhower's.
TAFT_CANAL = "What did William Taft say about the Panama Canal?"
EDITED = "Eisenhower interstate highway system"


@pytest.fixture
def client(continuing_client: DeepResearch) -> DeepResearch:
    """This file's jobs and monitor runs spend an account of their own (conftest's
    ``continuing_client``), so the other files' balances stay as they assert."""
    return continuing_client


def _cited(result: ResearchResult) -> None:
    """Every marker of the brief names one of its sources, and every source is cited."""
    markers = {int(n) for n in re.findall(r"\[(\d+)\]", result["brief"] or "")}
    assert markers == set(range(1, len(result["sources"]) + 1)), (markers, len(result["sources"]))


def _at(stamp: str) -> datetime:
    return datetime.fromisoformat(stamp.replace("Z", "+00:00"))


def _refused(error: InvalidRequestError, status: str) -> None:
    """A follow-up of a job that has not succeeded: 400 with the job's status in details."""
    assert error.status == 400 and error.code == "invalid_request"
    assert error.details == {"field": "previous_job_id", "reason": "previous_job_not_succeeded", "status": status}
    assert error.response is not None and set(error.response.json()["error"]) == {"code", "message", "details"}


# Follow-ups


def test_a_follow_up_of_a_finished_job_starts_from_its_sources_and_costs_less(client: DeepResearch) -> None:
    first = client.research.run(TARIFFS, mode="lite")
    assert first["status"] == "succeeded" and first["previous_job_id"] is None and first["thread"] == []
    first_urls = {source["url"] for source in first["sources"]}

    quote = client.research.quote(FOLLOW_UP, mode="lite", previous_job_id=first["id"])
    assert quote["follow_up"] is not None
    assert quote["follow_up"]["previous_job_id"] == first["id"] and quote["follow_up"]["thread"] == [first["id"]]
    assert quote["follow_up"]["fresh_credits"] == 15 and quote["follow_up"]["base_credits"] == 4
    assert quote["credits_reserved"] == 11  # a quarter of the price plus at most half of it, below 15 fresh

    before = client.credits.get()["credits"]
    follow_up = client.research.run(FOLLOW_UP, mode="lite", previous_job_id=first["id"])
    assert follow_up["status"] == "succeeded" and follow_up["question"] == FOLLOW_UP
    assert follow_up["previous_job_id"] == first["id"] and follow_up["thread"] == [first["id"]]
    assert follow_up["charge_basis"]["rule"] == "follow_up"
    assert 4 <= follow_up["credits_charged"] <= 11
    assert client.credits.get()["credits"] == before - follow_up["credits_charged"]
    # One numbering for old and new sources: a source the first job read says so (it may be one the
    # first job read without citing it); one the follow-up read itself does not, and is none of them.
    _cited(follow_up)
    old = [source for source in follow_up["sources"] if "from_job_id" in source]
    assert old and all(source["from_job_id"] == first["id"] for source in old)
    assert all(source["url"] not in first_urls for source in follow_up["sources"] if "from_job_id" not in source)

    assert client.research.get(follow_up["id"]) == follow_up
    listed = next(job for job in client.research.list(limit=10) if job["id"] == follow_up["id"])
    assert listed["previous_job_id"] == first["id"] and listed["plan_id"] is None and listed["monitor_id"] is None


def test_a_follow_up_of_an_unfinished_or_cancelled_job_is_400_and_charges_nothing(held_client: DeepResearch) -> None:
    running = held_client.research.create("What did presidents say about canals and rivers?", mode="lite", async_=True)
    try:
        assert running["status"] == "pending"  # on the held server it runs until cancelled
        before = held_client.credits.get()["credits"]
        jobs_before = [job["id"] for job in held_client.research.list(limit=100)]
        with pytest.raises(InvalidRequestError) as caught:
            held_client.research.create("And what about harbors?", mode="lite", previous_job_id=running["id"])
        status = held_client.research.get(running["id"])["status"]
        assert status in ("pending", "running")
        assert caught.value.details["status"] in ("pending", "running")
        _refused(caught.value, caught.value.details["status"])
        assert "wait for it to finish" in caught.value.message
        with pytest.raises(InvalidRequestError) as quoted:  # the quote answers the same refusal
            held_client.research.quote("And what about harbors?", mode="lite", previous_job_id=running["id"])
        assert quoted.value.details["reason"] == "previous_job_not_succeeded"
        assert held_client.credits.get()["credits"] == before
        assert [job["id"] for job in held_client.research.list(limit=100)] == jobs_before
    finally:
        cancelled = held_client.research.cancel(running["id"])
    assert cancelled["status"] == "cancelled"
    with pytest.raises(InvalidRequestError) as caught:
        held_client.research.create("And what about harbors?", mode="lite", previous_job_id=running["id"])
    _refused(caught.value, "cancelled")


def test_another_accounts_job_as_previous_job_id_is_404_like_an_unknown_one(client: DeepResearch, second_client: DeepResearch) -> None:
    mine = client.research.create(TARIFFS, mode="lite")
    assert mine["status"] == "succeeded"
    before = second_client.credits.get()["credits"]
    with pytest.raises(NotFoundError) as theirs:
        second_client.research.create(FOLLOW_UP, mode="lite", previous_job_id=mine["id"])
    unknown_id = str(uuid.uuid4())
    with pytest.raises(NotFoundError) as unknown:
        second_client.research.create(FOLLOW_UP, mode="lite", previous_job_id=unknown_id)
    for error in (theirs.value, unknown.value):
        assert error.status == 404 and error.code == "not_found"
        assert error.response is not None and set(error.response.json()["error"]) == {"code", "message"}
    assert theirs.value.message.replace(mine["id"], "ID") == unknown.value.message.replace(unknown_id, "ID")
    with pytest.raises(NotFoundError):
        second_client.research.quote(FOLLOW_UP, mode="lite", previous_job_id=mine["id"])
    assert second_client.credits.get()["credits"] == before
    assert all(job["question"] != FOLLOW_UP for job in second_client.research.list(limit=100))


# Plans


def test_a_reviewed_plan_edited_runs_by_plan_id_exactly_as_edited(client: DeepResearch, second_client: DeepResearch) -> None:
    before = client.credits.get()["credits"]
    plan = client.research.plan(TAFT_CANAL, mode="lite")
    assert plan["question"] == TAFT_CANAL and plan["mode"] == "lite" and plan["planner"] == "engine"
    assert plan["max_queries"] == 2 and 1 <= len(plan["queries"]) <= 2 and plan["queries"][0] == TAFT_CANAL
    assert plan["quote"] == client.research.quote(TAFT_CANAL, mode="lite")  # the quote endpoint's own answer
    assert _at(plan["expires_at"]) - _at(plan["created_at"]) == timedelta(hours=1)
    assert client.credits.get()["credits"] == before  # making a plan is free

    with pytest.raises(InvalidRequestError) as too_many:  # more searches than the mode's first wave
        client.research.create(TAFT_CANAL, mode="lite", plan_id=plan["plan_id"], queries=[EDITED, "a", "b"])
    assert too_many.value.status == 400 and too_many.value.code == "invalid_request"
    with pytest.raises(NotFoundError) as theirs:  # another account's plan
        second_client.research.create(TAFT_CANAL, mode="lite", plan_id=plan["plan_id"])
    assert theirs.value.status == 404 and theirs.value.code == "not_found"
    assert client.credits.get()["credits"] == before

    assert EDITED not in plan["queries"]
    events = []
    result = client.research.run(TAFT_CANAL, mode="lite", plan_id=plan["plan_id"], queries=[EDITED], on_event=events.append)
    assert result["status"] == "succeeded"
    # The job made one search (the edited plan's only one), and every page it read is an Eisenhower address.
    searched = [event["data"]["searches"] for event in events if event["event"] == "progress"]
    assert searched[-1] == 1
    read = [event["data"] for event in events if event["event"] == "source"]
    assert read and all("eisenhower" in source["url"] for source in read)
    assert client.credits.get()["credits"] == before - result["credits_charged"]
    listed = next(job for job in client.research.list(limit=10) if job["id"] == result["id"])
    assert listed["plan_id"] == plan["plan_id"] and listed["previous_job_id"] is None

    with pytest.raises(InvalidRequestError) as again:  # a plan runs once
        client.research.create(TAFT_CANAL, mode="lite", plan_id=plan["plan_id"])
    assert again.value.status == 400 and again.value.code == "invalid_request" and "already ran" in again.value.message
    with pytest.raises(NotFoundError):
        client.research.create(TAFT_CANAL, mode="lite", plan_id=str(uuid.uuid4()))


# Monitors


def _settled(client: DeepResearch, monitor_id: str, run: dict) -> dict:
    """The run once its job has ended: follows the job's events to its result, then lists the runs
    (listing settles a run whose job ended)."""
    events = list(client.research.stream(run["job_id"]))
    assert events[-1]["event"] == "result"
    return next(listed for listed in client.monitors.runs(monitor_id) if listed["id"] == run["id"])


def _scheduled_baseline(client: DeepResearch, monitor_id: str) -> dict:
    """The monitor's first run, which the schedule starts at once: the e2e server's cron sweep
    ticks every 2 s (LOCAL_CRON_TICK_MS), so it is waited for, as a state (the run recorded and
    the monitor's last_run_at set), within a deadline far above the tick."""
    deadline = time.monotonic() + 60
    while time.monotonic() < deadline:
        runs = list(client.monitors.runs(monitor_id))
        if runs and client.monitors.get(monitor_id)["last_run_at"] == runs[0]["created_at"]:
            assert len(runs) == 1 and runs[0]["trigger"] == "schedule"
            return runs[0]
        time.sleep(0.2)
    raise AssertionError("the cron sweep did not start the monitor's first run within 60 s")


def test_a_monitor_created_listed_paused_run_now_resumed_and_deleted(client: DeepResearch, second_client: DeepResearch) -> None:
    question = "What did presidents say about the gold standard?"
    before = client.credits.get()["credits"]
    monitor = client.monitors.create(question, mode="lite", schedule={"every": "1d"})
    monitor_id = monitor["id"]
    try:
        assert monitor["question"] == question and monitor["mode"] == "lite" and monitor["status"] == "active"
        assert monitor["schedule"] == {"every": "1d", "cron": None} and monitor["credits_per_run"] == 15
        assert monitor["paused_reason"] is None and monitor["last_run_at"] is None
        assert monitor["next_run_at"] == monitor["created_at"]  # the baseline is due at once
        assert monitor_id in [m["id"] for m in client.monitors.list(limit=1)]  # every page
        for call in (second_client.monitors.get, second_client.monitors.runs, second_client.monitors.run, second_client.monitors.delete):
            with pytest.raises(NotFoundError) as caught:
                call(monitor_id)
            assert caught.value.status == 404 and caught.value.code == "not_found"

        # The schedule's first run (the baseline): its diff is null; the next is a day later.
        baseline = _settled(client, monitor_id, _scheduled_baseline(client, monitor_id))
        assert baseline["status"] == "succeeded" and baseline["credits_charged"] == 15
        assert baseline["diff"] is None and baseline["changed"] is None
        scheduled = client.monitors.get(monitor_id)
        assert _at(scheduled["next_run_at"]) >= _at(baseline["created_at"]) + timedelta(hours=23)

        paused = client.monitors.pause(monitor_id)
        assert paused["status"] == "paused" and paused["paused_reason"] == "paused_by_owner" and paused["next_run_at"] is None
        assert client.monitors.get(monitor_id) == paused

        # Run now, also on a paused monitor: a research job charged as one, then its run with a diff.
        started = client.monitors.run(monitor_id)
        assert started["monitor_id"] == monitor_id and started["trigger"] == "manual" and started["status"] == "running"
        assert started["diff"] is None and started["credits_charged"] is None and started["finished_at"] is None
        first = _settled(client, monitor_id, started)
        assert first["status"] == "succeeded" and first["credits_charged"] == 15 and first["finished_at"]
        second = _settled(client, monitor_id, client.monitors.run(monitor_id))
        assert second["status"] == "succeeded" and second["credits_charged"] == 15
        assert client.credits.get()["credits"] == before - 45  # three runs, each a lite job
        # The same corpus asked again: each diff says nothing changed, against the run before it.
        for run, previous in ((first, baseline), (second, first)):
            assert run["changed"] is False
            assert run["diff"] == {
                "previous_run_id": previous["id"],
                "changed": False,
                "sources_added": [],
                "sources_removed": [],
                "answer": {**run["diff"]["answer"], "changed": False},
                "claims_added": [],
                "claims_withdrawn": [],
            }
            assert run["diff"]["answer"]["previous"] == run["diff"]["answer"]["current"]
        runs = list(client.monitors.runs(monitor_id, limit=1))  # every page, newest first
        assert [run["id"] for run in runs] == [second["id"], first["id"], baseline["id"]]
        assert runs[0] == second
        job = client.research.get(second["job_id"])
        assert job["status"] == "succeeded" and job["question"] == question
        listed = next(j for j in client.research.list(limit=10) if j["id"] == second["job_id"])
        assert listed["monitor_id"] == monitor_id

        still = client.monitors.get(monitor_id)
        assert still["status"] == "paused" and still["last_run_at"] == second["created_at"]
        resumed = client.monitors.resume(monitor_id)
        assert resumed["status"] == "active" and resumed["paused_reason"] is None
        # The schedule goes on from the last run: a day after it.
        assert _at(resumed["next_run_at"]) == _at(second["created_at"]) + timedelta(days=1)
    finally:
        deleted = client.monitors.delete(monitor_id)
    assert deleted == {"deleted": True}
    for call in (client.monitors.get, client.monitors.runs, client.monitors.run, client.monitors.delete):
        with pytest.raises(NotFoundError) as caught:
            call(monitor_id)
        assert caught.value.status == 404 and caught.value.code == "not_found"
    assert monitor_id not in [m["id"] for m in client.monitors.list()]
    # Its runs' jobs stay in the jobs list.
    assert client.research.get(second["job_id"])["status"] == "succeeded"


def test_a_monitor_refuses_a_bad_schedule_and_writes_nothing(client: DeepResearch) -> None:
    before = [m["id"] for m in client.monitors.list()]
    for schedule in ({"every": "30m"}, {"every": "31d"}, {"cron": "*/5 * * * *"}, {"cron": "0 0 30 2 *"}, {"every": "1d", "cron": "0 9 * * 1"}):
        with pytest.raises(InvalidRequestError) as caught:
            client.monitors.create("What did presidents say about silver?", mode="lite", schedule=schedule)  # type: ignore[arg-type]
        assert caught.value.status == 400 and caught.value.code == "invalid_request", schedule
    assert [m["id"] for m in client.monitors.list()] == before


# The async client


def test_async_plan_follow_up_and_monitor(base_url: str, continuing_api_key: str) -> None:
    async def main() -> None:
        async with AsyncDeepResearch(api_key=continuing_api_key, base_url=base_url) as client:
            plan = await client.research.plan(CANAL, mode="lite")
            ran = await client.research.run(CANAL, mode="lite", plan_id=plan["plan_id"])
            assert ran["status"] == "succeeded"
            _cited(ran)
            listed = [job async for job in client.research.list(limit=5) if job["id"] == ran["id"]]
            assert listed[0]["plan_id"] == plan["plan_id"]

            follow_up = await client.research.create("And what did they say about its construction?", mode="lite", previous_job_id=ran["id"])
            assert follow_up["status"] == "succeeded" and follow_up["previous_job_id"] == ran["id"] and follow_up["thread"] == [ran["id"]]
            assert follow_up["charge_basis"]["rule"] == "follow_up" and follow_up["credits_charged"] <= 11
            with pytest.raises(NotFoundError):
                await client.research.create("And then?", mode="lite", previous_job_id=str(uuid.uuid4()))

            monitor = await client.monitors.create(CANAL, mode="lite", schedule={"cron": "0 9 * * 1"})
            try:
                paused = await client.monitors.pause(monitor["id"])
                assert paused["status"] == "paused" and paused["schedule"] == {"every": None, "cron": "0 9 * * 1"}
                assert monitor["id"] in [m["id"] async for m in client.monitors.list(limit=1)]
                rescheduled = await client.monitors.update(monitor["id"], schedule={"every": "12h"})
                assert rescheduled["schedule"] == {"every": "12h", "cron": None} and rescheduled["status"] == "paused"
                assert await client.monitors.get(monitor["id"]) == rescheduled
                with pytest.raises(InvalidRequestError):
                    await client.monitors.update(monitor["id"])  # nothing to change
            finally:
                assert await client.monitors.delete(monitor["id"]) == {"deleted": True}
            with pytest.raises(NotFoundError):
                await client.monitors.get(monitor["id"])

    asyncio.run(main())
