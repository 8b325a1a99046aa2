"""Errors by kind, with the documented body; timeouts and connection failures; configuration."""

from __future__ import annotations

import socket
import threading
import time
import uuid

import pytest

from deep_research import (
    APIConnectionError,
    APITimeoutError,
    AuthenticationError,
    ConflictError,
    DeepResearch,
    DeepResearchError,
    InvalidRequestError,
    NotFoundError,
)


def test_401_is_an_authentication_error(base_url: str) -> None:
    with DeepResearch(api_key="dr_live_not_a_key", base_url=base_url) as stranger:
        with pytest.raises(AuthenticationError) as caught:
            stranger.credits.get()
    error = caught.value
    assert error.status == 401 and error.code == "unauthorized" and error.message
    assert error.request_id and error.response is not None
    assert error.response.json() == {"error": {"code": "unauthorized", "message": error.message}}


def test_404_is_not_found_for_an_unknown_job_and_for_another_accounts(client: DeepResearch, second_client: DeepResearch) -> None:
    with pytest.raises(NotFoundError) as caught:
        client.research.get(str(uuid.uuid4()))
    assert caught.value.status == 404 and caught.value.code == "not_found"
    mine = client.research.create("What did presidents say about silver?", mode="lite")
    for call in (second_client.research.get, second_client.research.cancel):
        with pytest.raises(NotFoundError):
            call(mine["id"])
    with pytest.raises(NotFoundError):
        list(second_client.research.stream(mine["id"]))
    assert client.research.get(mine["id"])["status"] == "succeeded"


def test_400_is_an_invalid_request_with_the_documented_body_and_nothing_charged(client: DeepResearch) -> None:
    before = client.credits.get()["credits"]
    with pytest.raises(InvalidRequestError) as caught:
        client.research.create("What?", mode="bogus")  # type: ignore[typeddict-item]
    error = caught.value
    assert error.status == 400 and error.code == "invalid_request"
    assert error.details and error.details[0]["path"] == "mode" and error.details[0]["message"]
    body = error.response.json()
    assert set(body) == {"error"} and set(body["error"]) == {"code", "message", "details"}
    with pytest.raises(InvalidRequestError):
        client.research.create("", mode="lite")
    with pytest.raises(InvalidRequestError):
        client.research.get("not-a-uuid")
    assert client.credits.get()["credits"] == before


def test_an_idempotency_key_reused_with_another_body_is_a_conflict(client: DeepResearch) -> None:
    key = str(uuid.uuid4())
    first = client.research.create("What did presidents say about banks?", mode="lite", idempotency_key=key)
    again = client.research.create("What did presidents say about banks?", mode="lite", idempotency_key=key)
    assert again["id"] == first["id"]
    with pytest.raises(ConflictError) as caught:
        client.research.create("What did presidents say about money?", mode="lite", idempotency_key=key)
    assert caught.value.status == 422 and caught.value.code == "idempotency_key_reused"


def test_an_unreachable_service_is_a_connection_error() -> None:
    with socket.socket() as probe:
        probe.bind(("127.0.0.1", 0))
        port = probe.getsockname()[1]
    with DeepResearch(api_key="dr_live_x", base_url=f"http://127.0.0.1:{port}", max_retries=1, base_delay=0.01) as client:
        with pytest.raises(APIConnectionError) as caught:
            client.credits.get()
    assert caught.value.status == 0 and caught.value.code == "network_error"
    assert not isinstance(caught.value, APITimeoutError)


@pytest.fixture
def silent_port():
    """A server that accepts connections and never answers."""
    server = socket.socket()
    server.bind(("127.0.0.1", 0))
    server.listen(8)
    held = []
    stop = threading.Event()

    def accept() -> None:
        server.settimeout(0.1)
        while not stop.is_set():
            try:
                held.append(server.accept()[0])
            except OSError:
                continue

    thread = threading.Thread(target=accept, daemon=True)
    thread.start()
    yield server.getsockname()[1]
    stop.set()
    thread.join()
    for conn in held:
        conn.close()
    server.close()


def test_timeouts_per_client_and_per_call(silent_port: int) -> None:
    base = f"http://127.0.0.1:{silent_port}"
    with DeepResearch(api_key="dr_live_x", base_url=base, timeout=0.3, max_retries=0) as quick:
        started = time.monotonic()
        with pytest.raises(APITimeoutError) as caught:
            quick.credits.get()
        assert time.monotonic() - started < 30  # the client's 0.3 s applies (its default is 600 s)
        assert caught.value.code == "timeout" and caught.value.status == 0
    with DeepResearch(api_key="dr_live_x", base_url=base, timeout=120, max_retries=1, base_delay=0.01) as patient:
        started = time.monotonic()
        with pytest.raises(APITimeoutError):
            patient.research.get(str(uuid.uuid4()), timeout=0.3)  # the call's own timeout wins; a GET is retried once
        assert time.monotonic() - started < 30  # not the client's 120 s
        assert patient.timeout == 120


def test_configuration_from_the_environment(monkeypatch: pytest.MonkeyPatch, base_url: str, api_key: str) -> None:
    monkeypatch.setenv("DEEP_RESEARCH_API_KEY", api_key)
    monkeypatch.setenv("DEEP_RESEARCH_BASE_URL", base_url + "/")
    with DeepResearch() as client:
        assert client.base_url == base_url
        assert client.credits.get()["credits"] >= 0
    monkeypatch.delenv("DEEP_RESEARCH_API_KEY")
    with pytest.raises(DeepResearchError, match="DEEP_RESEARCH_API_KEY"):
        DeepResearch()
