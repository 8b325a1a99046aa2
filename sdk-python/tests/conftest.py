"""The SDK's tests run against a running service: test/e2e/python-sdk.e2e.test.ts starts it (npm
start, through the e2e global setup), makes the accounts and keys, and runs pytest with

    DEEP_RESEARCH_BASE_URL, DEEP_RESEARCH_API_KEY   the service and a key of a fresh account
    DEEP_RESEARCH_SECOND_API_KEY                    a key of a second account (scoping, paging)
    DEEP_RESEARCH_CONTINUING_API_KEY                a key of the account test_continuing.py spends
    DEEP_RESEARCH_HELD_BASE_URL, _HELD_API_KEY      a service whose jobs run until cancelled
    DEEP_RESEARCH_WEBHOOK_FIXTURES                  deliveries signed by the service's own code

To run them by hand: `npx vitest run test/e2e/python-sdk.e2e.test.ts` at the repository's root.
"""

from __future__ import annotations

import json
import os
import sys
from pathlib import Path
from typing import Any, Dict

import pytest

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))

from deep_research import DeepResearch  # noqa: E402

REQUIRED = [
    "DEEP_RESEARCH_BASE_URL",
    "DEEP_RESEARCH_API_KEY",
    "DEEP_RESEARCH_SECOND_API_KEY",
    "DEEP_RESEARCH_CONTINUING_API_KEY",
    "DEEP_RESEARCH_HELD_BASE_URL",
    "DEEP_RESEARCH_HELD_API_KEY",
    "DEEP_RESEARCH_WEBHOOK_FIXTURES",
]


def pytest_configure(config: pytest.Config) -> None:
    missing = [name for name in REQUIRED if not os.environ.get(name)]
    if missing:
        raise pytest.UsageError(
            f"These tests run against a running service; missing {', '.join(missing)}. "
            "Run them with `npx vitest run test/e2e/python-sdk.e2e.test.ts` at the repository's root."
        )


TARIFFS = "How did presidents describe tariffs in the 19th century?"


@pytest.fixture(scope="session")
def base_url() -> str:
    return os.environ["DEEP_RESEARCH_BASE_URL"]


@pytest.fixture(scope="session")
def api_key() -> str:
    return os.environ["DEEP_RESEARCH_API_KEY"]


@pytest.fixture
def client(base_url: str, api_key: str):
    with DeepResearch(api_key=api_key, base_url=base_url) as client:
        yield client


@pytest.fixture
def second_client(base_url: str):
    with DeepResearch(api_key=os.environ["DEEP_RESEARCH_SECOND_API_KEY"], base_url=base_url) as client:
        yield client


@pytest.fixture(scope="session")
def continuing_api_key() -> str:
    """The account of the follow-up, plan and monitor tests: their jobs and monitor runs spend its
    signup credits, not those of the account whose balance the other tests assert on."""
    return os.environ["DEEP_RESEARCH_CONTINUING_API_KEY"]


@pytest.fixture
def continuing_client(base_url: str, continuing_api_key: str):
    with DeepResearch(api_key=continuing_api_key, base_url=base_url) as client:
        yield client


@pytest.fixture
def held_client():
    with DeepResearch(api_key=os.environ["DEEP_RESEARCH_HELD_API_KEY"], base_url=os.environ["DEEP_RESEARCH_HELD_BASE_URL"]) as client:
        yield client


@pytest.fixture(scope="session")
def webhook_fixtures() -> Dict[str, Any]:
    return json.loads(Path(os.environ["DEEP_RESEARCH_WEBHOOK_FIXTURES"]).read_text())
