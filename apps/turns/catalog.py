"""The live tool catalog of a domain server (`tools/list`), cached per process.

`tools/list` is deterministic by contract and needs no delegation, so one listing per server
target serves every turn until a facade names a tool the listing lacks: the server may have
been redeployed since, so that system is listed once more. It goes through the pooled
connection of `apps.domains.client`.
"""

from __future__ import annotations

import threading
from collections.abc import Sequence

from django.utils.translation import gettext as _
from django.utils.translation import gettext_lazy
from mcp_types import Tool

from apps.domains import client as domain_client
from apps.domains.registry import Target, get_plugin
from apps.turns.errors import TurnError
from apps.turns.types import ToolInfo

_cache: dict[tuple[str, Target], dict[str, ToolInfo]] = {}
_lock = threading.Lock()


class FacadeMismatch(TurnError):
    """A facade names a tool the live server does not offer: the tables and server disagree."""

    code = "facade_mismatch"
    status = 502
    # Raised only after a fresh listing agreed with the stale one: retrying cannot help until
    # the server or the tables change.
    recovery = str(
        gettext_lazy(
            "An operator must deploy a domain server that offers these tools, or update the "
            "tool tables to match it; until then this action is unavailable."
        )
    )


def _catalog(tools: Sequence[Tool]) -> dict[str, ToolInfo]:
    return {
        tool.name: ToolInfo(
            name=tool.name,
            description=tool.description or "",
            input_schema=tool.input_schema,
        )
        for tool in tools
    }


def tool_catalog(system_id: str, *, refresh: bool = False) -> dict[str, ToolInfo]:
    """Every tool of the system's server by name; `refresh` drops the cached listing first.
    Raises DomainUnavailable, UnknownSystem."""
    plugin = get_plugin(system_id)
    key = (system_id, plugin.target)
    with _lock:
        if refresh:
            # Dropped before listing: should the listing fail, the next turn lists again
            # rather than trusting the catalog that was just found stale.
            _cache.pop(key, None)
        cached = _cache.get(key)
    if cached is not None:
        return cached
    catalog = _catalog(domain_client.domain_list_tools(plugin))
    with _lock:
        _cache[key] = catalog
    return catalog


def offered_tools(system_id: str, names: Sequence[str]) -> tuple[ToolInfo, ...]:
    """The facade's tools with their live schemas, in the facade's order.
    Raises FacadeMismatch, DomainUnavailable, UnknownSystem."""
    catalog = tool_catalog(system_id)
    missing = [name for name in names if name not in catalog]
    if missing:
        # The server may have been redeployed with new tools since this process listed it:
        # list once more (once per call, so a real mismatch costs one listing, not a loop).
        catalog = tool_catalog(system_id, refresh=True)
        missing = [name for name in names if name not in catalog]
    if missing:
        raise FacadeMismatch(
            _("The %(system)s server does not offer %(tools)s.")
            % {"system": system_id, "tools": ", ".join(missing)},
            details={"system_id": system_id, "missing": missing},
        )
    return tuple(catalog[name] for name in names)


def tool_catalog_clear() -> None:
    with _lock:
        _cache.clear()
