"""The Python SDK of the Deep Research API.

    from deep_research import DeepResearch

    client = DeepResearch()  # DEEP_RESEARCH_API_KEY, DEEP_RESEARCH_BASE_URL
    result = client.research.run("How did presidents describe tariffs in the 19th century?", mode="lite")
    print(result["answer"], result["brief"])
"""

from . import tools, types, webhooks
from ._async_client import AsyncDeepResearch, AsyncPage, AsyncPaginator
from ._client import DeepResearch, SyncPage
from ._core import DEFAULT_BASE_URL, DEFAULT_MAX_RETRIES, DEFAULT_TIMEOUT, NOT_GIVEN, APIResponse
from ._errors import (
    APIConnectionError,
    APITimeoutError,
    AuthenticationError,
    ConflictError,
    DeepResearchError,
    EmailNotVerifiedError,
    InsufficientCreditsError,
    InvalidRequestError,
    NotFoundError,
    PermissionDeniedError,
    RateLimitError,
    ServerError,
)
from ._options import ResearchOptions
from ._version import __version__
from .webhooks import VerifiedWebhook, WebhookVerificationError

__all__ = [
    "DeepResearch",
    "AsyncDeepResearch",
    "SyncPage",
    "AsyncPage",
    "AsyncPaginator",
    "APIResponse",
    "ResearchOptions",
    "DEFAULT_BASE_URL",
    "DEFAULT_MAX_RETRIES",
    "DEFAULT_TIMEOUT",
    "NOT_GIVEN",
    "DeepResearchError",
    "InvalidRequestError",
    "AuthenticationError",
    "PermissionDeniedError",
    "InsufficientCreditsError",
    "EmailNotVerifiedError",
    "NotFoundError",
    "ConflictError",
    "RateLimitError",
    "ServerError",
    "APIConnectionError",
    "APITimeoutError",
    "VerifiedWebhook",
    "WebhookVerificationError",
    "tools",
    "types",
    "webhooks",
    "__version__",
]
