"""The tool registry: calculators (and document search) as OpenAI-format tools.

In: plain typed functions. Out: `TOOLS` (name -> `Tool`), `tool_definitions()` in OpenAI function
format, and `call_tool(name, arguments)`, which validates the arguments against the function's own
signature and never raises: a bad argument comes back as
`{"error": {"code": "invalid_argument", "argument": ..., "message": ...}}`.
"""

from __future__ import annotations

import inspect
import json
from dataclasses import dataclass
from functools import cached_property
from typing import Annotated, Any, Callable

from pydantic import BaseModel, ConfigDict, Field, ValidationError, create_model

from nztax.calculators import CALCULATORS, ToolArgumentError
from nztax.rules import RulesError


@dataclass(frozen=True)
class Tool:
    """One tool: the function is the definition; schema and validation are derived from it."""

    fn: Callable[..., dict]

    @property
    def name(self) -> str:
        return self.fn.__name__

    @property
    def description(self) -> str:
        return " ".join(inspect.getdoc(self.fn).split())

    @cached_property
    def arguments_model(self) -> type[BaseModel]:
        fields: dict[str, Any] = {}
        for param in inspect.signature(self.fn, eval_str=True).parameters.values():
            default = ... if param.default is inspect.Parameter.empty else param.default
            fields[param.name] = (param.annotation, default)
        return create_model(
            f"{self.name}_arguments",
            __config__=ConfigDict(extra="forbid"),
            **fields,
        )

    @cached_property
    def _numeric_arguments(self) -> frozenset[str]:
        def numeric(prop: dict) -> bool:
            kinds = [prop.get("type")] + [p.get("type") for p in prop.get("anyOf", [])]
            return any(k in ("number", "integer") for k in kinds) or numeric(prop.get("items", {})) if prop else False

        props = self.arguments_model.model_json_schema().get("properties", {})
        return frozenset(name for name, prop in props.items() if numeric(prop))

    def definition(self) -> dict:
        schema = self.arguments_model.model_json_schema()
        schema.pop("title", None)
        for prop in schema.get("properties", {}).values():
            prop.pop("title", None)
        return {"type": "function", "function": {"name": self.name, "description": self.description, "parameters": schema}}

    def __call__(self, arguments: dict) -> dict:
        if not isinstance(arguments, dict):
            return _error("invalid_argument", None, "arguments must be a JSON object")
        for key, value in arguments.items():
            # JSON true/false is not a number, although pydantic would read it as 1/0
            # (also inside a list of amounts).
            values = value if isinstance(value, list) else [value]
            if key in self._numeric_arguments and any(isinstance(v, bool) for v in values):
                return _error("invalid_argument", key, f"{key}: expected a number, got {json.dumps(value)}")
        try:
            parsed = self.arguments_model.model_validate(arguments)
        except ValidationError as exc:
            return _validation_error(exc)
        try:
            return self.fn(**parsed.model_dump())
        except ToolArgumentError as exc:
            return _error("invalid_argument", exc.argument, f"{exc.argument}: {exc.message}")
        except RulesError as exc:
            return _error("rules_unavailable", None, str(exc))


def _validation_error(exc: ValidationError) -> dict:
    """The first bad argument, named. For an argument with several accepted shapes (a number or a
    list of numbers) pydantic reports each shape's failure; the deepest one says what is wrong."""
    errors = exc.errors()
    first_argument = errors[0]["loc"][0] if errors[0]["loc"] else None
    same = [e for e in errors if e["loc"] and e["loc"][0] == first_argument] or errors
    chosen = max(same, key=lambda e: sum(isinstance(p, int) for p in e["loc"]))
    argument = str(first_argument) if first_argument is not None else None
    where = argument or ""
    for part in chosen["loc"][1:]:
        if isinstance(part, int):
            where += f"[{part}]"
    problem = "unknown argument" if chosen["type"] == "extra_forbidden" else chosen["msg"]
    if chosen["type"] == "missing":
        problem = "required argument is missing"
    return _error("invalid_argument", argument, f"{where}: {problem}")


def _error(code: str, argument: str | None, message: str) -> dict:
    error = {"code": code, "message": message}
    if argument is not None:
        error["argument"] = argument
    return {"error": error}


def search_tax_documents(
    query: Annotated[str, Field(min_length=1, max_length=1000, description="What to look up in IRD guidance, guides and legislation.")],
    k: Annotated[int, Field(ge=1, le=10, description="How many passages to return.")] = 5,
    source_type_filter: Annotated[str | None, Field(description="Only this kind of source: ird_guidance, guide_pdf, legislation, qwba, interpretation_statement or tib.")] = None,
    tax_year_filter: Annotated[str | None, Field(description='Only passages that apply to this tax year "YYYY-YY" (passages with no year are kept).')] = None,
) -> dict:
    """Search IRD guidance, guides and legislation for passages about New Zealand personal income
    tax. Returns passages with their title, URL and section, to cite."""
    from nztax import retrieval  # the index is loaded only when a search is made

    return retrieval.search_tax_documents(query=query, k=k, source_type=source_type_filter, tax_year=tax_year_filter)


TOOLS: dict[str, Tool] = {t.name: t for t in map(Tool, (*CALCULATORS, search_tax_documents))}

# Argument names the tools took before they followed the seed's definitions; still accepted.
ARGUMENT_ALIASES: dict[str, dict[str, str]] = {
    "calculate_acc_levy": {"income": "annual_income"},
    "calculate_student_loan_repayment": {"income": "annual_income"},
    "search_tax_documents": {"source_type": "source_type_filter", "tax_year": "tax_year_filter"},
}


def canonical_arguments(name: str, arguments: dict) -> dict:
    """`arguments` with any alias renamed to the tool's own argument name (an explicit name wins)."""
    aliases = ARGUMENT_ALIASES.get(name)
    if not aliases or not isinstance(arguments, dict):
        return arguments
    out = {k: v for k, v in arguments.items() if k not in aliases or aliases[k] in arguments}
    for old, new in aliases.items():
        if old in arguments and new not in arguments:
            out[new] = arguments[old]
    return out


def tool_definitions(names: list[str] | None = None) -> list[dict]:
    """OpenAI function-format definitions, in registry order."""
    return [t.definition() for n, t in TOOLS.items() if names is None or n in names]


def call_tool(name: str, arguments: dict) -> dict:
    """Run a tool by name; any problem comes back as an `{"error": ...}` result."""
    tool = TOOLS.get(name)
    if tool is None:
        return _error("unknown_tool", None, f"unknown tool {name!r} (known: {', '.join(TOOLS)})")
    try:
        return tool(canonical_arguments(name, arguments))
    except Exception as exc:  # a tool failure must reach the caller (or the model) as a result
        return _error("tool_failed", None, f"{name} failed: {type(exc).__name__}: {exc}")
