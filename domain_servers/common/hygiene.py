"""Argument hygiene and a small JSON-schema validator for the bounded schemas we publish.

The validator covers exactly the keywords our catalog uses, so every published bound is
enforced before a handler runs, with a message naming the offending argument.
"""

from __future__ import annotations

import json
import re
from functools import lru_cache
from typing import Any

from domain_servers.common.errors import invalid
from domain_servers.common.text import lone_surrogate, refusal

MAX_PAYLOAD_BYTES = 256 * 1024
MAX_DEPTH = 12
MAX_ITEMS = 1000
MAX_STRING = 65_536


def check_hygiene(arguments: Any, schema: dict[str, Any] | None = None) -> None:
    """Raise `invalid_request` when the arguments break the contract's generic limits. With
    the tool's input `schema`, a string past the generic limit is refused naming its own
    (tighter) bound, the one a caller has to meet."""
    if not isinstance(arguments, dict):
        raise invalid("arguments must be an object")
    _walk(arguments, 1, "arguments", schema or {})
    size = len(json.dumps(arguments, separators=(",", ":"), ensure_ascii=False).encode())
    if size > MAX_PAYLOAD_BYTES:
        raise invalid(f"arguments are {size} bytes; the limit is {MAX_PAYLOAD_BYTES}")


def _walk(value: Any, depth: int, path: str, schema: dict[str, Any]) -> None:
    if depth > MAX_DEPTH:
        raise invalid(f"{path} nests deeper than {MAX_DEPTH} levels")
    if isinstance(value, str):
        if len(value) > MAX_STRING:
            bound = min(schema.get("maxLength", MAX_STRING), MAX_STRING)
            raise invalid(f"{path} is longer than {bound} characters")
        _check_encodable(value, path)
    elif isinstance(value, dict):
        if len(value) > MAX_ITEMS:
            raise invalid(f"{path} has more than {MAX_ITEMS} entries")
        for key, item in value.items():
            if len(key) > MAX_STRING:
                raise invalid(f"a key in {path} is longer than {MAX_STRING} characters")
            _check_encodable(key, f"a key in {path}")
            _walk(item, depth + 1, f"{path}.{key}", _property(schema, key))
    elif isinstance(value, list):
        if len(value) > MAX_ITEMS:
            raise invalid(f"{path} has more than {MAX_ITEMS} items")
        for index, item in enumerate(value):
            _walk(item, depth + 1, f"{path}[{index}]", schema.get("items") or {})


def _property(schema: dict[str, Any], key: str) -> dict[str, Any]:
    if key in schema.get("properties", {}):
        return schema["properties"][key]
    extra = schema.get("additionalProperties")
    return extra if isinstance(extra, dict) else {}


def _check_encodable(value: str, path: str) -> None:
    if (surrogate := lone_surrogate(value)) is not None:
        raise invalid(f"{path} holds a lone surrogate ({surrogate}), which is not text")


@lru_cache(maxsize=256)
def _pattern(pattern: str) -> re.Pattern[str]:
    # JSON Schema patterns are ECMA-262, where a final `$` is the end of the input; Python's
    # `$` also matches before a trailing newline ("public\n" would pass), its `\Z` does not.
    if pattern.endswith("$") and not pattern.endswith("\\$"):
        pattern = pattern[:-1] + "\\Z"
    return re.compile(pattern)


def _type_ok(expected: str, value: Any) -> bool:
    if expected == "string":
        return isinstance(value, str)
    if expected == "integer":
        return isinstance(value, int) and not isinstance(value, bool)
    if expected == "number":
        return isinstance(value, int | float) and not isinstance(value, bool)
    if expected == "boolean":
        return isinstance(value, bool)
    if expected == "object":
        return isinstance(value, dict)
    if expected == "array":
        return isinstance(value, list)
    if expected == "null":
        return value is None
    raise ValueError(f"unsupported schema type {expected!r}")


def validate(schema: dict[str, Any], value: Any, path: str) -> None:
    """Raise `invalid_request` when `value` does not match `schema`."""
    expected = schema.get("type")
    if expected is not None:
        types = expected if isinstance(expected, list) else [expected]
        if not any(_type_ok(t, value) for t in types):
            raise invalid(f"{path} must be of type {' or '.join(types)}")
    if "enum" in schema and value not in schema["enum"]:
        allowed = ", ".join(json.dumps(v) for v in schema["enum"])
        raise invalid(f"{path} must be one of {allowed}")
    if isinstance(value, str):
        if len(value) > schema.get("maxLength", MAX_STRING):
            raise invalid(f"{path} is longer than {schema['maxLength']} characters")
        if len(value) < schema.get("minLength", 0):
            if not value:
                raise invalid(f"{path} must not be empty")
            raise invalid(f"{path} is shorter than {schema['minLength']} characters")
        if "pattern" in schema and not _pattern(schema["pattern"]).search(value):
            reason = refusal(schema["pattern"], value)
            raise invalid(f"{path} {reason or 'does not match ' + schema['pattern']}")
    elif isinstance(value, int | float) and not isinstance(value, bool):
        if "maximum" in schema and value > schema["maximum"]:
            raise invalid(f"{path} must be at most {schema['maximum']}")
        if "minimum" in schema and value < schema["minimum"]:
            raise invalid(f"{path} must be at least {schema['minimum']}")
    elif isinstance(value, list):
        if len(value) > schema.get("maxItems", MAX_ITEMS):
            raise invalid(f"{path} has more than {schema['maxItems']} items")
        if len(value) < schema.get("minItems", 0):
            raise invalid(f"{path} needs at least {schema['minItems']} items")
        if schema.get("uniqueItems") and len({json.dumps(v, sort_keys=True) for v in value}) != len(
            value
        ):
            raise invalid(f"{path} must not repeat items")
        item_schema = schema.get("items")
        if item_schema:
            for index, item in enumerate(value):
                validate(item_schema, item, f"{path}[{index}]")
    elif isinstance(value, dict):
        properties = schema.get("properties", {})
        for name in schema.get("required", ()):
            if name not in value:
                raise invalid(f"{path}.{name} is required")
        if len(value) > schema.get("maxProperties", MAX_ITEMS):
            raise invalid(f"{path} has more than {schema['maxProperties']} entries")
        for key, item in value.items():
            if key in properties:
                validate(properties[key], item, f"{path}.{key}")
            elif schema.get("additionalProperties") is False:
                raise invalid(f"{path}.{key} is not an accepted argument")
            elif isinstance(schema.get("additionalProperties"), dict):
                validate(schema["additionalProperties"], item, f"{path}.{key}")
