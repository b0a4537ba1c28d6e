"""Narrative (system-neutral): scenes, threads, clocks, tagged characters and an oracle."""

from __future__ import annotations

from typing import Any

from django import forms
from django.utils.text import Truncator
from django.utils.translation import gettext_lazy as _

from apps.domains.registry import ANY, DomainPlugin, Panel

MAX_TAGS = 20
MAX_TAG_LENGTH = 40


class NarrativeCharacterForm(forms.Form):
    """A new character: a name and comma-separated short tags."""

    name = forms.CharField(label=_("Name"), max_length=80)
    tags = forms.CharField(
        label=_("Tags"),
        required=False,
        max_length=MAX_TAGS * (MAX_TAG_LENGTH + 2),
        help_text=_("Comma-separated, e.g. brave, ex-soldier, owes the guild"),
    )

    def clean_tags(self) -> list[str]:
        # Order-preserving de-duplication: the server rejects repeated items.
        tags = list(dict.fromkeys(t.strip() for t in self.cleaned_data["tags"].split(",")))
        tags = [t for t in tags if t]
        if len(tags) > MAX_TAGS:
            raise forms.ValidationError(
                _("At most %(count)d tags.") % {"count": MAX_TAGS}, code="too_many_tags"
            )
        for tag in tags:
            if len(tag) > MAX_TAG_LENGTH:
                raise forms.ValidationError(
                    _("Tag “%(tag)s” is longer than %(limit)d characters.")
                    # Named by its start past a little over the limit: the message sits beside
                    # the field, and a pasted paragraph would fill the page.
                    % {"tag": Truncator(tag).chars(MAX_TAG_LENGTH + 1), "limit": MAX_TAG_LENGTH},
                    code="tag_too_long",
                )
        return tags

    def to_arguments(self) -> dict[str, Any]:
        """`character_create` arguments (without campaign, revision and idempotency key)."""
        return {"name": self.cleaned_data["name"], "tags": self.cleaned_data["tags"]}


# Tool facades: (phase, role, task) -> the tools an agent may see. A "gm" row also serves the
# owner; "*" as a role means every role. Chat only reads; narration is for the GM. Scenes,
# clocks, threads and the oracle exist only in play; facts may be recorded in the lobby too.
_READS = ("campaign_get", "character_get", "story_get")
_PLAYER_PLAY = (*_READS, "character_create", "character_update", "dice_roll", "oracle_ask")
_GM_STORY = (
    "clock_advance",
    "clock_create",
    "fact_add",
    "scene_end",
    "scene_start",
    "thread_open",
    "thread_resolve",
)
TOOL_FACADES = {
    ("lobby", ANY, "chat"): _READS,
    ("lobby", "observer", "action"): _READS,
    ("lobby", "player", "action"): (*_READS, "character_create", "dice_roll"),
    ("lobby", "gm", "action"): (*_READS, "character_create", "dice_roll", "fact_add", "phase_set"),
    ("lobby", "gm", "narration"): (*_READS, "fact_add", "phase_set"),
    ("play", ANY, "chat"): _READS,
    ("play", "observer", "action"): _READS,
    ("play", "player", "action"): _PLAYER_PLAY,
    ("play", "gm", "action"): (*_PLAYER_PLAY, *_GM_STORY, "phase_set"),
    ("play", "gm", "narration"): (*_READS, "dice_roll", "oracle_ask", *_GM_STORY),
}


_STORY_SCOPES = ("clocks", "facts", "scene", "threads")


class NarrativePlugin(DomainPlugin):
    system_id = "narrative"
    label = _("Narrative (system-neutral)")
    description = _("Any genre: scenes, story threads, progress clocks and an oracle.")
    phases = ("lobby", "play")
    tool_facades = TOOL_FACADES
    # The three story panels hold the one `story_get` view (scene, threads, clocks and the
    # facts the viewer may see), so a change to any part of it refreshes each; the reads share
    # one call.
    panels = (
        Panel("scene", _("Scene"), "story_get", _STORY_SCOPES),
        Panel("threads", _("Threads"), "story_get", _STORY_SCOPES),
        Panel("clocks", _("Clocks"), "story_get", _STORY_SCOPES),
        Panel("characters", _("Characters"), "campaign_get", ("campaign", "character")),
    )
    character_form = NarrativeCharacterForm


Plugin = NarrativePlugin
