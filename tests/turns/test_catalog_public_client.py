"""The tool catalog reaches the domain client only through its public names."""

from __future__ import annotations

import ast
from pathlib import Path

import apps.turns.catalog as catalog


def test_the_catalog_uses_no_private_name_of_the_domain_client():
    tree = ast.parse(Path(catalog.__file__).read_text())
    used = sorted(
        node.attr
        for node in ast.walk(tree)
        if isinstance(node, ast.Attribute)
        and isinstance(node.value, ast.Name)
        and node.value.id == "domain_client"
    )
    assert used == ["domain_list_tools"]
    imported = sorted(
        alias.name
        for node in ast.walk(tree)
        if isinstance(node, ast.ImportFrom) and node.module == "apps.domains.client"
        for alias in node.names
    )
    assert imported == []
