"""What the sync and the async client share: configuration, the retry rules, request specs, the
raw response, Link-header paging and the SSE parser. Neither sends anything itself."""

from __future__ import annotations

import os
import random
import re
import uuid
from dataclasses import dataclass, field
from typing import Any, Dict, Generic, List, Mapping, Optional, Sequence, Tuple, TypeVar, Union
from urllib.parse import parse_qs, urlsplit

import httpx

from ._errors import APIConnectionError, APITimeoutError, DeepResearchError, error_from_response
from ._version import __version__

T = TypeVar("T")

DEFAULT_BASE_URL = "http://127.0.0.1:8787"
"""Where the service is when neither ``base_url`` nor DEEP_RESEARCH_BASE_URL says: a local ``npm start``."""

DEFAULT_TIMEOUT = 600.0
"""Seconds an attempt waits for its response when no ``timeout`` is given: 10 minutes, as openai-python."""

DEFAULT_MAX_RETRIES = 3

STREAM_READ_TIMEOUT = 60.0
"""The least an event stream waits between two chunks: the service sends a keep-alive every 15 s."""

_SAFE_METHODS = {"GET", "HEAD", "OPTIONS", "PUT", "DELETE"}


class _NotGiven:
    """A keyword left out (as opposed to None, which may mean "remove")."""

    def __bool__(self) -> bool:
        return False

    def __repr__(self) -> str:
        return "NOT_GIVEN"


NOT_GIVEN: Any = _NotGiven()

Timeout = Union[float, httpx.Timeout, None]


@dataclass
class Config:
    api_key: str
    base_url: str
    timeout: Timeout
    max_retries: int
    base_delay: float
    max_delay: float
    headers: Dict[str, str]


def make_config(
    api_key: Optional[str],
    base_url: Optional[str],
    timeout: Timeout,
    max_retries: int,
    base_delay: float,
    max_delay: float,
    default_headers: Optional[Mapping[str, str]],
) -> Config:
    key = api_key or os.environ.get("DEEP_RESEARCH_API_KEY") or None
    if not key:
        raise DeepResearchError(
            "DeepResearch needs an API key: pass api_key, or set DEEP_RESEARCH_API_KEY (a key from the dashboard's API keys page).",
            status=0,
            code="missing_api_key",
        )
    url = (base_url or os.environ.get("DEEP_RESEARCH_BASE_URL") or DEFAULT_BASE_URL).rstrip("/")
    headers = {
        "User-Agent": f"deep-research-python/{__version__}",
        "Accept": "application/json",
        **(default_headers or {}),
        "Authorization": f"Bearer {key}",
    }
    return Config(key, url, timeout, max_retries, base_delay, max_delay, headers)


@dataclass
class RequestSpec:
    """One API call, before it is sent: everything each attempt sends the same."""

    method: str
    path: str
    params: Optional[Dict[str, Any]] = None
    json: Any = None
    files: Optional[List[Tuple[str, Tuple[str, bytes, str]]]] = None
    headers: Dict[str, str] = field(default_factory=dict)
    timeout: Timeout = NOT_GIVEN
    stream: bool = False

    @property
    def repeatable(self) -> bool:
        """Whether sending it again cannot do the work twice: an idempotent method, or an Idempotency-Key."""
        return self.method in _SAFE_METHODS or "Idempotency-Key" in self.headers


def idempotency_headers(key: Optional[str]) -> Dict[str, str]:
    """The Idempotency-Key of a write: the caller's, else a random UUID, the same on every retry."""
    return {"Idempotency-Key": key or str(uuid.uuid4())}


def clean(params: Mapping[str, Any]) -> Dict[str, Any]:
    """Query parameters without the ones left out."""
    return {k: v for k, v in params.items() if v is not None and v is not NOT_GIVEN}


def attempt_timeout(config: Config, spec: RequestSpec) -> httpx.Timeout:
    """The httpx timeout of one attempt: the call's, else the client's. An event stream's reads
    wait at least STREAM_READ_TIMEOUT (keep-alives come every 15 s; the events may take minutes)."""
    chosen = config.timeout if spec.timeout is NOT_GIVEN else spec.timeout
    timeout = chosen if isinstance(chosen, httpx.Timeout) else httpx.Timeout(chosen)
    if spec.stream and timeout.read is not None and timeout.read < STREAM_READ_TIMEOUT:
        timeout = httpx.Timeout(connect=timeout.connect, read=STREAM_READ_TIMEOUT, write=timeout.write, pool=timeout.pool)
    return timeout


def backoff(retry: int, base_delay: float, max_delay: float) -> float:
    """Exponential backoff with "equal jitter": half the step fixed, half random."""
    step = min(max_delay, base_delay * 2**retry)
    return step / 2 + random.random() * step / 2


def should_retry(spec: RequestSpec, response: httpx.Response) -> bool:
    """A 429 always (refused before any work); a 5xx, or a 409 ``idempotency_conflict`` (the first
    attempt of this key is still running), only when the request is repeatable. The body must be read."""
    if response.status_code == 429:
        return True
    if not spec.repeatable:
        return False
    if response.status_code >= 500:
        return True
    if response.status_code == 409 and "Idempotency-Key" in spec.headers:
        try:
            body = response.json()
        except ValueError:
            return False
        return isinstance(body, dict) and isinstance(body.get("error"), dict) and body["error"].get("code") == "idempotency_conflict"
    return False


def transport_error(config: Config, spec: RequestSpec, error: Exception) -> DeepResearchError:
    if isinstance(error, httpx.TimeoutException):
        return APITimeoutError(
            f"{spec.method} {config.base_url}{spec.path} did not answer in time ({type(error).__name__}).",
            status=0,
            code="timeout",
        )
    return APIConnectionError(f"Could not reach {config.base_url}: {error or type(error).__name__}", status=0, code="network_error")


class APIResponse(Generic[T]):
    """A call's HTTP response: its status, headers and request id, and ``parse()`` for the data."""

    def __init__(self, response: httpx.Response) -> None:
        self.http_response = response

    @property
    def status_code(self) -> int:
        return self.http_response.status_code

    @property
    def headers(self) -> httpx.Headers:
        return self.http_response.headers

    @property
    def request_id(self) -> Optional[str]:
        """``X-Request-Id``: quote it to support."""
        return self.http_response.headers.get("x-request-id")

    def parse(self) -> T:
        """The JSON body (typed by the call: a ResearchResult, a list of ResearchLogRow, ...)."""
        return self.http_response.json()

    def __repr__(self) -> str:
        return f"<APIResponse [{self.status_code}] request_id={self.request_id!r}>"


def ensure_ok(response: httpx.Response) -> None:
    """Raises the error of its kind for a non-2xx response (whose body has been read)."""
    if response.status_code >= 400:
        raise error_from_response(response)


def next_paging(link: Optional[str]) -> Optional[Dict[str, int]]:
    """The next page's ``limit`` and ``offset`` from a ``Link: <url>; rel="next"`` header (RFC 8288),
    or None on the last page. Only those two are taken: the next request goes to the client's own
    base URL, so a Link naming another host never receives the key."""
    for target, params in re.findall(r"<([^>]*)>([^<]*)", link or ""):
        rel = re.search(r';\s*rel\s*=\s*("[^"]*"|[^;,\s]*)', params, re.I)
        if not rel or "next" not in rel.group(1).replace('"', "").lower().split():
            continue
        query = parse_qs(urlsplit(target).query)
        try:
            limit = int(query["limit"][0])
            offset = int(query["offset"][0])
        except (KeyError, ValueError, IndexError):
            return None
        return {"limit": limit, "offset": offset} if limit > 0 and offset >= 0 else None
    return None


@dataclass
class SseMessage:
    id: Optional[str]
    event: str
    data: str


class SseParser:
    """An incremental text/event-stream parser (the WHATWG rules): lines end with LF, CRLF or CR,
    even split across chunks; ``:`` lines are comments (keep-alives); an event is dispatched at a
    blank line, so a frame cut off by a dropped connection is never dispatched."""

    def __init__(self) -> None:
        self._buffer = ""
        self._data: List[str] = []
        self._event = ""
        self._id: Optional[str] = None
        import codecs

        self._decoder = codecs.getincrementaldecoder("utf-8")("replace")

    def push(self, chunk: Union[bytes, str]) -> List[SseMessage]:
        self._buffer += chunk if isinstance(chunk, str) else self._decoder.decode(chunk)
        messages: List[SseMessage] = []
        while True:
            match = re.search(r"\r\n|\r|\n", self._buffer)
            # A CR at the very end may be the first half of a CRLF: wait for the next chunk.
            if not match or (match.group() == "\r" and match.start() == len(self._buffer) - 1):
                break
            line = self._buffer[: match.start()]
            self._buffer = self._buffer[match.end() :]
            message = self._line(line)
            if message:
                messages.append(message)
        return messages

    def end(self) -> List[SseMessage]:
        """The stream ended: a trailing CR ends its line; an unfinished event is dropped."""
        messages = self.push("\n") if self._buffer.endswith("\r") else []
        self._buffer = ""
        self._data = []
        self._event = ""
        return messages

    def _line(self, line: str) -> Optional[SseMessage]:
        if line == "":
            if not self._data:
                self._event = ""
                return None
            message = SseMessage(self._id, self._event or "message", "\n".join(self._data))
            self._data = []
            self._event = ""
            return message
        if line.startswith(":"):
            return None
        name, _, value = line.partition(":")
        if value.startswith(" "):
            value = value[1:]
        if name == "data":
            self._data.append(value)
        elif name == "event":
            self._event = value
        elif name == "id" and "\0" not in value:
            self._id = value
        return None


EVENT_NAMES = ("status", "progress", "source", "error", "result")
TERMINAL_STATUSES = ("succeeded", "failed", "cancelled")


def typed_event(message: SseMessage) -> Optional[Dict[str, Any]]:
    """A ResearchEvent (``{"id", "event", "data"}``), or None for an event this version does not know."""
    import json

    if message.event not in EVENT_NAMES:
        return None
    try:
        data = json.loads(message.data)
    except ValueError:
        raise DeepResearchError(
            f"The {message.event} event {message.id} is not JSON: {message.data[:200]}", status=200, code="invalid_response"
        ) from None
    return {"id": int(message.id or 0), "event": message.event, "data": data}


def final_stream_error(error: BaseException) -> bool:
    """A 4xx other than 429 says reconnecting will not change anything (unknown job, refused key)."""
    return isinstance(error, DeepResearchError) and 400 <= error.status < 500 and error.status != 429


def stream_unavailable(error: BaseException) -> bool:
    """The stream, not the job, is in trouble (network, 5xx, 429): run() then polls."""
    return not isinstance(error, DeepResearchError) or error.status in (0, 429) or error.status >= 500


def research_body(
    question: str,
    *,
    mode: str = "standard",
    max_credits: Optional[int] = None,
    max_wallclock_secs: Optional[int] = None,
    include_domains: Optional[Sequence[str]] = None,
    exclude_domains: Optional[Sequence[str]] = None,
    collections: Optional[Sequence[str]] = None,
    web: Optional[bool] = None,
    previous_job_id: Optional[str] = None,
    response_schema: Optional[Mapping[str, Any]] = None,
    webhook_url: Optional[str] = None,
    webhook_events: Optional[Sequence[str]] = None,
    include_sources: bool = True,
    async_: Optional[bool] = None,
    plan_id: Optional[str] = None,
    queries: Optional[Sequence[str]] = None,
    sub_questions: Optional[Sequence[str]] = None,
) -> Dict[str, Any]:
    """The REST body of a research request (``async_`` is the field ``async``)."""
    body: Dict[str, Any] = {"question": question, "mode": mode, "include_sources": include_sources}
    optional = {
        "max_credits": max_credits,
        "max_wallclock_secs": max_wallclock_secs,
        "include_domains": list(include_domains) if include_domains is not None else None,
        "exclude_domains": list(exclude_domains) if exclude_domains is not None else None,
        "collections": list(collections) if collections is not None else None,
        "web": web,
        "previous_job_id": previous_job_id,
        "response_schema": dict(response_schema) if response_schema is not None else None,
        "webhook_url": webhook_url,
        "webhook_events": list(webhook_events) if webhook_events is not None else None,
        "async": async_,
        "plan_id": plan_id,
        "queries": list(queries) if queries is not None else None,
        "sub_questions": list(sub_questions) if sub_questions is not None else None,
    }
    body.update({k: v for k, v in optional.items() if v is not None})
    return body


FileInput = Any
"""A file to upload: a path (str or os.PathLike), an open binary file, or ``(name, content)`` /
``(name, content, content_type)`` with bytes or text content."""

_TYPES = {".pdf": "application/pdf", ".html": "text/html", ".htm": "text/html", ".md": "text/markdown", ".txt": "text/plain", ".jsonl": "application/jsonl"}


def file_part(file: FileInput) -> Tuple[str, Tuple[str, bytes, str]]:
    """One multipart ``file`` part, read into memory so every retry sends the same bytes."""
    if isinstance(file, (str, os.PathLike)):
        path = os.fspath(file)
        with open(path, "rb") as handle:
            content = handle.read()
        name, kind = os.path.basename(path), None
    elif isinstance(file, tuple):
        name, data = file[0], file[1]
        kind = file[2] if len(file) > 2 else None
        content = data.encode("utf-8") if isinstance(data, str) else data.read() if hasattr(data, "read") else bytes(data)
    elif hasattr(file, "read"):
        content = file.read()
        content = content.encode("utf-8") if isinstance(content, str) else content
        name, kind = os.path.basename(getattr(file, "name", "upload.txt")), None
    else:
        raise TypeError("A file is a path, an open binary file, or (name, content[, content_type]).")
    if kind is None:
        kind = _TYPES.get(os.path.splitext(name)[1].lower(), "application/octet-stream")
    return ("file", (name, content, kind))
