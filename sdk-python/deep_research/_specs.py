"""Each API call as a RequestSpec: the sync and the async resources send the same ones."""

from __future__ import annotations

from typing import Any, Dict, Iterable, Mapping, Optional, Sequence
from urllib.parse import quote

from ._core import NOT_GIVEN, FileInput, RequestSpec, Timeout, clean, file_part, idempotency_headers


def _id(value: str) -> str:
    return quote(str(value), safe="")


def research_create(body: Dict[str, Any], idempotency_key: Optional[str], timeout: Timeout) -> RequestSpec:
    return RequestSpec("POST", "/v1/research", json=body, headers=idempotency_headers(idempotency_key), timeout=timeout)


def research_quote(body: Dict[str, Any], timeout: Timeout) -> RequestSpec:
    return RequestSpec("POST", "/v1/research/quote", json=body, timeout=timeout)


def research_plan(body: Dict[str, Any], timeout: Timeout) -> RequestSpec:
    return RequestSpec("POST", "/v1/research/plan", json=body, timeout=timeout)


def research_get(job_id: str, timeout: Timeout) -> RequestSpec:
    return RequestSpec("GET", f"/v1/research/{_id(job_id)}", timeout=timeout)


def research_cancel(job_id: str, timeout: Timeout) -> RequestSpec:
    return RequestSpec("DELETE", f"/v1/research/{_id(job_id)}", timeout=timeout)


def research_list(query: Mapping[str, Any], timeout: Timeout) -> RequestSpec:
    return RequestSpec("GET", "/v1/research", params=clean(query), timeout=timeout)


def research_events(job_id: str, last_event_id: int, timeout: Timeout) -> RequestSpec:
    headers = {"Accept": "text/event-stream", **({"Last-Event-ID": str(last_event_id)} if last_event_id > 0 else {})}
    return RequestSpec("GET", f"/v1/research/{_id(job_id)}/events", headers=headers, timeout=timeout, stream=True)


def research_deliveries(job_id: str, timeout: Timeout) -> RequestSpec:
    return RequestSpec("GET", f"/v1/research/{_id(job_id)}/deliveries", timeout=timeout)


def research_resend(job_id: str, delivery_id: str, timeout: Timeout) -> RequestSpec:
    return RequestSpec("POST", f"/v1/research/{_id(job_id)}/deliveries/{_id(delivery_id)}/resend", timeout=timeout)


def webhooks_test(url: str, timeout: Timeout) -> RequestSpec:
    return RequestSpec("POST", "/v1/webhooks/test", json={"url": url}, timeout=timeout)


def credits_get(timeout: Timeout) -> RequestSpec:
    return RequestSpec("GET", "/v1/credits", timeout=timeout)


def modes_list(timeout: Timeout) -> RequestSpec:
    return RequestSpec("GET", "/api/billing/modes", timeout=timeout)


def collections_create(name: str, description: Optional[str], timeout: Timeout) -> RequestSpec:
    body: Dict[str, Any] = {"name": name}
    if description is not None:
        body["description"] = description
    return RequestSpec("POST", "/v1/collections", json=body, timeout=timeout)


def collections_list(query: Mapping[str, Any], timeout: Timeout) -> RequestSpec:
    return RequestSpec("GET", "/v1/collections", params=clean(query), timeout=timeout)


def collections_get(collection_id: str, timeout: Timeout) -> RequestSpec:
    return RequestSpec("GET", f"/v1/collections/{_id(collection_id)}", timeout=timeout)


def collections_update(collection_id: str, name: Any, description: Any, timeout: Timeout) -> RequestSpec:
    body = {k: v for k, v in {"name": name, "description": description}.items() if v is not NOT_GIVEN}
    return RequestSpec("PATCH", f"/v1/collections/{_id(collection_id)}", json=body, timeout=timeout)


def collections_delete(collection_id: str, timeout: Timeout) -> RequestSpec:
    return RequestSpec("DELETE", f"/v1/collections/{_id(collection_id)}", timeout=timeout)


def collections_add_documents(collection_id: str, documents: Iterable[Mapping[str, Any]], idempotency_key: Optional[str], timeout: Timeout) -> RequestSpec:
    return RequestSpec(
        "POST",
        f"/v1/collections/{_id(collection_id)}/documents",
        json={"documents": [dict(d) for d in documents]},
        headers=idempotency_headers(idempotency_key),
        timeout=timeout,
    )


def collections_upload(collection_id: str, files: Sequence[FileInput], idempotency_key: Optional[str], timeout: Timeout) -> RequestSpec:
    if isinstance(files, (str, bytes, tuple)) or not files:
        raise TypeError("upload() takes a list of files (paths, open binary files or (name, content) tuples).")
    return RequestSpec(
        "POST",
        f"/v1/collections/{_id(collection_id)}/documents",
        files=[file_part(f) for f in files],
        headers=idempotency_headers(idempotency_key),
        timeout=timeout,
    )


def collections_documents(collection_id: str, query: Mapping[str, Any], timeout: Timeout) -> RequestSpec:
    return RequestSpec("GET", f"/v1/collections/{_id(collection_id)}/documents", params=clean(query), timeout=timeout)


def collections_document(collection_id: str, document_id: str, timeout: Timeout) -> RequestSpec:
    return RequestSpec("GET", f"/v1/collections/{_id(collection_id)}/documents/{_id(document_id)}", timeout=timeout)


def collections_delete_document(collection_id: str, document_id: str, timeout: Timeout) -> RequestSpec:
    return RequestSpec("DELETE", f"/v1/collections/{_id(collection_id)}/documents/{_id(document_id)}", timeout=timeout)


def monitors_create(body: Mapping[str, Any], timeout: Timeout) -> RequestSpec:
    return RequestSpec("POST", "/v1/monitors", json=clean(body), timeout=timeout)


def monitors_list(query: Mapping[str, Any], timeout: Timeout) -> RequestSpec:
    return RequestSpec("GET", "/v1/monitors", params=clean(query), timeout=timeout)


def monitors_get(monitor_id: str, timeout: Timeout) -> RequestSpec:
    return RequestSpec("GET", f"/v1/monitors/{_id(monitor_id)}", timeout=timeout)


def monitors_update(monitor_id: str, changes: Mapping[str, Any], timeout: Timeout) -> RequestSpec:
    body = {k: v for k, v in changes.items() if v is not NOT_GIVEN}
    return RequestSpec("PATCH", f"/v1/monitors/{_id(monitor_id)}", json=body, timeout=timeout)


def monitors_delete(monitor_id: str, timeout: Timeout) -> RequestSpec:
    return RequestSpec("DELETE", f"/v1/monitors/{_id(monitor_id)}", timeout=timeout)


def monitors_runs(monitor_id: str, query: Mapping[str, Any], timeout: Timeout) -> RequestSpec:
    return RequestSpec("GET", f"/v1/monitors/{_id(monitor_id)}/runs", params=clean(query), timeout=timeout)


def monitors_run(monitor_id: str, timeout: Timeout) -> RequestSpec:
    return RequestSpec("POST", f"/v1/monitors/{_id(monitor_id)}/run", timeout=timeout)
