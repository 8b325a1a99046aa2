"""Checks Python samples against the Python SDK (sdk-python) as a type checker would, for what a
sample's reader would trip on: each sample compiles; each name it imports from deep_research
exists; each call on the client (``client.research.run(...)``) names a method that exists and
passes arguments its signature takes (the keyword options of ``**options: Unpack[ResearchOptions]``
included); and each ``value["key"]`` read of a result names a key of its TypedDict (followed
through assignments, ``for`` loops, ``enumerate`` and nested keys). What it cannot type (a
function's parameters) it leaves alone.

stdin: a JSON object {label: source}; stdout: a JSON object {label: [problem, ...]}.
Run with Debian's Python and sdk-python on PYTHONPATH (test/sdk/python-samples.test.ts does).
"""

import ast
import inspect
import json
import sys
import typing
from typing import Any, Dict, List, Optional, Tuple, Union

import deep_research
from deep_research import DeepResearch

CLIENT = DeepResearch(api_key="dr_live_sample_check", base_url="http://127.0.0.1:9")
Value = Optional[Tuple[str, Any]]  # ("obj", a real object) or ("type", a type), or None: unknown


def hints(target: Any) -> Dict[str, Any]:
    try:
        return typing.get_type_hints(target, include_extras=True)
    except Exception:  # an annotation that does not resolve at run time: unknown
        return {}


def candidates(t: Any) -> List[Any]:
    """The types a value of type `t` may be: Optional, Union, NotRequired and Required unwrapped."""
    origin = typing.get_origin(t)
    if origin in (typing.NotRequired, typing.Required):
        return candidates(typing.get_args(t)[0])
    if origin is Union:
        return [c for arg in typing.get_args(t) if arg is not type(None) for c in candidates(arg)]
    return [t]


def element(value: Value) -> Value:
    """What iterating a value gives: T of SyncPage[T], Iterator[T], List[T]."""
    if value is None or value[0] != "type":
        return None
    for c in candidates(value[1]):
        args = typing.get_args(c)
        if args:
            return ("type", args[0])
    return None


class Checker(ast.NodeVisitor):
    def __init__(self) -> None:
        self.env: Dict[str, Value] = {}
        self.problems: List[str] = []

    def problem(self, node: ast.AST, text: str) -> None:
        self.problems.append(f"line {getattr(node, 'lineno', '?')}: {text}")

    def value_of(self, node: ast.expr) -> Value:
        if isinstance(node, ast.Name):
            return self.env.get(node.id)
        if isinstance(node, ast.Attribute):
            base = self.value_of(node.value)
            if base is None:
                return None
            if base[0] == "obj":
                if not hasattr(base[1], node.attr):
                    self.problem(node, f"{ast.unparse(node.value)} has no attribute {node.attr}")
                    return None
                return ("obj", getattr(base[1], node.attr))
            # A page's items: SyncPage[T].data is List[T].
            for c in candidates(base[1]):
                if typing.get_origin(c) is deep_research.SyncPage and node.attr == "data":
                    return ("type", List[typing.get_args(c)[0]])
            return None
        if isinstance(node, ast.Subscript):
            base = self.value_of(node.value)
            key = node.slice
            self.value_of(key)
            if base is None or base[0] != "type":
                return None
            if not (isinstance(key, ast.Constant) and isinstance(key.value, str)):
                return element(base) if any(typing.get_origin(c) is list for c in candidates(base[1])) else None  # a list's item
            dicts = [c for c in candidates(base[1]) if typing.is_typeddict(c)]
            if not dicts:
                return None
            fields = [hints(d)[key.value] for d in dicts if key.value in hints(d)]
            if not fields:
                self.problem(node, f'{ast.unparse(node.value)} has no key "{key.value}" ({" | ".join(d.__name__ for d in dicts)})')
                return None
            return ("type", Union[tuple(fields)] if len(fields) > 1 else fields[0])
        if isinstance(node, ast.Call):
            return self.call(node)
        self.generic_visit(node)  # an f-string, a comparison, ...: what it reads inside
        return None

    def call(self, node: ast.Call) -> Value:
        for arg in [*node.args, *(k.value for k in node.keywords)]:
            self.value_of(arg)  # report what the arguments read, too
        func = self.value_of(node.func)
        if func is None or func[0] != "obj" or not callable(func[1]):
            return None
        target = func[1]
        if any(isinstance(a, ast.Starred) for a in node.args) or any(k.arg is None for k in node.keywords):
            return None
        signature = inspect.signature(target)
        try:
            signature.bind(*[None] * len(node.args), **{k.arg: None for k in node.keywords})
        except TypeError as error:
            self.problem(node, f"{ast.unparse(node.func)}(): {error}")  # then typed as if it were right, to go on
        # Keyword options typed as **options: Unpack[SomeTypedDict] take only that TypedDict's keys.
        named = {p.name for p in signature.parameters.values() if p.kind is not inspect.Parameter.VAR_KEYWORD}
        extra = [k.arg for k in node.keywords if k.arg not in named]
        variadic = next((p for p in signature.parameters.values() if p.kind is inspect.Parameter.VAR_KEYWORD), None)
        if extra and variadic is not None:
            annotation = hints(target).get(variadic.name)
            if typing.get_origin(annotation) is typing.Unpack:
                allowed = hints(typing.get_args(annotation)[0])
                for name in extra:
                    if name not in allowed:
                        self.problem(node, f"{ast.unparse(node.func)}() takes no option {name}")
        if target is DeepResearch:
            return ("obj", CLIENT)
        returned = hints(target).get("return")
        return None if returned is None else ("type", returned)

    def assign(self, target: ast.expr, value: Value) -> None:
        if isinstance(target, ast.Name):
            self.env[target.id] = value

    def visit_ImportFrom(self, node: ast.ImportFrom) -> None:
        if node.module and node.module.split(".")[0] == "deep_research":
            module = __import__(node.module, fromlist=["_"])
            for alias in node.names:
                if not hasattr(module, alias.name):
                    self.problem(node, f"{node.module} has no {alias.name}")
                else:
                    thing = getattr(module, alias.name)
                    self.env[alias.asname or alias.name] = ("obj", thing)

    def visit_Assign(self, node: ast.Assign) -> None:
        value = self.value_of(node.value)
        for target in node.targets:
            self.assign(target, value)

    def visit_For(self, node: ast.For) -> None:
        iterable = node.iter
        if (
            isinstance(iterable, ast.Call)
            and isinstance(iterable.func, ast.Name)
            and iterable.func.id == "enumerate"
            and iterable.args
            and isinstance(node.target, ast.Tuple)
            and len(node.target.elts) == 2
        ):
            self.assign(node.target.elts[1], element(self.value_of(iterable.args[0])))
        else:
            self.assign(node.target, element(self.value_of(iterable)))
        for statement in [*node.body, *node.orelse]:
            self.visit(statement)

    def visit_Expr(self, node: ast.Expr) -> None:
        self.value_of(node.value) if isinstance(node.value, ast.Call) else self.generic_visit(node)

    def generic_visit(self, node: ast.AST) -> None:
        # Reads anywhere (print(...) arguments, f-strings, conditions): each Subscript and Call is typed.
        for child in ast.iter_child_nodes(node):
            if isinstance(child, (ast.Subscript, ast.Call, ast.Attribute)):
                self.value_of(child)
            else:
                self.visit(child)


def check(source: str) -> List[str]:
    try:
        compile(source, "<sample>", "exec")
    except SyntaxError as error:
        return [f"does not compile: {error}"]
    checker = Checker()
    checker.visit(ast.parse(source))
    return checker.problems


if __name__ == "__main__":
    samples: Dict[str, str] = json.load(sys.stdin)
    json.dump({label: check(source) for label, source in samples.items()}, sys.stdout)
