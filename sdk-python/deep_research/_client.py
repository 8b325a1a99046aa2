"""The synchronous client."""

from __future__ import annotations

import time
from typing import Any, Callable, Dict, Generic, Iterator, List, Mapping, Optional, Sequence, TypeVar, Union, Unpack, cast

import httpx

from . import _specs
from ._core import (
    DEFAULT_MAX_RETRIES,
    DEFAULT_TIMEOUT,
    NOT_GIVEN,
    TERMINAL_STATUSES,
    APIResponse,
    Config,
    FileInput,
    RequestSpec,
    SseParser,
    Timeout,
    attempt_timeout,
    backoff,
    ensure_ok,
    final_stream_error,
    make_config,
    next_paging,
    research_body,
    should_retry,
    stream_unavailable,
    transport_error,
    typed_event,
)
from ._errors import APIConnectionError, DeepResearchError, retry_after_secs
from ._options import ResearchOptions, body_options
from .types import (
    AsyncAccepted,
    BalanceDto,
    CancelResult,
    Collection,
    CollectionDocument,
    CollectionDocumentSummary,
    Deleted,
    DocumentInput,
    IngestResult,
    JobEvent,
    ModePrice,
    Monitor,
    MonitorRun,
    MonitorSchedule,
    ResearchLogRow,
    ResearchPlan,
    ResearchQuote,
    ResearchResult,
    WebhookDelivery,
    WebhookSendResult,
)

T = TypeVar("T")


class SyncAPIClient:
    """Sends RequestSpecs: the API key on each, a per-attempt timeout, retries, errors by kind."""

    def __init__(self, config: Config, http_client: Optional[httpx.Client]) -> None:
        self.config = config
        self._owns_http = http_client is None
        self._http = http_client or httpx.Client()

    def close(self) -> None:
        if self._owns_http:
            self._http.close()

    def send(self, spec: RequestSpec) -> httpx.Response:
        """The response of the last attempt (2xx), or the error of its kind. Retries 429s (waiting
        what Retry-After asks, unless longer than max_delay), and where repeating is safe (a GET,
        PUT, DELETE or a request with an Idempotency-Key) 5xx, network errors and timeouts."""
        config = self.config
        retry = 0
        while True:
            last = retry >= config.max_retries
            request = self._http.build_request(
                spec.method,
                config.base_url + spec.path,
                params=spec.params,
                json=spec.json,
                files=spec.files,
                headers={**config.headers, **spec.headers},
                timeout=attempt_timeout(config, spec),
            )
            try:
                response = self._http.send(request, stream=spec.stream)
            except httpx.TransportError as error:
                problem = transport_error(config, spec, error)
                if last or not spec.repeatable:
                    raise problem from error
                time.sleep(backoff(retry, config.base_delay, config.max_delay))
                retry += 1
                continue
            if response.status_code >= 400:
                response.read()
                if not last and should_retry(spec, response):
                    asked = retry_after_secs(response.headers.get("retry-after"))
                    delay = backoff(retry, config.base_delay, config.max_delay) if asked is None else asked
                    if delay <= config.max_delay:
                        response.close()
                        time.sleep(delay)
                        retry += 1
                        continue
                response.close()
                ensure_ok(response)
            return response

    def request(self, spec: RequestSpec) -> APIResponse[Any]:
        return APIResponse(self.send(spec))


class SyncPage(Generic[T]):
    """One page of a list, and the way to the rest: iterate it for every item of every page (the
    next page is fetched, from the ``Link`` header, when this one runs out)."""

    def __init__(self, fetch: Callable[[Optional[Dict[str, int]]], APIResponse[List[T]]], paging: Optional[Dict[str, int]] = None) -> None:
        self._fetch = fetch
        self.response: APIResponse[List[T]] = fetch(paging)
        self.data: List[T] = self.response.parse()

    def has_next_page(self) -> bool:
        return bool(self.data) and next_paging(self.response.headers.get("link")) is not None

    def next_page(self) -> Optional["SyncPage[T]"]:
        paging = next_paging(self.response.headers.get("link")) if self.data else None
        return SyncPage(self._fetch, paging) if paging else None

    def iter_pages(self) -> Iterator["SyncPage[T]"]:
        page: Optional[SyncPage[T]] = self
        while page is not None:
            yield page
            page = page.next_page()

    def __iter__(self) -> Iterator[T]:
        for page in self.iter_pages():
            yield from page.data

    def __repr__(self) -> str:
        return f"<SyncPage of {len(self.data)} items, next page: {self.has_next_page()}>"


class _Resource:
    def __init__(self, client: SyncAPIClient, raw: bool = False) -> None:
        self._client = client
        self._raw = raw

    def _call(self, spec: RequestSpec) -> Any:
        response = self._client.request(spec)
        return response if self._raw else response.parse()

    def _page(self, spec_of: Callable[[Optional[Dict[str, int]]], RequestSpec]) -> Any:
        fetch = lambda paging: self._client.request(spec_of(paging))  # noqa: E731
        return fetch(None) if self._raw else SyncPage(fetch)

    def _whole(self, name: str) -> None:
        if self._raw:
            raise TypeError(f"{name}() makes several requests, so it has no raw response: use create(), get() and stream() for its parts.")


class Research(_Resource):
    """Research jobs: run, create, get, cancel, quote, list, stream."""

    @property
    def with_raw_response(self) -> "Research":
        """The same calls, answering an APIResponse (status, headers, request id, ``parse()``)."""
        return Research(self._client, raw=True)

    def create(
        self, question: str, *, idempotency_key: Optional[str] = None, timeout: Timeout = NOT_GIVEN, **options: Unpack[ResearchOptions]
    ) -> Union[ResearchResult, AsyncAccepted]:
        """Submits a job: the ResearchResult (HTTP 200, a short job) or the AsyncAccepted (202) with
        where to follow it (``"status_url" in answer``). An Idempotency-Key is always sent (a random
        UUID unless given) and reused by every retry: the same key and body return the original
        job, never a second charge."""
        return self._call(_specs.research_create(research_body(question, **body_options(options)), idempotency_key, timeout))

    def quote(self, question: str, *, timeout: Timeout = NOT_GIVEN, **options: Unpack[ResearchOptions]) -> ResearchQuote:
        """What submitting the same request would reserve, charge at most and run within, and
        whether the balance covers it now; nothing is reserved, written or charged."""
        return self._call(_specs.research_quote(research_body(question, **body_options(options)), timeout))

    def plan(self, question: str, *, timeout: Timeout = NOT_GIVEN, **options: Unpack[ResearchOptions]) -> ResearchPlan:
        """The plan submitting the same request would run (sub-questions, first-wave queries, envelope,
        quote) and its ``plan_id``; free, nothing runs. Edit it and run it with ``plan_id``, ``queries``
        and ``sub_questions``; a plan runs once and expires an hour after it was made."""
        return self._call(_specs.research_plan(research_body(question, **body_options(options)), timeout))

    def get(self, job_id: str, *, timeout: Timeout = NOT_GIVEN) -> ResearchResult:
        """A job as it is now: status, and once finished its brief, sources, cost and charge."""
        return self._call(_specs.research_get(job_id, timeout))

    def cancel(self, job_id: str, *, timeout: Timeout = NOT_GIVEN) -> CancelResult:
        """Cancels a job: charged for the work already done, the rest refunded. A job that had
        finished comes back unchanged with ``cancel_outcome`` ``already_finished``."""
        return self._call(_specs.research_cancel(job_id, timeout))

    def list(
        self, *, status: Optional[str] = None, limit: Optional[int] = None, offset: Optional[int] = None, timeout: Timeout = NOT_GIVEN
    ) -> SyncPage[ResearchLogRow]:
        """Your API jobs, newest first: a page (``.data``); iterate it for every job of every page."""
        base = {"status": status, "limit": limit, "offset": offset}
        return self._page(lambda paging: _specs.research_list({**base, **(paging or {})}, timeout))

    def deliveries(self, job_id: str, *, timeout: Timeout = NOT_GIVEN) -> List[WebhookDelivery]:
        """Every webhook delivery attempt of a job, oldest first."""
        return self._call(_specs.research_deliveries(job_id, timeout))

    def resend_delivery(self, job_id: str, delivery_id: str, *, timeout: Timeout = NOT_GIVEN) -> WebhookSendResult:
        """Sends a recorded delivery again, now: same id and body, signed afresh."""
        return self._call(_specs.research_resend(job_id, delivery_id, timeout))

    def stream(
        self,
        job_id: str,
        *,
        last_event_id: int = 0,
        max_reconnects: int = 5,
        reconnect_delay: float = 0.25,
        timeout: Timeout = NOT_GIVEN,
    ) -> Iterator[JobEvent]:
        """A job's events (``status``, ``progress``, ``source``, ``error``, then ``result``, the last),
        each ``{"id", "event", "data"}``. When the connection drops or ends early it reconnects with
        ``Last-Event-ID`` set to the last event yielded: the service replays only what came after,
        so no event is lost or repeated. Gives up after ``max_reconnects`` attempts in a row
        without a new event."""
        self._whole("stream")
        failures = 0
        problem: Optional[BaseException] = None
        while True:
            if failures:
                if failures > max_reconnects:
                    if isinstance(problem, DeepResearchError):
                        raise problem
                    raise APIConnectionError(
                        f"The event stream dropped {failures} times in a row without a new event (last event id {last_event_id}).",
                        status=0,
                        code="network_error",
                    ) from problem
                time.sleep(reconnect_delay * 2 ** (failures - 1))
            try:
                response = self._client.send(_specs.research_events(job_id, last_event_id, timeout))
            except DeepResearchError as error:
                if final_stream_error(error):
                    raise
                problem = error
                failures += 1
                continue
            parser = SseParser()
            try:
                chunks = response.iter_bytes()
                while True:
                    chunk = next(chunks, None)
                    for message in parser.end() if chunk is None else parser.push(chunk):
                        event = typed_event(message)
                        if event is None or event["id"] <= last_event_id:
                            continue
                        last_event_id = event["id"]
                        failures = 0
                        yield cast(JobEvent, event)
                        if event["event"] == "result":
                            return
                    if chunk is None:
                        break
                problem = None
            except httpx.HTTPError as error:
                # The connection dropped mid-stream: a cut frame is discarded, the next connection resumes after the last whole event.
                problem = error
            finally:
                response.close()
            failures += 1

    def run(
        self,
        question: str,
        *,
        idempotency_key: Optional[str] = None,
        on_event: Optional[Callable[[JobEvent], None]] = None,
        poll_interval: float = 2.0,
        max_reconnects: int = 5,
        cancel_on_interrupt: bool = True,
        timeout: Timeout = NOT_GIVEN,
        **options: Unpack[ResearchOptions],
    ) -> ResearchResult:
        """Researches a question and returns the final ResearchResult, whatever its terminal status
        (a failed job has ``error`` set and was not charged). A short job answers at once; a longer
        one (202) is followed over its event stream, or polled every ``poll_interval`` seconds when
        the stream cannot be followed. With ``on_event`` the job is submitted with ``async_=True``
        (unless given) so that its events can be seen. A KeyboardInterrupt while it waits on an
        asynchronous job cancels the job on the service (unless ``cancel_on_interrupt=False``) and
        is raised again."""
        self._whole("run")
        if on_event is not None:
            options.setdefault("async_", True)
        response = self._client.request(_specs.research_create(research_body(question, **body_options(dict(options))), idempotency_key, timeout))
        answer = response.parse()
        if response.status_code != 202:
            return answer
        job_id = answer["id"]
        try:
            return self._follow(job_id, on_event, poll_interval, max_reconnects, timeout)
        except KeyboardInterrupt:
            # Ctrl-C while waiting stops the job too (charged for the work done, the rest refunded).
            if cancel_on_interrupt:
                try:
                    self.cancel(job_id, timeout=timeout)
                except DeepResearchError:
                    pass
            raise

    def _follow(
        self, job_id: str, on_event: Optional[Callable[[JobEvent], None]], poll_interval: float, max_reconnects: int, timeout: Timeout
    ) -> ResearchResult:
        try:
            for event in self.stream(job_id, max_reconnects=max_reconnects, timeout=timeout):
                if on_event is not None:
                    on_event(event)
                if event["event"] == "result":
                    return cast(ResearchResult, event["data"])
        except DeepResearchError as error:
            if not stream_unavailable(error):
                raise
        while True:
            job = self.get(job_id, timeout=timeout)
            if job["status"] in TERMINAL_STATUSES:
                return job
            time.sleep(poll_interval)


class Collections(_Resource):
    """Your collections of documents (research searches them when a request names them)."""

    @property
    def with_raw_response(self) -> "Collections":
        return Collections(self._client, raw=True)

    def create(self, name: str, *, description: Optional[str] = None, timeout: Timeout = NOT_GIVEN) -> Collection:
        return self._call(_specs.collections_create(name, description, timeout))

    def list(self, *, limit: Optional[int] = None, offset: Optional[int] = None, timeout: Timeout = NOT_GIVEN) -> SyncPage[Collection]:
        """Your collections, newest first: a page; iterate it for all of them."""
        base = {"limit": limit, "offset": offset}
        return self._page(lambda paging: _specs.collections_list({**base, **(paging or {})}, timeout))

    def get(self, collection_id: str, *, timeout: Timeout = NOT_GIVEN) -> Collection:
        return self._call(_specs.collections_get(collection_id, timeout))

    def update(self, collection_id: str, *, name: Any = NOT_GIVEN, description: Any = NOT_GIVEN, timeout: Timeout = NOT_GIVEN) -> Collection:
        """Renames it and/or changes its description (``description=None`` removes it)."""
        return self._call(_specs.collections_update(collection_id, name, description, timeout))

    def delete(self, collection_id: str, *, timeout: Timeout = NOT_GIVEN) -> Deleted:
        """Deletes the collection and its documents."""
        return self._call(_specs.collections_delete(collection_id, timeout))

    def add_documents(
        self, collection_id: str, documents: Sequence[DocumentInput], *, idempotency_key: Optional[str] = None, timeout: Timeout = NOT_GIVEN
    ) -> IngestResult:
        """Adds (or replaces: same url, or same title without one) up to 100 documents given as text."""
        return self._call(_specs.collections_add_documents(collection_id, documents, idempotency_key, timeout))

    def upload(
        self, collection_id: str, files: Sequence[FileInput], *, idempotency_key: Optional[str] = None, timeout: Timeout = NOT_GIVEN
    ) -> IngestResult:
        """Uploads files (multipart, one ``file`` part each; .txt .md .html .pdf .jsonl, 20 MB each):
        their text is extracted and indexed. A file is a path, an open binary file, or
        ``(name, content[, content_type])``."""
        return self._call(_specs.collections_upload(collection_id, files, idempotency_key, timeout))

    def documents(
        self, collection_id: str, *, limit: Optional[int] = None, offset: Optional[int] = None, timeout: Timeout = NOT_GIVEN
    ) -> SyncPage[CollectionDocumentSummary]:
        """The collection's documents, newest first, without their text: a page; iterate it for all."""
        base = {"limit": limit, "offset": offset}
        return self._page(lambda paging: _specs.collections_documents(collection_id, {**base, **(paging or {})}, timeout))

    def document(self, collection_id: str, document_id: str, *, timeout: Timeout = NOT_GIVEN) -> CollectionDocument:
        return self._call(_specs.collections_document(collection_id, document_id, timeout))

    def delete_document(self, collection_id: str, document_id: str, *, timeout: Timeout = NOT_GIVEN) -> Deleted:
        return self._call(_specs.collections_delete_document(collection_id, document_id, timeout))


class Monitors(_Resource):
    """Questions researched again on a schedule, each run with what changed since the run before."""

    @property
    def with_raw_response(self) -> "Monitors":
        return Monitors(self._client, raw=True)

    def create(
        self,
        question: str,
        *,
        schedule: MonitorSchedule,
        mode: Optional[str] = None,
        webhook_url: Optional[str] = None,
        max_credits_per_run: Optional[int] = None,
        collections: Optional[Sequence[str]] = None,
        web: Optional[bool] = None,
        include_domains: Optional[Sequence[str]] = None,
        exclude_domains: Optional[Sequence[str]] = None,
        timeout: Timeout = NOT_GIVEN,
    ) -> Monitor:
        """``schedule``: ``{"every": "6h"}`` (hours or days, 1h to 30d) or ``{"cron": "0 9 * * 1"}`` (UTC, at most hourly)."""
        body = {
            "question": question,
            "schedule": schedule,
            "mode": mode,
            "webhook_url": webhook_url,
            "max_credits_per_run": max_credits_per_run,
            "collections": list(collections) if collections is not None else None,
            "web": web,
            "include_domains": list(include_domains) if include_domains is not None else None,
            "exclude_domains": list(exclude_domains) if exclude_domains is not None else None,
        }
        return self._call(_specs.monitors_create(body, timeout))

    def list(self, *, limit: Optional[int] = None, offset: Optional[int] = None, timeout: Timeout = NOT_GIVEN) -> SyncPage[Monitor]:
        """Your monitors, newest first: a page; iterate it for all of them."""
        base = {"limit": limit, "offset": offset}
        return self._page(lambda paging: _specs.monitors_list({**base, **(paging or {})}, timeout))

    def get(self, monitor_id: str, *, timeout: Timeout = NOT_GIVEN) -> Monitor:
        return self._call(_specs.monitors_get(monitor_id, timeout))

    def update(
        self,
        monitor_id: str,
        *,
        status: Any = NOT_GIVEN,
        schedule: Any = NOT_GIVEN,
        webhook_url: Any = NOT_GIVEN,
        max_credits_per_run: Any = NOT_GIVEN,
        timeout: Timeout = NOT_GIVEN,
    ) -> Monitor:
        """``status="paused"`` pauses, ``status="active"`` resumes; ``None`` clears webhook_url or max_credits_per_run."""
        changes = {"status": status, "schedule": schedule, "webhook_url": webhook_url, "max_credits_per_run": max_credits_per_run}
        return self._call(_specs.monitors_update(monitor_id, changes, timeout))

    def pause(self, monitor_id: str, *, timeout: Timeout = NOT_GIVEN) -> Monitor:
        return self.update(monitor_id, status="paused", timeout=timeout)

    def resume(self, monitor_id: str, *, timeout: Timeout = NOT_GIVEN) -> Monitor:
        return self.update(monitor_id, status="active", timeout=timeout)

    def delete(self, monitor_id: str, *, timeout: Timeout = NOT_GIVEN) -> Deleted:
        return self._call(_specs.monitors_delete(monitor_id, timeout))

    def runs(self, monitor_id: str, *, limit: Optional[int] = None, offset: Optional[int] = None, timeout: Timeout = NOT_GIVEN) -> SyncPage[MonitorRun]:
        """The monitor's runs, newest first, each with its ``diff``: a page; iterate it for all of them."""
        base = {"limit": limit, "offset": offset}
        return self._page(lambda paging: _specs.monitors_runs(monitor_id, {**base, **(paging or {})}, timeout))

    def run(self, monitor_id: str, *, timeout: Timeout = NOT_GIVEN) -> MonitorRun:
        """Starts a run now: a research job charged as one (402 and the monitor paused when the balance does not cover it)."""
        return self._call(_specs.monitors_run(monitor_id, timeout))


class Credits(_Resource):
    """Your credit balance."""

    @property
    def with_raw_response(self) -> "Credits":
        return Credits(self._client, raw=True)

    def get(self, *, timeout: Timeout = NOT_GIVEN) -> BalanceDto:
        """``{"credits", "usd"}``: what is left (credits reserved by running jobs already deducted)."""
        return self._call(_specs.credits_get(timeout))


class Modes(_Resource):
    @property
    def with_raw_response(self) -> "Modes":
        return Modes(self._client, raw=True)

    def list(self, *, timeout: Timeout = NOT_GIVEN) -> List[ModePrice]:
        """The research modes with their price and limits (``GET /api/billing/modes``)."""
        return self._call(_specs.modes_list(timeout))


class Webhooks(_Resource):
    @property
    def with_raw_response(self) -> "Webhooks":
        return Webhooks(self._client, raw=True)

    def test(self, url: str, *, timeout: Timeout = NOT_GIVEN) -> WebhookSendResult:
        """Sends a signed ``webhook.test`` event to ``url`` now and returns what it answered."""
        return self._call(_specs.webhooks_test(url, timeout))


class DeepResearch:
    """The synchronous client of the Deep Research API.

    >>> client = DeepResearch()  # DEEP_RESEARCH_API_KEY, DEEP_RESEARCH_BASE_URL
    >>> result = client.research.run("How did presidents describe tariffs?", mode="lite")

    Every call retries 429s (honouring Retry-After), and where repeating is safe 5xx, network
    errors and timeouts, with exponential backoff; it raises a DeepResearchError of its kind
    (RateLimitError, NotFoundError, ...) with ``status``, ``code`` and ``request_id``.
    """

    research: Research
    collections: Collections
    credits: Credits
    modes: Modes
    webhooks: Webhooks

    def __init__(
        self,
        *,
        api_key: Optional[str] = None,
        base_url: Optional[str] = None,
        timeout: Timeout = DEFAULT_TIMEOUT,
        max_retries: int = DEFAULT_MAX_RETRIES,
        base_delay: float = 0.5,
        max_delay: float = 60.0,
        default_headers: Optional[Mapping[str, str]] = None,
        http_client: Optional[httpx.Client] = None,
    ) -> None:
        """``api_key`` defaults to DEEP_RESEARCH_API_KEY, ``base_url`` to DEEP_RESEARCH_BASE_URL (else
        http://127.0.0.1:8787). ``timeout``: seconds each attempt waits for its response (or an
        httpx.Timeout). ``max_retries`` after the first attempt (0 turns retrying off);
        ``base_delay`` is the first backoff, doubled each retry with jitter, and ``max_delay`` the
        longest wait accepted (a Retry-After asking for more is raised at once). ``http_client``: an
        httpx.Client of your own (proxies, transports); it is not closed by ``close()``."""
        self._client = SyncAPIClient(make_config(api_key, base_url, timeout, max_retries, base_delay, max_delay, default_headers), http_client)
        self.research = Research(self._client)
        self.collections = Collections(self._client)
        self.monitors = Monitors(self._client)
        self.credits = Credits(self._client)
        self.modes = Modes(self._client)
        self.webhooks = Webhooks(self._client)

    @property
    def base_url(self) -> str:
        return self._client.config.base_url

    @property
    def max_retries(self) -> int:
        return self._client.config.max_retries

    @property
    def timeout(self) -> Timeout:
        return self._client.config.timeout

    def close(self) -> None:
        self._client.close()

    def __enter__(self) -> "DeepResearch":
        return self

    def __exit__(self, *exc: object) -> None:
        self.close()
