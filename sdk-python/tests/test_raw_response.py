"""Raw response access: status, headers, request id, and the data."""

from __future__ import annotations

import re

from conftest import TARIFFS

from deep_research import APIResponse, DeepResearch

UUID = re.compile(r"^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$")


def test_with_raw_response_gives_status_headers_and_request_id(client: DeepResearch) -> None:
    result = client.research.run(TARIFFS, mode="lite")
    raw = client.research.with_raw_response.get(result["id"])
    assert isinstance(raw, APIResponse)
    assert raw.status_code == 200 and raw.headers["content-type"].startswith("application/json")
    assert raw.request_id and UUID.match(raw.request_id)
    assert raw.parse() == result
    assert int(raw.headers["ratelimit-remaining"]) >= 0

    accepted = client.research.with_raw_response.create(TARIFFS, mode="lite", async_=True)
    assert accepted.status_code == 202 and accepted.parse()["status"] == "pending"
    assert client.research.with_raw_response.quote(TARIFFS).parse()["mode"] == "standard"

    first_page = client.research.with_raw_response.list(limit=1)
    assert first_page.status_code == 200 and 'rel="next"' in first_page.headers["link"] and len(first_page.parse()) == 1
    assert client.credits.with_raw_response.get().parse()["credits"] == client.credits.get()["credits"]
    assert client.collections.with_raw_response.list().status_code == 200
    page = client.research.list(limit=1)
    assert page.response.status_code == 200 and page.response.request_id


def test_run_and_stream_have_no_single_response(client: DeepResearch) -> None:
    import pytest

    with pytest.raises(TypeError, match="several requests"):
        client.research.with_raw_response.run(TARIFFS)
    with pytest.raises(TypeError, match="several requests"):
        next(iter(client.research.with_raw_response.stream("x")))
