"""Writes deep_research/types.py from the service's /openapi.json: one TypedDict per schema that a
/v1 operation reaches (requests, responses, the events of a job's stream), with nested objects
named after their parent.

    /usr/bin/python3 sdk-python/scripts/generate_types.py http://127.0.0.1:8787/openapi.json

tests/test_types_drift.py checks the written types against the running service's document, so a
change of the API that is not regenerated fails the tests.
"""

from __future__ import annotations

import json
import keyword
import sys
import urllib.request
from pathlib import Path

OUT = Path(__file__).resolve().parent.parent / "deep_research" / "types.py"

# Public paths outside /v1 the client calls (the price list, client.modes.list()).
PUBLIC_PATHS = {"/api/billing/modes"}

# Friendlier names for a few schemas (the schema's own name stays as well).
ALIASES = {
    "Balance": "BalanceDto",
    "Source": "SourceDto",
    "ResearchEvent": "JobEvent",
    "Progress": "JobProgress",
}


def reached(document: dict) -> list[str]:
    """The component schemas a /v1 operation (or a PUBLIC_PATHS one) reaches, in a stable order."""
    schemas = document["components"]["schemas"]
    seen: list[str] = []

    def walk(node: object) -> None:
        if isinstance(node, dict):
            ref = node.get("$ref")
            if isinstance(ref, str) and ref.startswith("#/components/schemas/"):
                name = ref.rsplit("/", 1)[1]
                if name not in seen:
                    seen.append(name)
                    walk(schemas[name])
            for value in node.values():
                walk(value)
        elif isinstance(node, list):
            for value in node:
                walk(value)

    for path, operations in document["paths"].items():
        if path.startswith("/v1") or path in PUBLIC_PATHS:
            walk(operations)
    return sorted(seen)


def substantive(schema: dict) -> bool:
    """Whether an allOf part says anything about the shape (not just a description)."""
    return any(key in schema for key in ("$ref", "type", "properties", "allOf", "anyOf", "oneOf", "enum"))


# Nested objects whose parent + property name reads badly.
RENAMES = {"ErrorError": "ErrorBody"}


def camel(name: str) -> str:
    return "".join(part[:1].upper() + part[1:] for part in name.replace("-", "_").split("_"))


class Writer:
    def __init__(self, schemas: dict) -> None:
        self.schemas = schemas
        self.blocks: list[str] = []

    def annotation(self, schema: dict, owner: str, prop: str) -> str:
        """The Python type of a schema; nested objects become TypedDicts named owner + prop."""
        if "$ref" in schema:
            # Quoted: the class may be written further down.
            return json.dumps(schema["$ref"].rsplit("/", 1)[1])
        for combinator in ("anyOf", "oneOf"):
            if combinator in schema:
                options = [s for s in schema[combinator] if s.get("type") != "null"]
                nullable = len(options) < len(schema[combinator])
                inner = [self.annotation(s, owner, prop) for s in options]
                text = inner[0] if len(inner) == 1 else f"Union[{', '.join(inner)}]"
                return f"Optional[{text}]" if nullable else text
        if "allOf" in schema:
            parts = [s for s in schema["allOf"] if substantive(s)]
            if len(parts) == 1:
                return self.annotation(parts[0], owner, prop)
            return self.object(owner + camel(prop), schema, None)
        types = schema.get("type")
        if types is None:
            return "Any"
        if isinstance(types, str):
            types = [types]
        nullable = "null" in types
        kinds = [t for t in types if t != "null"]
        if len(kinds) != 1:
            raise SystemExit(f"{owner}.{prop}: cannot type {schema}")
        kind = kinds[0]
        if "enum" in schema:
            values = [v for v in schema["enum"] if v is not None]
            nullable = nullable or None in schema["enum"]
            text = f"Literal[{', '.join(json.dumps(v) if not isinstance(v, bool) else str(v) for v in values)}]"
        elif kind == "string":
            text = "str"
        elif kind == "integer":
            text = "int"
        elif kind == "number":
            text = "float"
        elif kind == "boolean":
            text = "bool"
        elif kind == "array":
            item_owner = owner + camel(prop)
            if item_owner.endswith("s"):
                item_owner = item_owner[:-1]
            text = f"List[{self.annotation(schema.get('items', {}), item_owner, '')}]"
        elif kind == "object":
            text = self.object(owner + camel(prop), schema, None) if schema.get("properties") else "Dict[str, Any]"
        else:
            raise SystemExit(f"{owner}.{prop}: unknown type {kind}")
        return f"Optional[{text}]" if nullable else text

    def fields(self, schema: dict, owner: str) -> tuple[list[tuple[str, str, bool]], str | None]:
        """(name, annotation, required) of an object schema, allOf merged in order."""
        if "allOf" in schema:
            merged: list[tuple[str, str, bool]] = []
            for part in schema["allOf"]:
                target = self.schemas[part["$ref"].rsplit("/", 1)[1]] if "$ref" in part else part
                if not substantive(target):
                    continue
                got, _ = self.fields(target, owner)
                merged = [f for f in merged if f[0] not in {g[0] for g in got}] + got
            return merged, None
        required = set(schema.get("required", []))
        out = [(name, self.annotation(prop, owner, name), name in required) for name, prop in schema.get("properties", {}).items()]
        return out, schema.get("description")

    def object(self, name: str, schema: dict, description: str | None) -> str:
        name = RENAMES.get(name, name)
        fields, own = self.fields(schema, name)
        doc = (description or own or schema.get("description") or name).split("\n")[0].replace('"""', "'")
        lines = []
        rendered = [(key, annotation if required else f"NotRequired[{annotation}]") for key, annotation, required in fields]
        if any(keyword.iskeyword(key) or not key.isidentifier() for key, _ in rendered):
            entries = ", ".join(f"{json.dumps(key)}: {annotation}" for key, annotation in rendered)
            lines.append(f"{name} = TypedDict({json.dumps(name)}, {{{entries}}})")
            lines.append(f'"""{doc}"""')
        else:
            lines.append(f"class {name}(TypedDict):")
            lines.append(f'    """{doc}"""')
            lines.append("")
            for key, annotation in rendered:
                lines.append(f"    {key}: {annotation}")
        self.blocks.append("\n".join(lines))
        return name

    def component(self, name: str) -> None:
        schema = self.schemas[name]
        if "oneOf" in schema or "anyOf" in schema:
            union = self.annotation(schema, name, "").replace('"', "")
            self.blocks.append(f"{name} = {union}\n\"\"\"{(schema.get('description') or name).splitlines()[0]}\"\"\"")
        else:
            self.object(name, schema, schema.get("description"))


def generate(document: dict) -> str:
    schemas = document["components"]["schemas"]
    writer = Writer(schemas)
    names = reached(document)
    # Unions refer to classes by name: write them after everything else.
    for name in [n for n in names if "oneOf" not in schemas[n] and "anyOf" not in schemas[n]]:
        writer.component(name)
    for name in [n for n in names if "oneOf" in schemas[n] or "anyOf" in schemas[n]]:
        writer.component(name)
    aliases = [f"{alias} = {target}" for alias, target in ALIASES.items() if target in names]
    exported = sorted({block.split("(")[0].split(" ")[-1] if block.startswith("class ") else block.split(" ")[0] for block in writer.blocks} | set(ALIASES))
    header = (
        '"""The shapes of the Deep Research API (every /v1 request, response and stream event), as\n'
        "TypedDicts: the client returns the JSON it receives, typed by these.\n\n"
        "Generated from the service's /openapi.json by scripts/generate_types.py; do not edit by hand.\n"
        'tests/test_types_drift.py fails when they no longer match the running service."""\n\n'
        "from typing import Any, Dict, List, Literal, NotRequired, Optional, TypedDict, Union\n"
    )
    body = "\n\n\n".join(writer.blocks)
    all_line = "__all__ = [\n" + "".join(f"    {json.dumps(n)},\n" for n in exported) + "]\n"
    return f"{header}\n{all_line}\n\n{body}\n\n\n" + "\n".join(aliases) + "\n"


def main() -> None:
    source = sys.argv[1] if len(sys.argv) > 1 else "http://127.0.0.1:8787/openapi.json"
    if source.startswith("http"):
        with urllib.request.urlopen(source) as response:
            document = json.load(response)
    else:
        document = json.loads(Path(source).read_text())
    OUT.write_text(generate(document))
    print(f"wrote {OUT}")


if __name__ == "__main__":
    main()
