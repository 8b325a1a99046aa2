"""Every failure of a call, as a class of its kind (the same kinds as the TypeScript SDK)."""

from __future__ import annotations

import email.utils
import re
import time
from typing import Any, Dict, Optional, Type

import httpx

__all__ = [
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
    "error_for",
    "error_from_response",
    "retry_after_secs",
]


class DeepResearchError(Exception):
    """Any failed call: the service's error (its ``code`` and ``message``, the HTTP ``status``, the
    ``X-Request-Id`` to quote to support, for a 429 the seconds ``Retry-After`` asks for, and a
    400's validation ``details``), or with status 0 a service that could not be reached or did
    not answer in time (APIConnectionError, APITimeoutError)."""

    def __init__(
        self,
        message: str,
        *,
        status: int,
        code: str,
        request_id: Optional[str] = None,
        retry_after: Optional[float] = None,
        details: Any = None,
        response: Optional[httpx.Response] = None,
    ) -> None:
        super().__init__(message)
        self.message = message
        self.status = status
        self.code = code
        self.request_id = request_id
        self.retry_after = retry_after
        self.details = details
        self.response = response

    def __repr__(self) -> str:
        return f"{type(self).__name__}(status={self.status}, code={self.code!r}, message={self.message!r}, request_id={self.request_id!r})"


class InvalidRequestError(DeepResearchError):
    """400, 413, 415, 422: the request itself is wrong (``details`` lists a 400's issues)."""


class AuthenticationError(DeepResearchError):
    """401: the API key is missing, unknown or revoked."""


class PermissionDeniedError(AuthenticationError):
    """403 (``account_suspended``): the key is known but may not do this."""


class InsufficientCreditsError(DeepResearchError):
    """402 ``insufficient_credits``: the balance (or plan) cannot pay the reservation; nothing started."""


class EmailNotVerifiedError(InsufficientCreditsError):
    """403 ``email_not_verified``: an unverified account may not spend this much yet; nothing started."""


class NotFoundError(DeepResearchError):
    """404: no such job, collection or document for this account (another account's looks the same)."""


class ConflictError(DeepResearchError):
    """409 ``idempotency_conflict`` (retried first) or 422 ``idempotency_key_reused`` (the key went with another body)."""


class RateLimitError(DeepResearchError):
    """429 after the retries, or at once when ``retry_after`` is longer than the client waits."""


class ServerError(DeepResearchError):
    """5xx: the service failed; quote ``request_id`` to support."""


class APIConnectionError(DeepResearchError):
    """Status 0, code ``network_error``: the service could not be reached (DNS, refused, reset)."""


class APITimeoutError(APIConnectionError):
    """Status 0, code ``timeout``: no response within the timeout (per attempt)."""


_KIND_OF_CODE: Dict[str, Type[DeepResearchError]] = {
    "idempotency_key_reused": ConflictError,
    "idempotency_conflict": ConflictError,
    "email_not_verified": EmailNotVerifiedError,
}

_KIND_OF_STATUS: Dict[int, Type[DeepResearchError]] = {
    0: APIConnectionError,
    400: InvalidRequestError,
    401: AuthenticationError,
    402: InsufficientCreditsError,
    403: PermissionDeniedError,
    404: NotFoundError,
    409: ConflictError,
    413: InvalidRequestError,
    415: InvalidRequestError,
    422: InvalidRequestError,
    429: RateLimitError,
}


def error_for(message: str, *, status: int, code: str, **rest: Any) -> DeepResearchError:
    """The error of its kind (by code, then by status); a status no kind names is a plain DeepResearchError."""
    kind = _KIND_OF_CODE.get(code) or _KIND_OF_STATUS.get(status) or (ServerError if status >= 500 else DeepResearchError)
    return kind(message, status=status, code=code, **rest)


def error_from_response(response: httpx.Response) -> DeepResearchError:
    """The error a non-2xx response stands for (its body must have been read); a body that is not the
    service's error JSON (a proxy's page) still gives a useful message."""
    try:
        body: Any = response.json()
    except ValueError:
        body = response.text
    error = body.get("error") if isinstance(body, dict) else None
    error = error if isinstance(error, dict) else {}
    code = error.get("code") if isinstance(error.get("code"), str) else f"http_{response.status_code}"
    message = error.get("message")
    if not isinstance(message, str):
        text = body[:200] if isinstance(body, str) else ""
        message = f"HTTP {response.status_code} {response.reason_phrase}{': ' + text if text else ''}".strip()
    return error_for(
        message,
        status=response.status_code,
        code=code,
        request_id=response.headers.get("x-request-id"),
        retry_after=retry_after_secs(response.headers.get("retry-after")),
        details=error.get("details"),
        response=response,
    )


def retry_after_secs(header: Optional[str], now: Optional[float] = None) -> Optional[float]:
    """``Retry-After`` in seconds: delta-seconds or an HTTP date; None when absent or unreadable."""
    if not header:
        return None
    text = header.strip()
    if re.fullmatch(r"\d+(\.\d+)?", text):
        return float(text)
    try:
        at = email.utils.parsedate_to_datetime(text)
    except (TypeError, ValueError):
        return None
    if at is None:
        return None
    return max(0.0, float(int(at.timestamp() - (time.time() if now is None else now) + 0.999)))
