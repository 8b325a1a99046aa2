"""The shapes of the Deep Research API (every /v1 request, response and stream event), as
TypedDicts: the client returns the JSON it receives, typed by these.

Generated from the service's /openapi.json by scripts/generate_types.py; do not edit by hand.
tests/test_types_drift.py fails when they no longer match the running service."""

from typing import Any, Dict, List, Literal, NotRequired, Optional, TypedDict, Union

__all__ = [
    "AsyncAccepted",
    "Balance",
    "BalanceDto",
    "CancelResult",
    "ChargeBasis",
    "Citation",
    "Collection",
    "CollectionDocument",
    "CollectionDocumentSummary",
    "CreateCollectionRequest",
    "Deleted",
    "DocumentInput",
    "DocumentUpload",
    "Error",
    "ErrorBody",
    "IngestRequest",
    "IngestResult",
    "IngestResultDocument",
    "JobErrorEvent",
    "JobErrorEventData",
    "JobEvent",
    "JobProgress",
    "JobProgressEvent",
    "JobResultEvent",
    "JobSourceEvent",
    "JobStatusEvent",
    "JobStatusEventData",
    "ModePrice",
    "Monitor",
    "MonitorCreate",
    "MonitorDeleted",
    "MonitorDiff",
    "MonitorDiffAnswer",
    "MonitorRun",
    "MonitorSchedule",
    "MonitorScheduleSet",
    "MonitorSource",
    "MonitorUpdate",
    "Progress",
    "ResearchEvent",
    "ResearchLogRow",
    "ResearchPlan",
    "ResearchPlanEnvelope",
    "ResearchQuote",
    "ResearchQuoteEnvelope",
    "ResearchQuoteFollowUp",
    "ResearchRequest",
    "ResearchResult",
    "ShortAnswer",
    "Source",
    "SourceDto",
    "UpdateCollectionRequest",
    "WebhookDelivery",
    "WebhookSendResult",
    "WebhookTestRequest",
]


class AsyncAccepted(TypedDict):
    """A job accepted to run in the background (HTTP 202): where to follow it."""

    id: str
    status: Literal["pending"]
    status_url: str
    events_url: str


class BalanceDto(TypedDict):
    """A credit balance."""

    credits: int
    usd: str


class CancelResult(TypedDict):
    """The answer to a cancel: the job as the cancel left it (a ResearchResult) and what the cancel did."""

    id: str
    status: Literal["pending", "running", "succeeded", "failed", "cancelled"]
    question: str
    brief: Optional[str]
    answer: Optional["ShortAnswer"]
    typed: NotRequired[Any]
    sources: List["SourceDto"]
    citations: List["Citation"]
    credits_charged: int
    charge_basis: "ChargeBasis"
    cost_usd: float
    created_at: str
    completed_at: Optional[str]
    error: Optional[str]
    latency_ms: Optional[int]
    wave_count: Optional[int]
    previous_job_id: Optional[str]
    thread: List[str]
    partial: bool
    cancel_outcome: Literal["cancelled", "already_finished"]
    cancel_message: str


class ChargeBasis(TypedDict):
    """Why a job was charged what it was: the rule applied and a sentence with the figures."""

    rule: Literal["reserved", "mode_price", "nothing_addressed", "metered", "cancelled", "refunded", "follow_up"]
    reason: str


class Citation(TypedDict):
    """The exact passage of a source that one claim of the brief rests on."""

    claim: str
    source: int
    quote: str
    start: int
    end: int
    field: NotRequired[str]
    confidence: NotRequired[Literal["high", "medium", "low"]]


class Collection(TypedDict):
    """A collection of your own documents."""

    id: str
    name: str
    description: Optional[str]
    document_count: int
    bytes: int
    created_at: str
    updated_at: str


class CollectionDocument(TypedDict):
    """A document of a collection, with its text."""

    id: str
    title: str
    url: Optional[str]
    bytes: int
    metadata: Optional[Dict[str, Any]]
    created_at: str
    updated_at: str
    text: str


class CollectionDocumentSummary(TypedDict):
    """A document of a collection, without its text."""

    id: str
    title: str
    url: Optional[str]
    bytes: int
    metadata: Optional[Dict[str, Any]]
    created_at: str
    updated_at: str


class CreateCollectionRequest(TypedDict):
    """A new collection. Free: only adding documents is charged."""

    name: str
    description: NotRequired[str]


class Deleted(TypedDict):
    """A deletion that happened."""

    deleted: Literal[True]


class DocumentInput(TypedDict):
    """A document to add."""

    title: str
    text: str
    url: NotRequired[str]
    metadata: NotRequired[Dict[str, Any]]


class DocumentUpload(TypedDict):
    """Files to add, as multipart/form-data `file` parts."""

    file: NotRequired[List[str]]


class ErrorBody(TypedDict):
    """The error."""

    code: Literal["invalid_request", "impossible_budget", "document_limit_exceeded", "unauthorized", "invalid_credentials", "insufficient_credits", "storage_limit_exceeded", "forbidden", "account_suspended", "email_not_verified", "not_found", "email_taken", "idempotency_conflict", "payload_too_large", "unsupported_media_type", "idempotency_key_reused", "rate_limited", "payment_processor_not_configured", "internal", "payment_processor_error", "service_unavailable"]
    message: str
    details: NotRequired[Any]


class Error(TypedDict):
    """The body of every error response, whatever the operation. Every response, error or not, carries an `X-Request-Id` header."""

    error: ErrorBody


class IngestRequest(TypedDict):
    """Up to 100 documents. A document with the url (or, without a url, the title) of one already in the collection replaces it."""

    documents: List["DocumentInput"]


class IngestResultDocument(TypedDict):
    """IngestResultDocument"""

    id: str
    title: str
    url: Optional[str]
    bytes: int


class IngestResult(TypedDict):
    """What an ingest call wrote."""

    ingested: int
    documents: List[IngestResultDocument]


class JobErrorEventData(TypedDict):
    """Why the job failed."""

    code: Literal["job_failed"]
    message: str


class JobErrorEvent(TypedDict):
    """The job failed; sent just before the result of a failed job (whose `error` says the same)."""

    id: int
    event: Literal["error"]
    data: JobErrorEventData


class JobProgress(TypedDict):
    """What happened: see the event."""

    stage: Literal["planning", "searching", "reading", "analyzing", "reflecting", "synthesizing", "critic", "typed_output", "done"]
    wave: int
    searches: int
    pages: int
    cost_usd: float


class JobProgressEvent(TypedDict):
    """The job moved on a step (or a wave): its stage, wave, searches, pages and what it has spent so far."""

    id: int
    event: Literal["progress"]
    data: "JobProgress"


class JobResultEvent(TypedDict):
    """The job's final ResearchResult (succeeded, failed or cancelled): always the last event; the stream then ends."""

    id: int
    event: Literal["result"]
    data: "ResearchResult"


class JobSourceEvent(TypedDict):
    """A page the job read for the first time, as it is read."""

    id: int
    event: Literal["source"]
    data: "SourceDto"


class JobStatusEventData(TypedDict):
    """The job's new status."""

    status: Literal["pending", "running", "succeeded", "failed", "cancelled"]


class JobStatusEvent(TypedDict):
    """The job changed status: `pending` when accepted, `running` when it starts, then its terminal status just before its result."""

    id: int
    event: Literal["status"]
    data: JobStatusEventData


class ModePrice(TypedDict):
    """A research mode: its price and its limits."""

    mode: Literal["lite", "standard", "pro", "max"]
    credits: Optional[int]
    max_cost_usd: Optional[float]
    max_wallclock_secs: int
    max_sources: int
    max_searches: int
    max_waves: int
    critic: bool
    async_by_default: bool


class Monitor(TypedDict):
    """A question researched again on a schedule."""

    id: str
    question: str
    mode: str
    include_domains: Optional[List[str]]
    exclude_domains: Optional[List[str]]
    collections: Optional[List[str]]
    web: bool
    schedule: "MonitorScheduleSet"
    webhook_url: Optional[str]
    max_credits_per_run: Optional[int]
    credits_per_run: int
    status: Literal["active", "paused"]
    paused_reason: Optional[str]
    next_run_at: Optional[str]
    last_run_at: Optional[str]
    created_at: str
    updated_at: str


class MonitorCreate(TypedDict):
    """A question to research again on a schedule, and where to say what changed. Unknown fields are rejected (400)."""

    question: str
    mode: NotRequired[Literal["lite", "standard", "pro", "max"]]
    include_domains: NotRequired[List[str]]
    exclude_domains: NotRequired[List[str]]
    collections: NotRequired[List[str]]
    web: NotRequired[bool]
    schedule: "MonitorSchedule"
    webhook_url: NotRequired[Optional[str]]
    max_credits_per_run: NotRequired[Optional[int]]


class MonitorDeleted(TypedDict):
    """A monitor deleted."""

    deleted: Literal[True]


class MonitorDiffAnswer(TypedDict):
    """The short answer before and now (`answer.text` of each result; null when a run stated none), and whether it changed."""

    changed: bool
    previous: Optional[str]
    current: Optional[str]


class MonitorDiff(TypedDict):
    """What changed between two succeeded runs of a monitor."""

    previous_run_id: str
    changed: bool
    sources_added: List["MonitorSource"]
    sources_removed: List["MonitorSource"]
    answer: MonitorDiffAnswer
    claims_added: List[str]
    claims_withdrawn: List[str]


class MonitorRun(TypedDict):
    """One run of a monitor: a research job and what changed since the run before."""

    id: str
    monitor_id: str
    job_id: str
    trigger: Literal["schedule", "manual"]
    status: Literal["running", "succeeded", "failed", "cancelled"]
    credits_charged: Optional[int]
    changed: Optional[bool]
    diff: Optional["MonitorDiff"]
    created_at: str
    finished_at: Optional[str]


class MonitorSchedule(TypedDict):
    """Exactly one of `every` or `cron`."""

    every: NotRequired[str]
    cron: NotRequired[str]


class MonitorScheduleSet(TypedDict):
    """The schedule: one of the two is set, the other null."""

    every: Optional[str]
    cron: Optional[str]


class MonitorSource(TypedDict):
    """A source of a run, by URL."""

    url: str
    title: str


class MonitorUpdate(TypedDict):
    """What to change; at least one field. Unknown fields are rejected (400)."""

    status: NotRequired[Literal["active", "paused"]]
    schedule: NotRequired["MonitorSchedule"]
    webhook_url: NotRequired[Optional[str]]
    max_credits_per_run: NotRequired[Optional[int]]


class ResearchLogRow(TypedDict):
    """A research job in a list: its figures and where it came from, without the brief."""

    id: str
    created_at: str
    status: Literal["pending", "running", "succeeded", "failed", "cancelled"]
    question: str
    credits_charged: int
    cost_usd_micros: int
    latency_ms: Optional[int]
    completed_at: Optional[str]
    source_count: Optional[int]
    wave_count: Optional[int]
    previous_job_id: Optional[str]
    plan_id: Optional[str]
    monitor_id: Optional[str]


class ResearchPlanEnvelope(TypedDict):
    """The limits the job would run within."""

    max_waves: int
    max_searches: int
    max_pages: int
    max_wallclock_secs: int


class ResearchPlan(TypedDict):
    """The plan a research job would run, to review and edit before running it. Making it charged nothing."""

    plan_id: str
    question: str
    mode: Literal["lite", "standard", "pro", "max"]
    planner: Literal["engine", "model"]
    sub_questions: List[str]
    queries: List[str]
    max_queries: int
    envelope: ResearchPlanEnvelope
    quote: "ResearchQuote"
    created_at: str
    expires_at: str


class ResearchQuoteEnvelope(TypedDict):
    """The limits the job would run within."""

    max_waves: int
    max_searches: int
    max_pages: int
    max_wallclock_secs: int


class ResearchQuoteFollowUp(TypedDict):
    """With `previous_job_id`: how the follow-up is priced. It starts from the previous job's evidence (never read again) and pays a quarter of the mode's price plus its own metered work, at most `credits_reserved`. Null for a request that follows no job."""

    previous_job_id: str
    thread: List[str]
    fresh_credits: int
    base_credits: Optional[int]
    max_work_credits: Optional[int]
    reason: str


class ResearchQuote(TypedDict):
    """The price of a research request before it runs: nothing is reserved, written or charged."""

    mode: Literal["lite", "standard", "pro", "max"]
    metered: bool
    credits_reserved: int
    max_charge_credits: int
    max_charge_usd: float
    envelope: ResearchQuoteEnvelope
    runs: Literal["sync", "async"]
    balance_credits: int
    covered: bool
    covered_by: Optional[Literal["balance", "plan_overage"]]
    follow_up: Optional[ResearchQuoteFollowUp]
    insufficient_credits: Optional[str]


ResearchRequest = TypedDict("ResearchRequest", {"question": str, "mode": NotRequired[Literal["lite", "standard", "pro", "max"]], "max_credits": NotRequired[Optional[int]], "max_wallclock_secs": NotRequired[Optional[int]], "response_schema": NotRequired[Optional[Dict[str, Any]]], "include_sources": NotRequired[bool], "async": NotRequired[bool], "webhook_url": NotRequired[Optional[str]], "webhook_events": NotRequired[List[Literal["research.started", "research.progress", "research.completed", "research.failed", "research.cancelled"]]], "include_domains": NotRequired[List[str]], "exclude_domains": NotRequired[List[str]], "collections": NotRequired[List[str]], "web": NotRequired[bool], "previous_job_id": NotRequired[str], "plan_id": NotRequired[str], "sub_questions": NotRequired[List[str]], "queries": NotRequired[List[str]]})
"""A research question and how to research it. Unknown fields are rejected (400)."""


class ResearchResult(TypedDict):
    """A research job and, once it succeeded, its brief, typed output, sources and citations."""

    id: str
    status: Literal["pending", "running", "succeeded", "failed", "cancelled"]
    question: str
    brief: Optional[str]
    answer: Optional["ShortAnswer"]
    typed: NotRequired[Any]
    sources: List["SourceDto"]
    citations: List["Citation"]
    credits_charged: int
    charge_basis: "ChargeBasis"
    cost_usd: float
    created_at: str
    completed_at: Optional[str]
    error: Optional[str]
    latency_ms: Optional[int]
    wave_count: Optional[int]
    previous_job_id: Optional[str]
    thread: List[str]
    partial: bool


class ShortAnswer(TypedDict):
    """The short answer to the question, with how far the sources read support it."""

    text: str
    confidence: Literal["high", "medium", "low"]
    probability: NotRequired[float]
    citations: List[int]


class SourceDto(TypedDict):
    """A source the brief cites."""

    url: str
    title: str
    domain: str
    published_at: NotRequired[str]
    author: NotRequired[str]
    summary: NotRequired[Optional[str]]
    from_job_id: NotRequired[str]


class UpdateCollectionRequest(TypedDict):
    """What to change: `name`, `description` or both (at least one)."""

    name: NotRequired[str]
    description: NotRequired[Optional[str]]


class WebhookDelivery(TypedDict):
    """One attempt to deliver a job's event to its `webhook_url`."""

    delivery_id: str
    event: str
    attempt: int
    status_code: Optional[int]
    error: Optional[str]
    duration_ms: int
    created_at: str


class WebhookSendResult(TypedDict):
    """The outcome of one attempt sent now (a test event or a resend): made once, not retried."""

    delivery_id: str
    event: str
    attempt: NotRequired[int]
    status_code: Optional[int]
    error: Optional[str]
    duration_ms: int


class WebhookTestRequest(TypedDict):
    """Where to send a `webhook.test` event."""

    url: str


JobEvent = Union[JobStatusEvent, JobProgressEvent, JobSourceEvent, JobErrorEvent, JobResultEvent]
"""One event of a job's stream, as an SSE frame: its `id`, its name on the `event` line and its JSON `data`. Ids increase; `result` is the last. Comment lines (`: ...`) carry no event: they open the stream and keep it alive."""


Balance = BalanceDto
Source = SourceDto
ResearchEvent = JobEvent
Progress = JobProgress
