from __future__ import annotations

from typing import Any, Dict, List, Literal, Mapping, Optional, TypedDict

ResearchMode = Literal["lite", "standard", "pro", "max"]


class ResearchOptions(TypedDict, total=False):
    """What a research request may say besides its question (the REST fields; ``async_`` is ``async``)."""

    mode: ResearchMode
    """How much research to do (default ``standard``); ``max`` is metered and needs ``max_credits``."""
    max_credits: int
    max_wallclock_secs: int
    include_domains: List[str]
    exclude_domains: List[str]
    collections: List[str]
    """Search these collections of yours instead of the default search space."""
    web: bool
    """With ``collections``: search the default space as well."""
    previous_job_id: str
    """A follow-up of one of your succeeded jobs: it starts from that job's sources (never read again), searches only for what the question adds, and is priced by what it adds (``quote`` says so)."""
    response_schema: Mapping[str, Any]
    """A JSON Schema: the result's ``typed`` is an object that follows it."""
    webhook_url: str
    webhook_events: List[str]
    include_sources: bool
    async_: bool
    """Force a 202 (follow the job) even for a short job."""
    plan_id: str
    """Run a reviewed plan (``plan()``'s ``plan_id``, made for the same question and mode): its first wave searches exactly its queries."""
    queries: List[str]
    """With ``plan_id``: the first wave's searches as you edited them (1 to the plan's ``max_queries``)."""
    sub_questions: List[str]
    """With ``plan_id``: the plan's sub-questions as you edited them (at most 8)."""


def body_options(options: Dict[str, Any]) -> Dict[str, Any]:
    allowed = ResearchOptions.__annotations__.keys()
    unknown = [k for k in options if k not in allowed]
    if unknown:
        raise TypeError(f"Unknown research option(s): {', '.join(unknown)} (allowed: {', '.join(allowed)}).")
    return options


def optional_mode(mode: Optional[str]) -> Dict[str, Any]:
    return {} if mode is None else {"mode": mode}
