"""The research call as a tool an agent's model can call: one definition (``tool_definition.json``,
the same as the TypeScript SDK's ``researchToolDefinition()``), written out in the shapes of
OpenAI (Chat Completions and Responses) and Anthropic, and ``run_tool_call()``, which runs a call
the model made and returns what the model reads back.

    tools=[openai_tool()]                       # openai: client.chat.completions.create(...)
    tools=[anthropic_tool()]                    # anthropic: client.messages.create(...)
    output = run_tool_call(client, call.function.arguments)   # then send json.dumps(output) back
"""

from __future__ import annotations

import copy
import json
from importlib import resources
from typing import Any, Dict, List, Literal, Mapping, Optional, TypedDict, Union

from ._core import NOT_GIVEN, Timeout
from .types import ResearchResult

__all__ = [
    "RESEARCH_TOOL_NAME",
    "RESEARCH_TOOL_MODES",
    "ToolArgumentsError",
    "tool_definition",
    "openai_tool",
    "openai_responses_tool",
    "anthropic_tool",
    "parse_tool_arguments",
    "research_tool_output",
    "run_tool_call",
    "async_run_tool_call",
]

_DEFINITION: Dict[str, Any] = json.loads(resources.files(__package__).joinpath("tool_definition.json").read_text(encoding="utf-8"))

RESEARCH_TOOL_NAME: str = _DEFINITION["name"]
RESEARCH_TOOL_MODES: List[str] = list(_DEFINITION["parameters"]["properties"]["mode"]["enum"])
_PROPERTIES = list(_DEFINITION["parameters"]["properties"])


def tool_definition() -> Dict[str, Any]:
    """The canonical definition: ``name``, ``description`` and ``parameters`` (a JSON Schema); a fresh copy each call."""
    return copy.deepcopy(_DEFINITION)


def _parameters(strict: bool) -> Dict[str, Any]:
    parameters = copy.deepcopy(_DEFINITION["parameters"])
    if strict:
        # OpenAI's strict mode wants every property required: an optional one is then nullable, and null means "not given".
        for name, schema in parameters["properties"].items():
            if name not in _DEFINITION["parameters"]["required"]:
                schema["type"] = [schema["type"], "null"]
                if "enum" in schema:
                    schema["enum"] = [*schema["enum"], None]
        parameters["required"] = list(parameters["properties"])
    return parameters


def openai_tool(*, strict: bool = False) -> Dict[str, Any]:
    """The tool for OpenAI's Chat Completions API: ``{"type": "function", "function": {name, description, parameters}}``.
    The model's call is ``tool_calls[i].function.arguments`` (a JSON string). ``strict``: OpenAI's
    structured outputs (every property listed as required, the optional ones nullable)."""
    function: Dict[str, Any] = {"name": RESEARCH_TOOL_NAME, "description": _DEFINITION["description"], "parameters": _parameters(strict)}
    if strict:
        function["strict"] = True
    return {"type": "function", "function": function}


def openai_responses_tool(*, strict: bool = False) -> Dict[str, Any]:
    """The tool for OpenAI's Responses API: ``{"type": "function", name, description, parameters, strict}``.
    ``strict`` is always sent (the Responses API takes a function as strict when it is left out).
    The model's call is an output item of type ``function_call`` with ``arguments``."""
    return {
        "type": "function",
        "name": RESEARCH_TOOL_NAME,
        "description": _DEFINITION["description"],
        "parameters": _parameters(strict),
        "strict": strict,
    }


def anthropic_tool() -> Dict[str, Any]:
    """The tool for Anthropic's Messages API: ``{name, description, input_schema}``; the model's call
    is a ``tool_use`` block whose ``input`` is the arguments (an object)."""
    return {"name": RESEARCH_TOOL_NAME, "description": _DEFINITION["description"], "input_schema": _parameters(False)}


class ToolArgumentsError(ValueError):
    """The model's arguments do not match the tool's schema (or are not JSON); nothing was sent to the service."""

    def __init__(self, issues: List[Dict[str, Any]]) -> None:
        self.issues = issues
        text = "; ".join(f"{'.'.join(i['path'])}: {i['message']}" if i["path"] else i["message"] for i in issues)
        super().__init__(f"Invalid {RESEARCH_TOOL_NAME} arguments: {text}")


class ToolArguments(TypedDict, total=False):
    question: str
    mode: Literal["lite", "standard", "pro"]
    include_domains: List[str]
    exclude_domains: List[str]


def parse_tool_arguments(arguments: Union[str, bytes, Mapping[str, Any]]) -> ToolArguments:
    """A call's arguments as the model sent them (a JSON string from OpenAI, an object from
    Anthropic), checked against the schema; null for an optional property means "not given"."""
    value: Any = arguments
    if isinstance(arguments, (str, bytes)):
        try:
            value = json.loads(arguments)
        except ValueError:
            raise ToolArgumentsError([{"message": "not JSON", "path": []}]) from None
    if not isinstance(value, Mapping):
        raise ToolArgumentsError([{"message": "expected an object", "path": []}])
    issues: List[Dict[str, Any]] = [{"message": "unknown property", "path": [key]} for key in value if key not in _PROPERTIES]
    out: ToolArguments = {}
    question = value.get("question")
    if isinstance(question, str):
        out["question"] = question
    else:
        issues.append({"message": "required" if question is None and "question" not in value else "expected a string", "path": ["question"]})
    mode = value.get("mode")
    if mode is not None:
        if mode in RESEARCH_TOOL_MODES:
            out["mode"] = mode
        else:
            issues.append({"message": f"expected one of {', '.join(RESEARCH_TOOL_MODES)}", "path": ["mode"]})
    for key in ("include_domains", "exclude_domains"):
        items = value.get(key)
        if items is None:
            continue
        if not isinstance(items, list):
            issues.append({"message": "expected an array of strings", "path": [key]})
            continue
        bad = next((i for i, item in enumerate(items) if not isinstance(item, str)), None)
        if bad is not None:
            issues.append({"message": "expected a string", "path": [key, str(bad)]})
        else:
            out[key] = list(items)  # type: ignore[literal-required]
    if issues:
        raise ToolArgumentsError(issues)
    return out


def research_tool_output(result: ResearchResult) -> Dict[str, Any]:
    """A result as the model reads it: the short answer (``cites``: source numbers), the brief
    (Markdown whose claims cite ``[n]``), the numbered sources, the job id and what it cost."""
    answer = result.get("answer")
    output: Dict[str, Any] = {
        "job_id": result["id"],
        "status": result["status"],
        "answer": {"text": answer["text"], "confidence": answer["confidence"], "cites": [i + 1 for i in answer["citations"]]} if answer else None,
        "brief": result.get("brief"),
        "sources": [{"n": i + 1, "title": s["title"], "url": s["url"]} for i, s in enumerate(result.get("sources", []))],
        "credits_charged": result["credits_charged"],
    }
    if result.get("error") is not None:
        output["error"] = result["error"]
    if result.get("partial"):
        output["partial"] = True
    return output


def _call_options(arguments: ToolArguments, mode: Optional[str], extra: Dict[str, Any]) -> Dict[str, Any]:
    options = {k: v for k, v in extra.items() if v is not None}
    options["mode"] = arguments.get("mode") or mode or "standard"
    for key in ("include_domains", "exclude_domains"):
        if key in arguments:
            options[key] = arguments[key]  # type: ignore[literal-required]
    return options


def run_tool_call(
    client: Any,
    arguments: Union[str, bytes, Mapping[str, Any]],
    *,
    mode: Optional[str] = None,
    collections: Optional[List[str]] = None,
    web: Optional[bool] = None,
    max_wallclock_secs: Optional[int] = None,
    timeout: Timeout = NOT_GIVEN,
) -> Dict[str, Any]:
    """Runs a call the model made with ``client.research.run()`` (a DeepResearch) and returns what the
    model reads back (send ``json.dumps()`` of it as the tool result). The caller, not the model,
    decides ``mode`` when the model names none (default standard), ``collections``, ``web`` and the
    time limit. Raises ToolArgumentsError before anything is sent when the arguments do not match
    the schema, and the client's errors (InsufficientCreditsError, ...) when the service refuses;
    a job that failed is returned (``status: "failed"``, its ``error``, nothing charged)."""
    parsed = parse_tool_arguments(arguments)
    options = _call_options(parsed, mode, {"collections": collections, "web": web, "max_wallclock_secs": max_wallclock_secs})
    return research_tool_output(client.research.run(parsed["question"], timeout=timeout, **options))


async def async_run_tool_call(
    client: Any,
    arguments: Union[str, bytes, Mapping[str, Any]],
    *,
    mode: Optional[str] = None,
    collections: Optional[List[str]] = None,
    web: Optional[bool] = None,
    max_wallclock_secs: Optional[int] = None,
    timeout: Timeout = NOT_GIVEN,
) -> Dict[str, Any]:
    """run_tool_call() with an AsyncDeepResearch."""
    parsed = parse_tool_arguments(arguments)
    options = _call_options(parsed, mode, {"collections": collections, "web": web, "max_wallclock_secs": max_wallclock_secs})
    return research_tool_output(await client.research.run(parsed["question"], timeout=timeout, **options))
