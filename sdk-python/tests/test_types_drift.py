"""The typed shapes (deep_research/types.py) against the running service's /openapi.json: every
schema a /v1 operation (or the public price list) reaches is a TypedDict of that name, with every
property of the schema, no other, the same required ones, and a compatible type, nested objects
included. A change of the API that is not regenerated (scripts/generate_types.py) fails here."""

from __future__ import annotations

import types as pytypes
import typing
from typing import Any, Dict, List, Set, Union

import httpx
import pytest

from deep_research import types as dr_types

NoneType = type(None)
PUBLIC_PATHS = {"/api/billing/modes"}


@pytest.fixture(scope="module")
def document(base_url: str) -> Dict[str, Any]:
    # Held by the answer, not by httpx's 5-second default: the dev server's first /openapi.json
    # is built on demand, and on a busy machine it took longer (the suite failed on the timer).
    return httpx.get(f"{base_url}/openapi.json", timeout=None).json()


def reached(document: Dict[str, Any]) -> Set[str]:
    schemas = document["components"]["schemas"]
    seen: Set[str] = set()

    def walk(node: Any) -> None:
        if isinstance(node, dict):
            ref = node.get("$ref")
            if isinstance(ref, str) and ref.startswith("#/components/schemas/") and ref.rsplit("/", 1)[1] not in seen:
                seen.add(ref.rsplit("/", 1)[1])
                walk(schemas[ref.rsplit("/", 1)[1]])
            for value in node.values():
                walk(value)
        elif isinstance(node, list):
            for value in node:
                walk(value)

    for path, operations in document["paths"].items():
        if path.startswith("/v1") or path in PUBLIC_PATHS:
            walk(operations)
    return seen


def is_typeddict(value: Any) -> bool:
    return isinstance(value, type) and issubclass(value, dict) and hasattr(value, "__required_keys__")


def substantive(schema: Dict[str, Any]) -> bool:
    return any(key in schema for key in ("$ref", "type", "properties", "allOf", "anyOf", "oneOf", "enum"))


class Checker:
    def __init__(self, schemas: Dict[str, Any]) -> None:
        self.schemas = schemas
        self.checked: Set[str] = set()
        self.typeddicts: Set[type] = set()
        self.problems: List[str] = []

    def fail(self, where: str, message: str) -> None:
        self.problems.append(f"{where}: {message}")

    def split_optional(self, annotation: Any) -> tuple[Any, bool]:
        if typing.get_origin(annotation) in (Union, pytypes.UnionType):
            args = typing.get_args(annotation)
            if NoneType in args:
                rest = tuple(a for a in args if a is not NoneType)
                return (rest[0] if len(rest) == 1 else Union[rest]), True  # type: ignore[return-value]
        return annotation, False

    def component(self, name: str, where: str) -> None:
        cls = getattr(dr_types, name, None)
        if cls is None:
            self.fail(where, f"no type {name} in deep_research.types")
            return
        if name in self.checked:
            return
        self.checked.add(name)
        self.check(self.schemas[name], cls, name)

    def check(self, schema: Dict[str, Any], annotation: Any, where: str) -> None:
        if "$ref" in schema:
            name = schema["$ref"].rsplit("/", 1)[1]
            if getattr(annotation, "__name__", None) != name:
                self.fail(where, f"expected {name}, found {annotation!r}")
                return
            self.component(name, where)
            return
        for combinator in ("anyOf", "oneOf"):
            if combinator in schema:
                options = [s for s in schema[combinator] if s.get("type") != "null"]
                nullable = len(options) < len(schema[combinator])
                inner, optional = self.split_optional(annotation)
                if nullable != optional:
                    self.fail(where, f"nullable is {nullable} in the document, {optional} in the type")
                if len(options) == 1:
                    self.check(options[0], inner, where)
                else:
                    args = typing.get_args(inner)
                    if len(args) != len(options):
                        self.fail(where, f"{len(options)} alternatives in the document, {inner!r} in the type")
                    for option, arg in zip(options, args):
                        self.check(option, arg, where)
                return
        if "allOf" in schema:
            parts = [s for s in schema["allOf"] if substantive(s)]
            if len(parts) == 1:
                self.check(parts[0], annotation, where)
            else:
                self.object(self.merged(parts), annotation, where)
            return
        kinds = schema.get("type")
        if kinds is None and "enum" not in schema:
            if annotation is not Any:
                self.fail(where, f"any value in the document, {annotation!r} in the type")
            return
        kinds = [kinds] if isinstance(kinds, str) else list(kinds or [])
        nullable = "null" in kinds or None in schema.get("enum", [])
        inner, optional = self.split_optional(annotation)
        if nullable != optional:
            self.fail(where, f"nullable is {nullable} in the document, {optional} in the type ({annotation!r})")
        kind = next((k for k in kinds if k != "null"), None)
        if "enum" in schema:
            values = {v for v in schema["enum"] if v is not None}
            if typing.get_origin(inner) is not typing.Literal or set(typing.get_args(inner)) != values:
                self.fail(where, f"enum {sorted(values, key=str)} in the document, {inner!r} in the type")
            return
        simple = {"string": str, "integer": int, "number": float, "boolean": bool}
        if kind in simple:
            if inner is not simple[kind]:
                self.fail(where, f"{kind} in the document, {inner!r} in the type")
        elif kind == "array":
            if typing.get_origin(inner) is not list:
                self.fail(where, f"array in the document, {inner!r} in the type")
            else:
                self.check(schema.get("items", {}), typing.get_args(inner)[0], where + "[]")
        elif kind == "object":
            if schema.get("properties"):
                self.object(schema, inner, where)
            elif typing.get_origin(inner) is not dict:
                self.fail(where, f"a free-form object in the document, {inner!r} in the type")
        else:
            self.fail(where, f"unknown type {kind}")

    def merged(self, parts: List[Dict[str, Any]]) -> Dict[str, Any]:
        properties: Dict[str, Any] = {}
        required: List[str] = []
        for part in parts:
            target = self.schemas[part["$ref"].rsplit("/", 1)[1]] if "$ref" in part else part
            if "allOf" in target:
                target = self.merged([p for p in target["allOf"] if substantive(p)])
            properties.update(target.get("properties", {}))
            required += target.get("required", [])
        return {"type": "object", "properties": properties, "required": required}

    def object(self, schema: Dict[str, Any], cls: Any, where: str) -> None:
        if "allOf" in schema:
            schema = self.merged([p for p in schema["allOf"] if substantive(p)])
        if not is_typeddict(cls):
            self.fail(where, f"an object in the document, {cls!r} in the type")
            return
        self.typeddicts.add(cls)
        hints = typing.get_type_hints(cls)
        properties = schema.get("properties", {})
        missing = set(properties) - set(hints)
        extra = set(hints) - set(properties)
        if missing:
            self.fail(where, f"properties missing from {cls.__name__}: {sorted(missing)}")
        if extra:
            self.fail(where, f"properties of {cls.__name__} the document does not have: {sorted(extra)}")
        required = set(schema.get("required", []))
        if set(cls.__required_keys__) != required:
            self.fail(where, f"required {sorted(required)} in the document, {sorted(cls.__required_keys__)} in {cls.__name__}")
        for name in set(properties) & set(hints):
            self.check(properties[name], hints[name], f"{where}.{name}")


def test_every_v1_shape_is_typed_as_the_document_says(document: Dict[str, Any]) -> None:
    names = reached(document)
    assert {"ResearchResult", "ResearchQuote", "JobEvent", "Collection", "BalanceDto", "Error"} <= names
    checker = Checker(document["components"]["schemas"])
    for name in sorted(names):
        checker.component(name, name)
    assert checker.problems == [], "deep_research/types.py drifted from /openapi.json (regenerate: scripts/generate_types.py):\n" + "\n".join(checker.problems)
    # No type that the document does not have: every TypedDict of the module was reached.
    declared = {value for value in vars(dr_types).values() if is_typeddict(value) and value.__module__ == dr_types.__name__}
    assert declared - checker.typeddicts == set(), f"types no /v1 shape has: {sorted(c.__name__ for c in declared - checker.typeddicts)}"
    assert set(dr_types.__all__) >= {c.__name__ for c in declared}


def test_the_check_catches_a_drift(document: Dict[str, Any]) -> None:
    """The checker itself fails on a property added, removed, retyped or made optional."""
    schemas = document["components"]["schemas"]

    def problems(name: str, change) -> List[str]:
        import copy

        changed = copy.deepcopy(schemas)
        change(changed[name])
        checker = Checker(changed)
        checker.component(name, name)
        return checker.problems

    assert problems("BalanceDto", lambda s: None) == []
    assert any("missing" in p for p in problems("BalanceDto", lambda s: s["properties"].update(bonus={"type": "integer"})))
    assert any("does not have" in p for p in problems("BalanceDto", lambda s: s["properties"].pop("usd")))
    assert any("integer in the document" in p for p in problems("BalanceDto", lambda s: s["properties"].update(usd={"type": "integer"})))
    assert any("required" in p for p in problems("BalanceDto", lambda s: s["required"].remove("usd")))
    assert any("nullable" in p for p in problems("Collection", lambda s: s["properties"].update(name={"type": ["string", "null"]})))
    assert any("enum" in p for p in problems("ResearchResult", lambda s: s["properties"]["status"]["enum"].append("paused")))
