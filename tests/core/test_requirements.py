"""A fresh install is the tested one: every package the requirements bring in, directly or
not, is pinned in requirements/constraints.txt, at the version the direct pins name."""

from __future__ import annotations

from importlib import metadata
from pathlib import Path

from django.conf import settings
from packaging.requirements import Requirement
from packaging.utils import canonicalize_name

REQUIREMENTS = Path(settings.BASE_DIR) / "requirements"


def _pins(path: Path) -> dict[str, str]:
    pins = {}
    for line in path.read_text().splitlines():
        line = line.split("#", 1)[0].strip()
        if not line or line.startswith("-"):
            continue
        requirement = Requirement(line)
        (spec,) = requirement.specifier
        pins[canonicalize_name(requirement.name)] = spec.version
    return pins


def _closure(names) -> set[str]:
    """The installed distributions `names` need, themselves included (with the extras named)."""
    seen: set[tuple[str, frozenset[str]]] = set()
    todo = [Requirement(n) for n in names]
    while todo:
        requirement = todo.pop()
        key = (canonicalize_name(requirement.name), frozenset(requirement.extras))
        if key in seen:
            continue
        seen.add(key)
        for raw in metadata.requires(key[0]) or ():
            needed = Requirement(raw)
            if needed.marker is None or any(
                needed.marker.evaluate({"extra": extra}) for extra in key[1] or {""}
            ):
                todo.append(needed)
    return {name for name, _ in seen}


def _direct(path: Path) -> list[str]:
    lines = []
    for line in path.read_text().splitlines():
        line = line.split("#", 1)[0].strip()
        if line and not line.startswith("-"):
            lines.append(line.split("==")[0])
    return lines


def test_every_package_installed_for_the_suite_is_pinned_in_the_constraints():
    constraints = _pins(REQUIREMENTS / "constraints.txt")
    needed = _closure(_direct(REQUIREMENTS / "base.txt") + _direct(REQUIREMENTS / "dev.txt"))

    assert sorted(n for n in needed if n not in constraints) == []


def test_the_constraints_agree_with_every_direct_pin():
    constraints = _pins(REQUIREMENTS / "constraints.txt")
    direct = {**_pins(REQUIREMENTS / "base.txt"), **_pins(REQUIREMENTS / "dev.txt")}

    assert {n: v for n, v in direct.items() if constraints.get(n) != v} == {}


def test_the_constraints_agree_with_every_production_pin():
    constraints = _pins(REQUIREMENTS / "constraints.txt")
    production = _pins(REQUIREMENTS / "prod.txt")

    assert {n: v for n, v in production.items() if constraints.get(n) != v} == {}


def test_the_opentelemetry_api_is_pinned_where_the_production_sdk_needs_it():
    # mcp brings opentelemetry-api into every install; opentelemetry-sdk X requires exactly
    # opentelemetry-api X, so any other pin makes the production install unresolvable.
    constraints = _pins(REQUIREMENTS / "constraints.txt")

    assert constraints["opentelemetry-api"] == _pins(REQUIREMENTS / "prod.txt")["opentelemetry-sdk"]


def test_a_fresh_install_upgrades_pip_to_the_pinned_version_not_the_newest():
    # pip freeze leaves pip out; the resolver that reads the constraints is pinned as they are.
    makefile = (Path(settings.BASE_DIR) / "Makefile").read_text()
    pip_lines = [line.strip() for line in makefile.splitlines() if "--upgrade pip" in line]

    assert _pins(REQUIREMENTS / "constraints.txt")["pip"] == metadata.version("pip")
    assert pip_lines == ["$(PIP) install --quiet --upgrade pip -c requirements/constraints.txt"]
