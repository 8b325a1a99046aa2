"""The pure pieces the clients rest on: the SSE parser, Link paging, Retry-After, backoff, error kinds."""

from __future__ import annotations

import email.utils

import httpx

from deep_research import (
    APIConnectionError,
    AuthenticationError,
    ConflictError,
    DeepResearchError,
    EmailNotVerifiedError,
    InsufficientCreditsError,
    InvalidRequestError,
    PermissionDeniedError,
    RateLimitError,
    ServerError,
)
from deep_research._core import RequestSpec, SseParser, backoff, next_paging, should_retry
from deep_research._errors import error_for, error_from_response, retry_after_secs


def test_sse_parser_handles_split_lines_crlf_comments_and_cut_frames() -> None:
    parser = SseParser()
    wire = b": keep-alive\r\nid: 1\r\nevent: status\r\ndata: {\"status\":\r\ndata:  \"pending\"}\r\n\r\nid: 2\nevent: progress\ndata: {}\n\nid: 3\nevent: sou"
    messages = []
    for i in range(0, len(wire), 3):  # three bytes at a time: every line and CRLF split somewhere
        messages += parser.push(wire[i : i + 3])
    assert [(m.id, m.event, m.data) for m in messages] == [("1", "status", '{"status":\n "pending"}'), ("2", "progress", "{}")]
    assert parser.end() == []  # the cut frame of event 3 is never dispatched
    utf8 = SseParser()
    text = "id: 4\nevent: source\ndata: café\n\n".encode()
    cut = text.index(b"\xa9")
    assert utf8.push(text[:cut]) == [] and utf8.push(text[cut:])[0].data == "café"


def test_next_paging_reads_only_limit_and_offset_of_the_next_link() -> None:
    assert next_paging('<https://elsewhere.example/v1/research?limit=2&offset=4>; rel="next"') == {"limit": 2, "offset": 4}
    assert next_paging('<http://x/v1/research?limit=2&offset=0>; rel="prev", <http://x/v1/research?a=1,2&limit=2&offset=6>; rel="next"') == {"limit": 2, "offset": 6}
    assert next_paging('<http://x/v1/research?limit=2&offset=0>; rel="prev"') is None
    assert next_paging(None) is None and next_paging('<http://x/?limit=0&offset=2>; rel="next"') is None


def test_retry_after_as_seconds_or_a_date() -> None:
    assert retry_after_secs("3") == 3 and retry_after_secs(" 1.5 ") == 1.5
    assert retry_after_secs(email.utils.formatdate(1_000_030, usegmt=True), now=1_000_000) == 30
    assert retry_after_secs("soon") is None and retry_after_secs(None) is None


def test_backoff_doubles_with_jitter_up_to_max() -> None:
    for retry in range(6):
        step = min(10.0, 0.5 * 2**retry)
        assert step / 2 <= backoff(retry, 0.5, 10.0) <= step


def test_which_answers_are_retried() -> None:
    post = RequestSpec("POST", "/v1/collections")
    keyed = RequestSpec("POST", "/v1/research", headers={"Idempotency-Key": "k"})
    get = RequestSpec("GET", "/v1/credits")
    conflict = httpx.Response(409, json={"error": {"code": "idempotency_conflict", "message": "running"}})
    assert should_retry(post, httpx.Response(429)) and not should_retry(post, httpx.Response(503))
    assert should_retry(keyed, httpx.Response(503)) and should_retry(get, httpx.Response(500))
    assert should_retry(keyed, conflict) and not should_retry(get, conflict)
    assert not should_retry(get, httpx.Response(404)) and not should_retry(keyed, httpx.Response(422))


def test_error_kinds_by_code_then_status() -> None:
    kinds = {
        (400, "invalid_request"): InvalidRequestError,
        (401, "unauthorized"): AuthenticationError,
        (402, "insufficient_credits"): InsufficientCreditsError,
        (403, "account_suspended"): PermissionDeniedError,
        (403, "email_not_verified"): EmailNotVerifiedError,
        (409, "idempotency_conflict"): ConflictError,
        (422, "idempotency_key_reused"): ConflictError,
        (413, "payload_too_large"): InvalidRequestError,
        (429, "rate_limited"): RateLimitError,
        (503, "service_unavailable"): ServerError,
        (0, "network_error"): APIConnectionError,
    }
    for (status, code), kind in kinds.items():
        assert type(error_for("m", status=status, code=code)) is kind, (status, code)
    assert type(error_for("m", status=405, code="http_405")) is DeepResearchError
    page = httpx.Response(502, text="<html>bad gateway</html>", headers={"X-Request-Id": "r1"})
    error = error_from_response(page)
    assert isinstance(error, ServerError) and error.code == "http_502" and "bad gateway" in error.message and error.request_id == "r1"
