"""The room's panels (static/js/turn_panels.js) word what they build with patterns from the
page's strings, as the server does, so each translation orders and joins them itself."""

from __future__ import annotations

import json
from pathlib import Path

from django.conf import settings
from django.template import Context, Template
from django.utils import translation


def _panel_strings() -> dict[str, str]:
    """The panels' strings as the page serves them, in the active language."""
    source = (Path(settings.BASE_DIR) / "templates/turns/panels.html").read_text()
    block = source.split('<script id="turn-strings" type="application/json">', 1)[1]
    block = block.split("</script>", 1)[0]
    return json.loads(Template("{% load i18n %}" + block).render(Context()))


def test_the_card_joins_names_with_the_narrations_pattern():
    """The card's "Bless on Bram, Goblin and yourself" is joined as the game master's narration
    joins names (the scripted agent's `_and_list`), from the same translated pattern."""
    from apps.turns.agents.scripted import _and_list

    for language in ("en", "zh-hans"):
        with translation.override(language):
            pattern = _panel_strings()["and_list"]
            assert pattern % {"items": "A, B", "last": "C"} == _and_list(["A", "B", "C"])
    with translation.override("en"):
        assert _panel_strings()["and_list"] == "%(items)s and %(last)s"


def test_a_total_tag_is_named_by_a_pattern():
    """A total's flat tag says to a screen reader what it totals and the total ("total 18"),
    in the order a translation gives."""
    with translation.override("en"):
        strings = _panel_strings()
    assert strings["named_total"] == "%(what)s %(total)s"
