"""D&D 5e (SRD 5.1-style): the web host's view of the `dnd5e` domain server."""

from __future__ import annotations

from typing import Any

from django import forms
from django.utils.translation import gettext_lazy as _

from apps.domains.registry import ANY, DomainPlugin, Panel

ABILITIES = ("str", "dex", "con", "int", "wis", "cha")
ABILITY_LABELS = {
    "str": _("Strength"),
    "dex": _("Dexterity"),
    "con": _("Constitution"),
    "int": _("Intelligence"),
    "wis": _("Wisdom"),
    "cha": _("Charisma"),
}
# The class templates the server ships (domain_servers/dnd5e/rules.py TEMPLATES); a test keeps
# the two lists equal, since apps/ may not import server code.
TEMPLATES = {
    "cleric": _("Cleric"),
    "fighter": _("Fighter"),
    "rogue": _("Rogue"),
    "wizard": _("Wizard"),
}


class Dnd5eCharacterForm(forms.Form):
    """A new character from a class template or from six explicit ability scores."""

    name = forms.CharField(label=_("Name"), max_length=80)
    template = forms.ChoiceField(
        label=_("Class template"),
        choices=[("", _("None: I will enter ability scores")), *TEMPLATES.items()],
        required=False,
    )
    level = forms.IntegerField(label=_("Level"), min_value=1, max_value=20, initial=1)

    def __init__(self, *args: Any, **kwargs: Any) -> None:
        super().__init__(*args, **kwargs)
        for ability in ABILITIES:
            self.fields[ability] = forms.IntegerField(
                label=ABILITY_LABELS[ability], min_value=1, max_value=30, required=False
            )

    def clean(self) -> dict[str, Any]:
        cleaned = super().clean()
        if any(ability in self.errors for ability in ABILITIES):
            return cleaned  # an out-of-range score already explains itself
        given = [a for a in ABILITIES if cleaned.get(a) is not None]
        if cleaned.get("template"):
            if given:
                raise forms.ValidationError(
                    _("Choose a class template or enter ability scores, not both."),
                    code="template_and_scores",
                )
        elif len(given) != len(ABILITIES):
            raise forms.ValidationError(
                _("Choose a class template or enter all six ability scores."),
                code="scores_missing",
            )
        return cleaned

    def to_arguments(self) -> dict[str, Any]:
        """`character_create` arguments (without campaign, revision and idempotency key)."""
        data = self.cleaned_data
        arguments: dict[str, Any] = {"name": data["name"], "level": data.get("level") or 1}
        if data.get("template"):
            arguments["template"] = data["template"]
        else:
            arguments["abilities"] = {a: data[a] for a in ABILITIES}
        return arguments


_READS = ("campaign_get", "character_get", "combat_status")


class Dnd5ePlugin(DomainPlugin):
    system_id = "dnd5e"
    label = _("D&D 5e (SRD 5.1)")
    description = _("Fifth-edition fantasy: ability checks, saves, attacks and grid combat.")
    phases = ("lobby", "play", "combat")
    # (phase, role, task) -> tools an agent may see; the turns issue owns the final tables.
    tool_facades = {
        (ANY, ANY, ANY): ("campaign_get", "character_get", "dice_roll"),
        ("lobby", ANY, "action"): ("character_create",),
        ("play", ANY, "action"): ("ability_check", "saving_throw", "character_create"),
        ("play", "gm", ANY): (
            "combat_start",
            "monster_spawn",
            "heal",
            "damage_apply",
            "condition_add",
            "condition_remove",
            "phase_set",
        ),
        ("combat", ANY, "action"): (
            *_READS,
            "attack",
            "combat_move",
            "combat_end_turn",
            "death_save",
            "saving_throw",
            "ability_check",
        ),
        ("combat", "gm", ANY): (
            "damage_apply",
            "heal",
            "condition_add",
            "condition_remove",
            "combat_end",
            "monster_spawn",
        ),
    }
    panels = (
        Panel("party", _("Party"), "campaign_get", ("campaign", "membership", "character")),
        Panel("combat", _("Combat"), "combat_status", ("combat", "phase")),
        Panel("grid", _("Battle map"), "combat_render", ("combat",)),
        Panel("dice", _("Dice"), "campaign_get", ("dice",), audience_filtered=False),
    )
    character_form = Dnd5eCharacterForm


Plugin = Dnd5ePlugin
