"""Verifying the service's webhook deliveries: the Standard Webhooks signature (``webhook-id``,
``webhook-timestamp``, ``webhook-signature``) when it is there, else ``X-Service-Signature``."""

from __future__ import annotations

import base64
import binascii
import hashlib
import hmac
import json
import re
import time
from dataclasses import dataclass
from typing import Any, Iterable, Literal, Mapping, Optional, Tuple, Union

from .types import ResearchResult

__all__ = ["verify", "VerifiedWebhook", "WebhookVerificationError", "TERMINAL_WEBHOOK_EVENTS"]

TERMINAL_WEBHOOK_EVENTS = ("research.completed", "research.failed", "research.cancelled")
"""Events whose body is the job's result (the others carry an envelope ``{type, job_id, created_at, data}``)."""


class WebhookVerificationError(Exception):
    """The delivery did not verify; the message says why. Answer it with a 400 and process nothing."""


@dataclass(frozen=True)
class VerifiedWebhook:
    event: str
    """``X-Service-Event``: research.completed, research.started, research.progress, research.failed, research.cancelled or webhook.test."""
    delivery_id: Optional[str]
    """``webhook-id`` / ``X-Service-Delivery``: the same for every attempt of one delivery; process each once."""
    timestamp: Optional[int]
    """``webhook-timestamp`` / ``X-Service-Timestamp`` (unix seconds) of this attempt, when sent."""
    scheme: Literal["standard-webhooks", "x-service-signature"]
    """Which signature was checked."""
    result: ResearchResult
    """The parsed body: the job's final result for a terminal event."""
    envelope: Optional[Mapping[str, Any]]
    """The parsed body as the envelope of a non-terminal event (started, progress, test); None for a terminal one."""


Headers = Union[Mapping[str, Any], Iterable[Tuple[str, str]]]


def _header(headers: Headers, name: str) -> Optional[str]:
    items = headers.items() if hasattr(headers, "items") else headers
    lower = name.lower()
    for key, value in items:  # type: ignore[union-attr]
        if str(key).lower() == lower:
            if isinstance(value, (list, tuple)):
                value = value[0] if value else None
            if isinstance(value, bytes):
                value = value.decode("latin-1")
            return None if value is None else str(value)
    return None


def _b64(text: str) -> Optional[bytes]:
    normal = text.strip().replace("-", "+").replace("_", "/").rstrip("=")
    if not re.fullmatch(r"[A-Za-z0-9+/]*", normal) or len(normal) % 4 == 1:
        return None
    try:
        return base64.b64decode(normal + "=" * (-len(normal) % 4))
    except binascii.Error:
        return None


def verify(
    raw_body: Union[bytes, bytearray, memoryview, str],
    headers: Headers,
    secret: str,
    *,
    tolerance: Optional[float] = 300,
    now: Optional[float] = None,
) -> VerifiedWebhook:
    """Checks a delivery and returns what it carries, or raises WebhookVerificationError.

    Pass the body exactly as received (bytes, or its text), before any JSON parsing, the request's
    headers (any mapping, case-insensitive; a Starlette/Flask/Django headers object works) and your
    account's signing secret (dashboard: Settings, ``whsec_…``).

    With the Standard Webhooks headers, ``webhook-signature`` must hold ``v1,<base64 HMAC-SHA256 of
    "<id>.<timestamp>.<body>">`` keyed with the base64-decoded part of the secret after ``whsec_``,
    and the timestamp must be within ``tolerance`` seconds of now (None turns the check off).
    Otherwise ``X-Service-Signature`` must be ``sha256=<hex HMAC-SHA256 of the raw body>`` keyed with
    the whole secret (it signs the body only: deduplicate on ``delivery_id`` as well). Signatures
    are compared in constant time.
    """
    if not secret:
        raise WebhookVerificationError("No signing secret given.")
    body = raw_body.encode("utf-8") if isinstance(raw_body, str) else bytes(raw_body)
    current = time.time() if now is None else now

    def check_skew(timestamp: int) -> None:
        if tolerance is None:
            return
        skew = abs(current - timestamp)
        if skew > tolerance:
            raise WebhookVerificationError(f"The delivery's timestamp is {round(skew)} s away from now (tolerance {tolerance:g} s).")

    scheme: Literal["standard-webhooks", "x-service-signature"]
    standard = _header(headers, "webhook-signature")
    if standard is not None:
        scheme = "standard-webhooks"
        delivery_id = _header(headers, "webhook-id")
        stamp = (_header(headers, "webhook-timestamp") or "").strip()
        if not delivery_id or not stamp.isdigit():
            raise WebhookVerificationError("The webhook-id or webhook-timestamp header is missing.")
        timestamp: Optional[int] = int(stamp)
        check_skew(int(stamp))
        key = _b64(secret[len("whsec_") :] if secret.startswith("whsec_") else secret)
        if not key:
            raise WebhookVerificationError("The secret is not whsec_<base64>.")
        expected = hmac.new(key, f"{delivery_id}.{stamp}.".encode() + body, hashlib.sha256).digest()
        received = [_b64(entry[3:]) for entry in standard.split(" ") if entry.startswith("v1,")]
        if not any(r is not None and hmac.compare_digest(r, expected) for r in received):
            raise WebhookVerificationError("The webhook-signature does not match: wrong secret, or the body, id or timestamp was changed.")
    else:
        scheme = "x-service-signature"
        signature = _header(headers, "X-Service-Signature")
        if not signature:
            raise WebhookVerificationError("The signature header is missing: neither webhook-signature nor X-Service-Signature was sent.")
        hex_part = signature[len("sha256=") :] if signature.startswith("sha256=") else None
        if hex_part is None or not re.fullmatch(r"(?:[0-9a-fA-F]{2})*", hex_part):
            raise WebhookVerificationError("The X-Service-Signature header is not sha256=<hex>.")
        expected = hmac.new(secret.encode("utf-8"), body, hashlib.sha256).digest()
        if not hmac.compare_digest(bytes.fromhex(hex_part), expected):
            raise WebhookVerificationError("The signature does not match the body: wrong secret, or the body was changed.")
        stamp = (_header(headers, "X-Service-Timestamp") or "").strip()
        timestamp = int(stamp) if stamp.isdigit() else None
        if timestamp is not None:
            check_skew(timestamp)
        delivery_id = _header(headers, "X-Service-Delivery")

    try:
        parsed = json.loads(body.decode("utf-8"))
    except ValueError:
        raise WebhookVerificationError("The signed body is not JSON.") from None
    event = _header(headers, "X-Service-Event") or (parsed.get("type") if isinstance(parsed, dict) else None) or "research.completed"
    terminal = event in TERMINAL_WEBHOOK_EVENTS
    return VerifiedWebhook(event, delivery_id, timestamp, scheme, parsed, None if terminal else parsed)
