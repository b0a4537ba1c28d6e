"""The demo tables `make run` sets up once its domain servers answer: a campaign per local game
system, run by the demo GM, with both demo players in it and their characters, and the GM's
opening actions queued, so a first visit can open a room and play at once. Idempotent: what
exists is kept, what is missing is made (a player who left or was removed is not seated again,
a character is made once, so one the GM unbound stays unbound), and an action already queued is
not queued again. A table set up before a character joined its list gains that one alone."""

from __future__ import annotations

from dataclasses import dataclass
from datetime import timedelta
from typing import Any

from django.utils.text import slugify

from apps.campaigns.models import Campaign, CampaignInvite, CampaignMembership
from apps.campaigns.selectors import (
    character_creation_open,
    character_names_bound,
    membership_for,
)
from apps.campaigns.services.campaigns import campaign_create
from apps.campaigns.services.characters import PLAYING_ROLES, character_create_for
from apps.campaigns.services.invites import invite_accept, invite_create
from apps.core.errors import ApplicationError
from apps.domains.registry import domain_registry
from apps.rooms.services import room_get_or_create
from apps.turns.services.jobs import turn_action_submit


@dataclass(frozen=True)
class DemoTable:
    key: str
    system_id: str
    name: str
    # The character form's fields of each player's characters, in the order the players are
    # given; a player acts as their first unless they choose another in the room.
    characters: tuple[tuple[dict[str, Any], ...], ...]
    # What the GM does first, as room actions the worker runs like any other.
    gm_actions: tuple[str, ...] = ()


DEMO_TABLES = (
    DemoTable(
        key="dnd5e",
        system_id="dnd5e",
        name="The Sunless Keep",
        characters=(
            ({"name": "Ash Emberhand", "template": "fighter", "level": 1},),
            # A cleric, so someone at the table casts spells; the second player's, so the first
            # player's walkthrough has one character and nothing to choose.
            (
                {"name": "Briar Quickstep", "template": "rogue", "level": 1},
                {"name": "Corin Dawnward", "template": "cleric", "level": 1},
            ),
        ),
    ),
    DemoTable(
        key="narrative",
        system_id="narrative",
        name="Harbor Lights",
        characters=(
            ({"name": "Ash Marlowe", "tags": "dockhand, stubborn, owes the harbormaster"},),
            ({"name": "Briar Vance", "tags": "lamplighter, curious, knows every alley"},),
        ),
        # The oracle and the clocks need the play phase (D&D's "start combat" sets it itself).
        gm_actions=("set phase play",),
    ),
)


@dataclass
class DemoTables:
    campaigns: list[Campaign]
    failures: list[str]  # one line per table that could not be set up, and why


def demo_tables_ensure(*, gm, players) -> DemoTables:
    """Each demo table whose game system this server runs, made complete; a table that fails
    (a domain server not answering yet, say) is reported and the others still set up."""
    systems = domain_registry().plugins
    tables = DemoTables(campaigns=[], failures=[])
    for table in DEMO_TABLES:
        if table.system_id not in systems:
            continue
        try:
            campaign = _demo_table_ensure(table, gm=gm, players=players)
        except ApplicationError as exc:
            tables.failures.append(f"{table.name}: {exc.message}")
            continue
        if campaign is not None:
            tables.campaigns.append(campaign)
    return tables


def _demo_table_ensure(table: DemoTable, *, gm, players) -> Campaign | None:
    campaign = campaign_create(
        owner=gm, name=table.name, system_id=table.system_id,
        idempotency_key=f"demo-table:{table.key}",
    )  # fmt: skip
    if campaign.status != Campaign.Status.ACTIVE:
        return None  # archived by the GM: theirs to keep so
    # Only players never seated: one who left or was removed stays out.
    seated = set(
        CampaignMembership.objects.filter(campaign=campaign).values_list("user_id", flat=True)
    )
    joining = [p for p in players if p.pk not in seated]
    if joining:
        # Through an invite, as a GM would add them: membership is granted on the domain too.
        _invite, token = invite_create(
            campaign=campaign, actor=gm, mode=CampaignInvite.Mode.AUTO_JOIN,
            expires_in=timedelta(hours=1), max_uses=len(joining),
            role=CampaignMembership.Role.PLAYER,
        )  # fmt: skip
        for player in joining:
            invite_accept(token=token, user=player)
    for player, characters in zip(players, table.characters, strict=False):
        membership = membership_for(campaign_id=campaign.id, user=player)
        names = {fields["name"] for fields in characters}
        if (
            membership is None
            or membership.role not in PLAYING_ROLES
            or character_names_bound(campaign=campaign, user=player, controlled_only=True) - names
            or not character_creation_open(campaign=campaign, role=membership.role)
        ):
            continue  # out of the game, playing one of their own, or (in combat, say) not now
        # Removed bindings count: a character made once, then unbound, is not made again.
        made = character_names_bound(campaign=campaign, user=player)
        for n, fields in enumerate(characters):
            if fields["name"] in made:
                continue
            # The first keeps the key it had when each player had one character; the others are
            # keyed by name, so a list reordered later does not reuse one for another character.
            suffix = f":{slugify(fields['name'])}" if n else ""
            character_create_for(
                campaign=campaign, user=player, form_data=fields,
                idempotency_key=f"demo-table:{table.key}:{player.pk}{suffix}",
            )  # fmt: skip
    room_get_or_create(campaign=campaign)
    gm_membership = membership_for(campaign_id=campaign.id, user=gm)
    for n, text in enumerate(table.gm_actions):
        turn_action_submit(
            membership=gm_membership, text=text,
            idempotency_key=f"demo-table:{table.key}:gm:{n}",
        )  # fmt: skip
    return campaign
