"""deep_research.webhooks.verify against deliveries signed by the service's own code (the e2e
harness signs them with src/webhooks/signing.ts and the account's secret from the API), and the
Standard Webhooks specification's example."""

from __future__ import annotations

import pytest

from deep_research import webhooks
from deep_research.webhooks import WebhookVerificationError


def reason(body, headers, secret, **options) -> str:
    try:
        webhooks.verify(body, headers, secret, **options)
    except WebhookVerificationError as error:
        return str(error)
    return "verified"


def test_both_signatures_of_a_delivery_verify(webhook_fixtures) -> None:
    body, secret, now = webhook_fixtures["body"], webhook_fixtures["secret"], webhook_fixtures["timestamp"]
    assert secret.startswith("whsec_")
    service = webhook_fixtures["service_headers"]
    standard = webhook_fixtures["standard_headers"]
    verified = webhooks.verify(body, service, secret, now=now)
    assert verified.scheme == "x-service-signature" and verified.event == "research.completed"
    assert verified.delivery_id == service["X-Service-Delivery"] and verified.timestamp == now
    assert verified.result["status"] == "succeeded" and verified.envelope is None
    both = webhooks.verify(body.encode(), {**service, **standard}, secret, now=now)
    assert both.scheme == "standard-webhooks" and both.delivery_id == standard["webhook-id"]
    # Lower-case names (as WSGI/ASGI servers hand them) and a list of pairs work too.
    lowered = {name.lower(): value for name, value in standard.items()}
    assert webhooks.verify(body, lowered, secret, now=now).scheme == "standard-webhooks"
    assert webhooks.verify(body, list(service.items()), secret, now=now).scheme == "x-service-signature"


def test_a_tampered_delivery_is_refused_under_either_scheme(webhook_fixtures) -> None:
    body, secret, now = webhook_fixtures["body"], webhook_fixtures["secret"], webhook_fixtures["timestamp"]
    service, standard = webhook_fixtures["service_headers"], webhook_fixtures["standard_headers"]
    tampered = body.replace("succeeded", "failed")
    assert tampered != body
    for headers in (service, standard):
        assert "does not match" in reason(tampered, headers, secret, now=now)
        assert "does not match" in reason(body, headers, "whsec_" + "A" * 32, now=now)
        assert "does not match" in reason(body + " ", headers, secret, now=now)
        assert "away from now" in reason(body, headers, secret, now=now + 301)
        assert reason(body, headers, secret, now=now + 301, tolerance=None) == "verified"
    assert "does not match" in reason(body, {**standard, "webhook-id": "msg_other"}, secret, now=now)
    assert "does not match" in reason(body, {**standard, "webhook-timestamp": str(now + 1)}, secret, now=now)
    bad_hex = service["X-Service-Signature"][:-2] + ("00" if not service["X-Service-Signature"].endswith("00") else "11")
    assert "does not match" in reason(body, {**service, "X-Service-Signature": bad_hex}, secret, now=now)
    assert "not sha256=<hex>" in reason(body, {**service, "X-Service-Signature": "md5=abc"}, secret, now=now)
    assert "missing" in reason(body, {"X-Service-Event": "research.completed"}, secret, now=now)
    assert "No signing secret" in reason(body, service, "", now=now)


def test_a_lifecycle_event_carries_its_envelope(webhook_fixtures) -> None:
    started = webhook_fixtures["started"]
    verified = webhooks.verify(started["body"], started["headers"], webhook_fixtures["secret"], now=webhook_fixtures["timestamp"])
    assert verified.event == "research.started" and verified.envelope is not None
    assert verified.envelope["type"] == "research.started" and verified.envelope["data"] == {"status": "running"}


def test_the_standard_webhooks_specification_example() -> None:
    vector = {
        "secret": "whsec_MfKQ9r8GKYqrTwjUPD8ILPZIo2LaLaSw",
        "id": "msg_p5jXN8AQM9LWM0D4loKWxJek",
        "timestamp": 1614265330,
        "body": '{"test": 2432232314}',
        "signature": "v1,g0hM9SsE+OTPJTGt/tmIKtSyZlE3uFJELVlNIOLJ1OE=",
    }
    headers = {"webhook-id": vector["id"], "webhook-timestamp": str(vector["timestamp"]), "webhook-signature": vector["signature"]}
    verified = webhooks.verify(vector["body"], headers, vector["secret"], now=vector["timestamp"])
    assert verified.result == {"test": 2432232314} and verified.delivery_id == vector["id"]
    rotated = {**headers, "webhook-signature": "v1,eHh4eHh4eHh4eHh4eHh4eHh4eHh4eHh4eHh4eHh4eHg= " + vector["signature"]}
    assert webhooks.verify(vector["body"], rotated, vector["secret"], now=vector["timestamp"]).scheme == "standard-webhooks"
    with pytest.raises(WebhookVerificationError):
        webhooks.verify(vector["body"], {**headers, "webhook-signature": "v1,eHh4eHh4eHh4eHh4eHh4eHh4eHh4eHh4eHh4eHh4eHg="}, vector["secret"], now=vector["timestamp"])
