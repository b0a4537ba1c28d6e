"""The domain plugin registry, read from `settings.SAGASMITH_DOMAINS`.

Shape: `{system_id: {"plugin": "<dotted class path>", "url": "http://host:port/mcp"}}` or
`{system_id: {"plugin": ..., "command": ["python", "-m", ...], "env": {...}, "cwd": "..."}}`,
optionally with `"audience"` and `"timeout"` (seconds). Without `"plugin"` the class is
`apps.domains.plugins.<system_id>.Plugin`, so adding a system is one plugin module plus one
settings entry.
"""

from __future__ import annotations

import functools
import re
from collections.abc import Mapping, Sequence
from dataclasses import dataclass, field
from typing import Any, ClassVar

from django import forms
from django.conf import settings
from django.core.exceptions import ImproperlyConfigured
from django.core.signals import setting_changed
from django.utils.module_loading import import_string
from django.utils.translation import gettext_lazy as _

from apps.core.errors import ApplicationError
from apps.domains.errors import UnknownSystem

DEFAULT_TIMEOUT = 30.0
MAX_FACADE_TOOLS = 16
ANY = "*"
GM_ROLES = frozenset({"owner", "gm"})
ROLES = ("owner", "gm", "player", "observer")
FACADE_TASKS = ("chat", "action", "narration")
# The userinfo password of a URL (`scheme://user:password@host`); greedy up to the authority's
# last "@", so a password holding "@" or ":" is covered whole.
_URL_PASSWORD = re.compile(r"(\b[A-Za-z][A-Za-z0-9+.-]*://[^\s/:@]*):[^\s/]*@")


def redact_passwords(text: str) -> str:
    """`text` with every URL password replaced by ***, for logs and reprs: a stdio server's
    command line may carry a database URL with its credentials."""
    return _URL_PASSWORD.sub(r"\1:***@", text)


@dataclass(frozen=True)
class HttpTarget:
    url: str

    def describe(self) -> str:
        """Where it is, for people (logs, reprs): passwords hidden."""
        return redact_passwords(self.url)


@dataclass(frozen=True)
class StdioTarget:
    command: tuple[str, ...]
    env: tuple[tuple[str, str], ...] = ()  # a tuple so the target can key the connection pool
    cwd: str | None = None

    def describe(self) -> str:
        """What it runs, for people (logs, reprs): passwords hidden."""
        return redact_passwords(" ".join(self.command))


Target = HttpTarget | StdioTarget


@dataclass(frozen=True)
class Panel:
    """A room side panel: which read tool fills it and which receipt scopes refresh it."""

    key: str
    label: Any  # a lazy translation
    read_tool: str
    scopes: tuple[str, ...]  # a receipt scope refreshes the panel when it equals or starts one
    audience_filtered: bool = True

    def refreshed_by(self, changed_scopes: Sequence[str]) -> bool:
        return any(
            scope == prefix or scope.startswith(f"{prefix}:")
            for scope in changed_scopes
            for prefix in self.scopes
        )


FacadeKey = tuple[str, str, str]  # (phase, role, task); role and task may be "*"


class FacadeDenied(ApplicationError):
    """No tool facade exists for this (phase, role, task): the turn gets no tools at all."""

    code = "facade_denied"
    status = 403
    retryable = False
    recovery = str(_("This action is not available to your role in the current phase; ask the GM."))


class DomainPlugin:
    """What the web host knows about one game system; the rules stay in its domain server.

    Subclasses set the class attributes; `tool_facades` maps (phase, role, task) to the tools an
    agent may see for that situation. A selection is the union of every matching row; a
    situation no row names is refused (fail closed), never widened to a default.
    """

    system_id: ClassVar[str]
    label: ClassVar[Any]
    description: ClassVar[Any] = ""
    phases: ClassVar[tuple[str, ...]] = ()
    tool_facades: ClassVar[Mapping[FacadeKey, Sequence[str]]] = {}
    facade_tasks: ClassVar[tuple[str, ...]] = FACADE_TASKS
    panels: ClassVar[tuple[Panel, ...]] = ()
    character_form: ClassVar[type[forms.Form]]

    def __init__(
        self, *, system_id: str, target: Target, audience: str | None, timeout: float
    ) -> None:
        self.system_id = system_id
        self.target = target
        self.audience = audience or f"sagasmith-{system_id}"
        self.timeout = timeout

    def __repr__(self) -> str:
        return f"<{type(self).__name__} {self.system_id} -> {self.target.describe()}>"

    def facade_tools(self, *, phase: str, role: str, task: str) -> tuple[str, ...]:
        """Sorted unique tool ids for the situation: the union of every matching table row.

        Raises FacadeDenied for an unknown phase, role or task, or when no row matches.
        """
        situation = {"system_id": self.system_id, "phase": phase, "role": role, "task": task}
        if phase not in self.phases or role not in ROLES or task not in self.facade_tasks:
            raise self._facade_denied(situation)
        tools: set[str] = set()
        matched = False
        # A campaign owner runs the table like any GM, so "gm" rows cover both roles.
        roles = {role, ANY, "gm"} if role in GM_ROLES else {role, ANY}
        for (row_phase, row_role, row_task), names in self.tool_facades.items():
            if row_phase == phase and row_role in roles and row_task in (task, ANY):
                matched = True
                tools.update(names)
        if not matched:
            raise self._facade_denied(situation)
        if len(tools) > MAX_FACADE_TOOLS:
            raise ImproperlyConfigured(
                f"{self.system_id}: facade ({phase}, {role}, {task}) has {len(tools)} tools; "
                f"the limit is {MAX_FACADE_TOOLS}"
            )
        return tuple(sorted(tools))

    @staticmethod
    def _facade_denied(situation: dict[str, str]) -> FacadeDenied:
        message = _("No %(system_id)s tools for phase %(phase)s, role %(role)s, task %(task)s.")
        return FacadeDenied(str(message % situation), details=situation)

    def panel(self, key: str) -> Panel:
        for panel in self.panels:
            if panel.key == key:
                return panel
        raise KeyError(key)


def _target_from(system_id: str, entry: Mapping[str, Any]) -> Target:
    if ("url" in entry) == ("command" in entry):
        raise ImproperlyConfigured(
            f"SAGASMITH_DOMAINS[{system_id!r}] needs exactly one of 'url' or 'command'"
        )
    if "url" in entry:
        return HttpTarget(str(entry["url"]))
    command = entry["command"]
    if isinstance(command, str) or not command:
        raise ImproperlyConfigured(
            f"SAGASMITH_DOMAINS[{system_id!r}]['command'] must be a non-empty list of arguments"
        )
    env = entry.get("env") or {}
    return StdioTarget(
        command=tuple(str(part) for part in command),
        env=tuple(sorted((str(k), str(v)) for k, v in env.items())),
        cwd=str(entry["cwd"]) if entry.get("cwd") else None,
    )


def _build(system_id: str, entry: Mapping[str, Any]) -> DomainPlugin:
    if not isinstance(entry, Mapping):
        raise ImproperlyConfigured(f"SAGASMITH_DOMAINS[{system_id!r}] must be a dict")
    path = entry.get("plugin") or f"apps.domains.plugins.{system_id}.Plugin"
    try:
        plugin_class = import_string(path)
    except ImportError as exc:
        raise ImproperlyConfigured(
            f"SAGASMITH_DOMAINS[{system_id!r}]: cannot import plugin {path}: {exc}"
        ) from exc
    if not (isinstance(plugin_class, type) and issubclass(plugin_class, DomainPlugin)):
        raise ImproperlyConfigured(f"{path} is not a DomainPlugin subclass")
    return plugin_class(
        system_id=system_id,
        target=_target_from(system_id, entry),
        audience=entry.get("audience"),
        timeout=float(entry.get("timeout", DEFAULT_TIMEOUT)),
    )


@dataclass(frozen=True)
class DomainRegistry:
    plugins: Mapping[str, DomainPlugin] = field(default_factory=dict)

    def get(self, system_id: str) -> DomainPlugin:
        try:
            return self.plugins[system_id]
        except KeyError:
            raise UnknownSystem(
                _("Unknown game system %(system)s.") % {"system": system_id},
                details={"system_id": system_id},
            ) from None


def _require_distinct_audiences(plugins: Mapping[str, DomainPlugin]) -> None:
    """A server accepts every token minted for its audience: two systems sharing one would each
    accept the other's tokens (a token scoped to one system's tools works on the other)."""
    seen: dict[str, str] = {}
    for system_id, plugin in plugins.items():
        other = seen.setdefault(plugin.audience, system_id)
        if other != system_id:
            raise ImproperlyConfigured(
                f"SAGASMITH_DOMAINS: {other} and {system_id} share the delegation audience "
                f"{plugin.audience!r}; give each system its own, or each of their servers "
                "accepts the other's tokens"
            )


@functools.cache
def domain_registry() -> DomainRegistry:
    """Every configured plugin; rebuilt when `SAGASMITH_DOMAINS` changes (tests override it).
    Raises ImproperlyConfigured for a bad entry or two systems sharing an audience."""
    configured = getattr(settings, "SAGASMITH_DOMAINS", {}) or {}
    plugins = {
        system_id: _build(system_id, entry) for system_id, entry in sorted(configured.items())
    }
    _require_distinct_audiences(plugins)
    return DomainRegistry(plugins)


def get_plugin(system_id: str) -> DomainPlugin:
    """The plugin for a system. Raises UnknownSystem when none is configured."""
    return domain_registry().get(system_id)


def available_systems() -> list[tuple[str, str]]:
    """(system_id, label) pairs sorted by label, for choice fields."""
    plugins = domain_registry().plugins.values()
    return sorted(((p.system_id, str(p.label)) for p in plugins), key=lambda pair: pair[1])


def _on_setting_changed(*, setting: str, **kwargs: Any) -> None:
    if setting == "SAGASMITH_DOMAINS":
        domain_registry.cache_clear()


setting_changed.connect(_on_setting_changed, dispatch_uid="apps.domains.registry")
