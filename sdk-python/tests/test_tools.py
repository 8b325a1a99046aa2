"""Tool definitions: the shape each framework takes, the canonical JSON, and run_tool_call()."""

from __future__ import annotations

import json
from importlib import resources

import pytest

from deep_research import DeepResearch, tools
from deep_research.tools import ToolArgumentsError


def canonical():
    return json.loads(resources.files("deep_research").joinpath("tool_definition.json").read_text())


def test_the_canonical_definition() -> None:
    definition = canonical()
    assert tools.tool_definition() == definition
    assert definition["name"] == "deep_research" == tools.RESEARCH_TOOL_NAME
    assert definition["description"].startswith("Research a question across many sources and return a cited brief")
    parameters = definition["parameters"]
    assert parameters["type"] == "object" and parameters["required"] == ["question"] and parameters["additionalProperties"] is False
    assert list(parameters["properties"]) == ["question", "mode", "include_domains", "exclude_domains"]
    assert parameters["properties"]["mode"]["enum"] == ["lite", "standard", "pro"]
    tools.tool_definition()["parameters"]["required"].append("mode")
    assert tools.tool_definition() == definition  # a copy each time


def test_the_prices_in_the_description_are_the_services(client: DeepResearch) -> None:
    modes = {m["mode"]: m["credits"] for m in client.modes.list()}
    fixed = [name for name, credits in modes.items() if credits is not None]
    assert tools.RESEARCH_TOOL_MODES == fixed
    assert f"Each call costs credits ({', '.join(f'{m} {modes[m]}' for m in fixed)})." in canonical()["description"]


def test_openai_chat_completions_shape() -> None:
    tool = tools.openai_tool()
    assert set(tool) == {"type", "function"} and tool["type"] == "function"
    assert tool["function"] == canonical()
    strict = tools.openai_tool(strict=True)["function"]
    assert strict["strict"] is True
    assert strict["parameters"]["required"] == ["question", "mode", "include_domains", "exclude_domains"]
    assert strict["parameters"]["properties"]["mode"] == {**canonical()["parameters"]["properties"]["mode"], "type": ["string", "null"], "enum": ["lite", "standard", "pro", None]}
    assert strict["parameters"]["properties"]["question"]["type"] == "string"


def test_openai_responses_shape() -> None:
    tool = tools.openai_responses_tool()
    assert set(tool) == {"type", "name", "description", "parameters", "strict"}
    assert tool["type"] == "function" and tool["strict"] is False
    assert {k: tool[k] for k in ("name", "description", "parameters")} == canonical()
    assert tools.openai_responses_tool(strict=True)["strict"] is True


def test_anthropic_shape() -> None:
    tool = tools.anthropic_tool()
    assert set(tool) == {"name", "description", "input_schema"}
    assert tool == {"name": canonical()["name"], "description": canonical()["description"], "input_schema": canonical()["parameters"]}
    assert tool["input_schema"]["type"] == "object"  # Anthropic requires an object schema


def test_run_tool_call_runs_the_research_and_answers_what_the_model_reads(client: DeepResearch) -> None:
    before = client.credits.get()["credits"]
    output = tools.run_tool_call(client, json.dumps({"question": "How did presidents describe tariffs in the 19th century?", "mode": "lite"}))
    assert output["status"] == "succeeded" and output["credits_charged"] == 15
    assert output["sources"] and [s["n"] for s in output["sources"]] == list(range(1, len(output["sources"]) + 1))
    assert all(set(s) == {"n", "title", "url"} for s in output["sources"])
    assert "[1]" in output["brief"] and "error" not in output
    if output["answer"] is not None:
        assert min(output["answer"]["cites"]) >= 1
    job = client.research.get(output["job_id"])
    assert tools.research_tool_output(job) == output
    json.dumps(output)  # what the model reads back is JSON
    # An Anthropic tool_use input is an object; strict-mode nulls mean "not given" (the caller's mode).
    second = tools.run_tool_call(client, {"question": "What did presidents say about tariffs?", "mode": None, "include_domains": None}, mode="lite")
    assert client.research.get(second["job_id"])["credits_charged"] == 15
    assert client.credits.get()["credits"] == before - 30


def test_run_tool_call_refuses_bad_arguments_before_sending_anything(client: DeepResearch) -> None:
    before = client.credits.get()["credits"]
    for arguments, message in [
        ("not json", "not JSON"),
        ("[]", "expected an object"),
        ({}, "question: required"),
        ({"question": 3}, "question: expected a string"),
        ({"question": "q", "mode": "max"}, "mode: expected one of lite, standard, pro"),
        ({"question": "q", "include_domains": "gov"}, "include_domains: expected an array"),
        ({"question": "q", "exclude_domains": ["a", 1]}, "exclude_domains.1: expected a string"),
        ({"question": "q", "depth": 3}, "depth: unknown property"),
    ]:
        with pytest.raises(ToolArgumentsError, match=message):
            tools.run_tool_call(client, arguments)
    assert client.credits.get()["credits"] == before
