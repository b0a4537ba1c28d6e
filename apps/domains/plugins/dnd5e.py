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
        # Chosen already: a first character then needs only a name. Not a default for data
        # sent without it (the API's scores-only characters).
        initial="fighter",
        help_text=_("A template sets the ability scores. Choose “None” to enter your own below."),
    )
    level = forms.IntegerField(label=_("Level"), min_value=1, max_value=20, initial=1)

    def __init__(self, *args: Any, **kwargs: Any) -> None:
        super().__init__(*args, **kwargs)
        for ability in ABILITIES:
            self.fields[ability] = forms.IntegerField(
                label=ABILITY_LABELS[ability],
                min_value=1,
                max_value=30,
                required=False,
                help_text=_("Only with “None” as the template."),
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


# Tool facades: (phase, role, task) -> the tools an agent may see. A "gm" row also serves the
# owner; "*" as a role means every role. Chat only reads; narration is for the GM. Each GM
# action row holds what the GM needs to start combat from one action in that phase (lobby: set
# the phase to play first), a pitfall of the original design.
_READS = ("campaign_get", "character_get")
_COMBAT_READS = (*_READS, "combat_status")
_PLAYER_PLAY = (
    *_READS,
    "ability_check",
    "attack",
    "character_create",
    "death_save",
    "dice_roll",
    "heal",
    "saving_throw",
    "temp_hp_grant",
)
_PLAYER_COMBAT = (
    *_COMBAT_READS,
    "ability_check",
    "attack",
    "combat_end_turn",
    "combat_move",
    "death_save",
    "dice_roll",
    "heal",
    "saving_throw",
    "temp_hp_grant",
)
_GM_START_COMBAT = ("combat_start", "monster_spawn", "phase_set")
_GM_EFFECTS = ("condition_add", "condition_remove", "damage_apply")  # heal is for everyone
# Standing up is the rules' (half the speed, on one's own turn, never while held or dying):
# the GM stands whoever is up in combat with it too. Outside combat a GM lifts "prone" with
# condition_remove, which keeps the play row within the tool cap.
_STAND_UP = ("stand_up",)
TOOL_FACADES = {
    ("lobby", ANY, "chat"): _READS,
    ("lobby", "observer", "action"): _READS,
    ("lobby", "player", "action"): (*_READS, "character_create", "dice_roll"),
    ("lobby", "gm", "action"): (*_READS, "character_create", "dice_roll", *_GM_START_COMBAT),
    ("lobby", "gm", "narration"): (*_READS, "dice_roll", *_GM_START_COMBAT),
    ("play", ANY, "chat"): _READS,
    ("play", "observer", "action"): _READS,
    # A cleric's healing spells (spell_cast) are the player's own character's: the GM's action
    # rows are at the cap, and the GM heals any amount with heal.
    ("play", "player", "action"): (*_PLAYER_PLAY, *_STAND_UP, "short_rest", "spell_cast"),
    ("play", "gm", "action"): (*_PLAYER_PLAY, *_GM_START_COMBAT, *_GM_EFFECTS),
    # The party's long and short rests are narrated: the action row is at the cap.
    ("play", "gm", "narration"): (
        *_READS,
        "dice_roll",
        "heal",
        "long_rest",
        "short_rest",
        *_GM_START_COMBAT,
        *_GM_EFFECTS,
    ),
    ("combat", ANY, "chat"): _COMBAT_READS,
    ("combat", "observer", "action"): _COMBAT_READS,
    # Dash, Disengage, Dodge, Help and Hide: a player's own character's. The GM's action row
    # below is at the cap: a monster's are narrated (the narration row has combat_action).
    ("combat", "player", "action"): (*_PLAYER_COMBAT, *_STAND_UP, "combat_action", "spell_cast"),
    # At the tool cap: no monster_spawn here, since a monster spawned mid-fight cannot join it
    # (combat_start is for play, and nothing adds a combatant), nor damage_apply, which no
    # combatant's turn deals (an attack does); the narration row has both.
    ("combat", "gm", "action"): (
        *_PLAYER_COMBAT,
        "combat_end",
        "condition_add",
        "condition_remove",
        *_STAND_UP,
    ),
    # A monster's Dash, Disengage, Dodge, Help or Hide (a goblin's Nimble Escape) is narrated.
    ("combat", "gm", "narration"): (
        *_COMBAT_READS,
        "combat_action",
        "combat_end",
        "dice_roll",
        "heal",
        "monster_spawn",
        *_GM_EFFECTS,
    ),
}


class Dnd5ePlugin(DomainPlugin):
    system_id = "dnd5e"
    label = _("D&D 5e (SRD 5.1)")
    description = _("Fifth-edition fantasy: ability checks, saves, attacks and grid combat.")
    phases = ("lobby", "play", "combat")
    tool_facades = TOOL_FACADES
    # Rolls ("dice" scope) have no panel: their results ride on the narration entry, so a roll
    # costs no re-read of the campaign.
    panels = (
        Panel("party", _("Party"), "campaign_get", ("campaign", "membership", "character")),
        Panel("combat", _("Combat"), "combat_status", ("combat", "phase")),
        Panel("grid", _("Battle map"), "combat_render", ("combat",)),
    )
    character_form = Dnd5eCharacterForm


Plugin = Dnd5ePlugin
