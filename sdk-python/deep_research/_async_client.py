"""The asynchronous client: the same calls as the sync one, awaited."""

from __future__ import annotations

import asyncio
from typing import Any, AsyncIterator, Awaitable, Callable, Dict, Generator, Generic, List, Mapping, Optional, Sequence, TypeVar, Union, Unpack, cast

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


class AsyncAPIClient:
    """Sends RequestSpecs over an httpx.AsyncClient, as SyncAPIClient does."""

    def __init__(self, config: Config, http_client: Optional[httpx.AsyncClient]) -> None:
        self.config = config
        self._owns_http = http_client is None
        self._http = http_client or httpx.AsyncClient()

    async def close(self) -> None:
        if self._owns_http:
            await self._http.aclose()

    async def send(self, spec: RequestSpec) -> httpx.Response:
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
                response = await self._http.send(request, stream=spec.stream)
            except httpx.TransportError as error:
                problem = transport_error(config, spec, error)
                if last or not spec.repeatable:
                    raise problem from error
                await asyncio.sleep(backoff(retry, config.base_delay, config.max_delay))
                retry += 1
                continue
            if response.status_code >= 400:
                await response.aread()
                if not last and should_retry(spec, response):
                    asked = retry_after_secs(response.headers.get("retry-after"))
                    delay = backoff(retry, config.base_delay, config.max_delay) if asked is None else asked
                    if delay <= config.max_delay:
                        await response.aclose()
                        await asyncio.sleep(delay)
                        retry += 1
                        continue
                await response.aclose()
                ensure_ok(response)
            return response

    async def request(self, spec: RequestSpec) -> APIResponse[Any]:
        response = await self.send(spec)
        return APIResponse(response)


FetchPage = Callable[[Optional[Dict[str, int]]], Awaitable[APIResponse[List[T]]]]


class AsyncPage(Generic[T]):
    """One page of a list (``.data``, ``.response``); ``async for`` over it gives every item of every page."""

    def __init__(self, fetch: FetchPage[T], response: APIResponse[List[T]]) -> None:
        self._fetch = fetch
        self.response = response
        self.data: List[T] = response.parse()

    def has_next_page(self) -> bool:
        return bool(self.data) and next_paging(self.response.headers.get("link")) is not None

    async def next_page(self) -> Optional["AsyncPage[T]"]:
        paging = next_paging(self.response.headers.get("link")) if self.data else None
        return AsyncPage(self._fetch, await self._fetch(paging)) if paging else None

    async def iter_pages(self) -> AsyncIterator["AsyncPage[T]"]:
        page: Optional[AsyncPage[T]] = self
        while page is not None:
            yield page
            page = await page.next_page()

    async def __aiter__(self) -> AsyncIterator[T]:
        async for page in self.iter_pages():
            for item in page.data:
                yield item


class AsyncPaginator(Generic[T]):
    """What an async list call returns: awaited, the first AsyncPage; ``async for``, every item of every page."""

    def __init__(self, fetch: FetchPage[T]) -> None:
        self._fetch = fetch

    async def _first(self) -> AsyncPage[T]:
        return AsyncPage(self._fetch, await self._fetch(None))

    def __await__(self) -> Generator[Any, None, AsyncPage[T]]:
        return self._first().__await__()

    async def __aiter__(self) -> AsyncIterator[T]:
        page = await self._first()
        async for item in page:
            yield item


class _AsyncResource:
    def __init__(self, client: AsyncAPIClient, raw: bool = False) -> None:
        self._client = client
        self._raw = raw

    async def _call(self, spec: RequestSpec) -> Any:
        response = await self._client.request(spec)
        return response if self._raw else response.parse()

    def _page(self, spec_of: Callable[[Optional[Dict[str, int]]], RequestSpec]) -> Any:
        async def fetch(paging: Optional[Dict[str, int]]) -> APIResponse[Any]:
            return await self._client.request(spec_of(paging))

        return fetch(None) if self._raw else AsyncPaginator(fetch)

    def _whole(self, name: str) -> None:
        if self._raw:
            raise TypeError(f"{name}() makes several requests, so it has no raw response: use create(), get() and stream() for its parts.")


class AsyncResearch(_AsyncResource):
    """Research jobs: run, create, get, cancel, quote, list, stream (all awaited)."""

    @property
    def with_raw_response(self) -> "AsyncResearch":
        return AsyncResearch(self._client, raw=True)

    async def create(
        self, question: str, *, idempotency_key: Optional[str] = None, timeout: Timeout = NOT_GIVEN, **options: Unpack[ResearchOptions]
    ) -> Union[ResearchResult, AsyncAccepted]:
        return await self._call(_specs.research_create(research_body(question, **body_options(options)), idempotency_key, timeout))

    async def quote(self, question: str, *, timeout: Timeout = NOT_GIVEN, **options: Unpack[ResearchOptions]) -> ResearchQuote:
        return await self._call(_specs.research_quote(research_body(question, **body_options(options)), timeout))

    async def plan(self, question: str, *, timeout: Timeout = NOT_GIVEN, **options: Unpack[ResearchOptions]) -> ResearchPlan:
        return await self._call(_specs.research_plan(research_body(question, **body_options(options)), timeout))

    async def get(self, job_id: str, *, timeout: Timeout = NOT_GIVEN) -> ResearchResult:
        return await self._call(_specs.research_get(job_id, timeout))

    async def cancel(self, job_id: str, *, timeout: Timeout = NOT_GIVEN) -> CancelResult:
        return await self._call(_specs.research_cancel(job_id, timeout))

    def list(
        self, *, status: Optional[str] = None, limit: Optional[int] = None, offset: Optional[int] = None, timeout: Timeout = NOT_GIVEN
    ) -> AsyncPaginator[ResearchLogRow]:
        base = {"status": status, "limit": limit, "offset": offset}
        return self._page(lambda paging: _specs.research_list({**base, **(paging or {})}, timeout))

    async def deliveries(self, job_id: str, *, timeout: Timeout = NOT_GIVEN) -> List[WebhookDelivery]:
        return await self._call(_specs.research_deliveries(job_id, timeout))

    async def resend_delivery(self, job_id: str, delivery_id: str, *, timeout: Timeout = NOT_GIVEN) -> WebhookSendResult:
        return await self._call(_specs.research_resend(job_id, delivery_id, timeout))

    async def stream(
        self,
        job_id: str,
        *,
        last_event_id: int = 0,
        max_reconnects: int = 5,
        reconnect_delay: float = 0.25,
        timeout: Timeout = NOT_GIVEN,
    ) -> AsyncIterator[JobEvent]:
        """A job's events, resumed with Last-Event-ID after a dropped connection (see DeepResearch.research.stream)."""
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
                await asyncio.sleep(reconnect_delay * 2 ** (failures - 1))
            try:
                response = await self._client.send(_specs.research_events(job_id, last_event_id, timeout))
            except DeepResearchError as error:
                if final_stream_error(error):
                    raise
                problem = error
                failures += 1
                continue
            parser = SseParser()
            try:
                chunks = response.aiter_bytes().__aiter__()
                while True:
                    try:
                        chunk: Optional[bytes] = await chunks.__anext__()
                    except StopAsyncIteration:
                        chunk = None
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
                problem = error
            finally:
                await response.aclose()
            failures += 1

    async def run(
        self,
        question: str,
        *,
        idempotency_key: Optional[str] = None,
        on_event: Optional[Callable[[JobEvent], Any]] = None,
        poll_interval: float = 2.0,
        max_reconnects: int = 5,
        cancel_on_interrupt: bool = True,
        timeout: Timeout = NOT_GIVEN,
        **options: Unpack[ResearchOptions],
    ) -> ResearchResult:
        """Researches a question and returns the final ResearchResult (see DeepResearch.research.run).
        ``on_event`` may be a plain function or a coroutine function. Cancelling the task while it
        waits on an asynchronous job cancels the job on the service (unless ``cancel_on_interrupt=False``)."""
        self._whole("run")
        if on_event is not None:
            options.setdefault("async_", True)
        response = await self._client.request(
            _specs.research_create(research_body(question, **body_options(dict(options))), idempotency_key, timeout)
        )
        answer = response.parse()
        if response.status_code != 202:
            return answer
        job_id = answer["id"]
        try:
            return await self._follow(job_id, on_event, poll_interval, max_reconnects, timeout)
        except (asyncio.CancelledError, KeyboardInterrupt):
            # The task was cancelled while waiting: the job is cancelled too (charged for the work done).
            if cancel_on_interrupt:
                try:
                    await asyncio.shield(self.cancel(job_id, timeout=timeout))
                except (DeepResearchError, asyncio.CancelledError):
                    pass
            raise

    async def _follow(
        self, job_id: str, on_event: Optional[Callable[[JobEvent], Any]], poll_interval: float, max_reconnects: int, timeout: Timeout
    ) -> ResearchResult:
        try:
            async for event in self.stream(job_id, max_reconnects=max_reconnects, timeout=timeout):
                if on_event is not None:
                    called = on_event(event)
                    if asyncio.iscoroutine(called):
                        await called
                if event["event"] == "result":
                    return cast(ResearchResult, event["data"])
        except DeepResearchError as error:
            if not stream_unavailable(error):
                raise
        while True:
            job = await self.get(job_id, timeout=timeout)
            if job["status"] in TERMINAL_STATUSES:
                return job
            await asyncio.sleep(poll_interval)


class AsyncCollections(_AsyncResource):
    @property
    def with_raw_response(self) -> "AsyncCollections":
        return AsyncCollections(self._client, raw=True)

    async def create(self, name: str, *, description: Optional[str] = None, timeout: Timeout = NOT_GIVEN) -> Collection:
        return await self._call(_specs.collections_create(name, description, timeout))

    def list(self, *, limit: Optional[int] = None, offset: Optional[int] = None, timeout: Timeout = NOT_GIVEN) -> AsyncPaginator[Collection]:
        base = {"limit": limit, "offset": offset}
        return self._page(lambda paging: _specs.collections_list({**base, **(paging or {})}, timeout))

    async def get(self, collection_id: str, *, timeout: Timeout = NOT_GIVEN) -> Collection:
        return await self._call(_specs.collections_get(collection_id, timeout))

    async def update(self, collection_id: str, *, name: Any = NOT_GIVEN, description: Any = NOT_GIVEN, timeout: Timeout = NOT_GIVEN) -> Collection:
        return await self._call(_specs.collections_update(collection_id, name, description, timeout))

    async def delete(self, collection_id: str, *, timeout: Timeout = NOT_GIVEN) -> Deleted:
        return await self._call(_specs.collections_delete(collection_id, timeout))

    async def add_documents(
        self, collection_id: str, documents: Sequence[DocumentInput], *, idempotency_key: Optional[str] = None, timeout: Timeout = NOT_GIVEN
    ) -> IngestResult:
        return await self._call(_specs.collections_add_documents(collection_id, documents, idempotency_key, timeout))

    async def upload(
        self, collection_id: str, files: Sequence[FileInput], *, idempotency_key: Optional[str] = None, timeout: Timeout = NOT_GIVEN
    ) -> IngestResult:
        return await self._call(_specs.collections_upload(collection_id, files, idempotency_key, timeout))

    def documents(
        self, collection_id: str, *, limit: Optional[int] = None, offset: Optional[int] = None, timeout: Timeout = NOT_GIVEN
    ) -> AsyncPaginator[CollectionDocumentSummary]:
        base = {"limit": limit, "offset": offset}
        return self._page(lambda paging: _specs.collections_documents(collection_id, {**base, **(paging or {})}, timeout))

    async def document(self, collection_id: str, document_id: str, *, timeout: Timeout = NOT_GIVEN) -> CollectionDocument:
        return await self._call(_specs.collections_document(collection_id, document_id, timeout))

    async def delete_document(self, collection_id: str, document_id: str, *, timeout: Timeout = NOT_GIVEN) -> Deleted:
        return await self._call(_specs.collections_delete_document(collection_id, document_id, timeout))


class AsyncMonitors(_AsyncResource):
    """Questions researched again on a schedule, each run with what changed since the run before."""

    @property
    def with_raw_response(self) -> "AsyncMonitors":
        return AsyncMonitors(self._client, raw=True)

    async def create(
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
        return await self._call(_specs.monitors_create(body, timeout))

    def list(self, *, limit: Optional[int] = None, offset: Optional[int] = None, timeout: Timeout = NOT_GIVEN) -> AsyncPaginator[Monitor]:
        """Your monitors, newest first: a page; iterate it for all of them."""
        base = {"limit": limit, "offset": offset}
        return self._page(lambda paging: _specs.monitors_list({**base, **(paging or {})}, timeout))

    async def get(self, monitor_id: str, *, timeout: Timeout = NOT_GIVEN) -> Monitor:
        return await self._call(_specs.monitors_get(monitor_id, timeout))

    async def update(
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
        return await self._call(_specs.monitors_update(monitor_id, changes, timeout))

    async def pause(self, monitor_id: str, *, timeout: Timeout = NOT_GIVEN) -> Monitor:
        return await self.update(monitor_id, status="paused", timeout=timeout)

    async def resume(self, monitor_id: str, *, timeout: Timeout = NOT_GIVEN) -> Monitor:
        return await self.update(monitor_id, status="active", timeout=timeout)

    async def delete(self, monitor_id: str, *, timeout: Timeout = NOT_GIVEN) -> Deleted:
        return await self._call(_specs.monitors_delete(monitor_id, timeout))

    def runs(self, monitor_id: str, *, limit: Optional[int] = None, offset: Optional[int] = None, timeout: Timeout = NOT_GIVEN) -> AsyncPaginator[MonitorRun]:
        """The monitor's runs, newest first, each with its ``diff``: a page; iterate it for all of them."""
        base = {"limit": limit, "offset": offset}
        return self._page(lambda paging: _specs.monitors_runs(monitor_id, {**base, **(paging or {})}, timeout))

    async def run(self, monitor_id: str, *, timeout: Timeout = NOT_GIVEN) -> MonitorRun:
        """Starts a run now: a research job charged as one (402 and the monitor paused when the balance does not cover it)."""
        return await self._call(_specs.monitors_run(monitor_id, timeout))


class AsyncCredits(_AsyncResource):
    @property
    def with_raw_response(self) -> "AsyncCredits":
        return AsyncCredits(self._client, raw=True)

    async def get(self, *, timeout: Timeout = NOT_GIVEN) -> BalanceDto:
        return await self._call(_specs.credits_get(timeout))


class AsyncModes(_AsyncResource):
    @property
    def with_raw_response(self) -> "AsyncModes":
        return AsyncModes(self._client, raw=True)

    async def list(self, *, timeout: Timeout = NOT_GIVEN) -> List[ModePrice]:
        return await self._call(_specs.modes_list(timeout))


class AsyncWebhooks(_AsyncResource):
    @property
    def with_raw_response(self) -> "AsyncWebhooks":
        return AsyncWebhooks(self._client, raw=True)

    async def test(self, url: str, *, timeout: Timeout = NOT_GIVEN) -> WebhookSendResult:
        return await self._call(_specs.webhooks_test(url, timeout))


class AsyncDeepResearch:
    """The asynchronous client (httpx.AsyncClient): the same resources and options as DeepResearch.

    >>> async with AsyncDeepResearch() as client:
    ...     result = await client.research.run("How did presidents describe tariffs?", mode="lite")
    """

    research: AsyncResearch
    collections: AsyncCollections
    credits: AsyncCredits
    modes: AsyncModes
    webhooks: AsyncWebhooks

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
        http_client: Optional[httpx.AsyncClient] = None,
    ) -> None:
        self._client = AsyncAPIClient(make_config(api_key, base_url, timeout, max_retries, base_delay, max_delay, default_headers), http_client)
        self.research = AsyncResearch(self._client)
        self.collections = AsyncCollections(self._client)
        self.monitors = AsyncMonitors(self._client)
        self.credits = AsyncCredits(self._client)
        self.modes = AsyncModes(self._client)
        self.webhooks = AsyncWebhooks(self._client)

    @property
    def base_url(self) -> str:
        return self._client.config.base_url

    async def close(self) -> None:
        await self._client.close()

    async def __aenter__(self) -> "AsyncDeepResearch":
        return self

    async def __aexit__(self, *exc: object) -> None:
        await self.close()
