"""Panel projections rebuilt from receipts (architecture.md section 7).

A receipt names the new authority revision and the changed scopes. Only panels whose scopes
changed are re-read, through the plugin's read tool: as the campaign owner for the "gm" row, or
once for the "public" row of a panel that is not audience filtered. A player's view may hold
what only that player may see (the domain filters by the token's principal, not only its
role), so player rows are per viewer ("user:<id>") and are read with the viewer's own
delegation when they open or refresh the panel. A receipt that does not advance the campaign's
revision invalidates nothing, and the rows of panels an unbroken chain of receipts did not touch
move to the chain's revision.

Reads happen outside any transaction (`projection_reads`); the rows and the `state.changed`
outbox event are written in the publishing transaction (`projection_apply`).
"""

from __future__ import annotations

import logging
from collections.abc import Iterable
from dataclasses import dataclass, field
from typing import Any

from django.db import connection
from django.utils import timezone

from apps.campaigns.models import Campaign
from apps.campaigns.services.authority import receipt_revision
from apps.domains.client import domain_call, principal_user_id
from apps.domains.errors import DomainError
from apps.domains.registry import Panel, get_plugin
from apps.projections.services import outbox_emit
from apps.turns.media import ImageBlock, artifact_envelope, artifact_store, image_blocks
from apps.turns.models import ProjectionSnapshot

logger = logging.getLogger(__name__)

STATE_CHANGED = "state.changed"
GM, PUBLIC, PRIVATE = "gm", "public", "private"
# A receipt's audience naming one player: `player:<principal>`.
PLAYER_PREFIX = "player:"
VIEWER_PREFIX = "user:"
# The receipt scope of a phase change (the contract's name).
PHASE_SCOPE = "phase"


def viewer_audience(user_id) -> str:
    """The row audience of one viewer's own view: a player's panels, anyone's character card."""
    return f"{VIEWER_PREFIX}{user_id}"


# The viewer's character card (`character_get` of their bound character) is kept as a row of
# its own, per viewer, and carried forward like a panel when no receipt could have changed it.
CARD = Panel("card", "", "character_get", ("campaign", "character", "combat", "membership"))


@dataclass
class SnapshotRead:
    scope: str
    audience: str
    data: dict[str, Any]
    images: list[ImageBlock] = field(default_factory=list)


@dataclass
class Refresh:
    """What a set of receipts changed, and the panel views re-read for it."""

    revision: int | None = None  # None: no receipt advanced the revision
    changed_scopes: list[str] = field(default_factory=list)
    entity_ids: list[str] = field(default_factory=list)
    audience: str = PUBLIC  # "public", "gm" or "private" (to `user_ids`)
    user_ids: list[str] = field(default_factory=list)
    reads: list[SnapshotRead] = field(default_factory=list)
    phase: str | None = None
    # Rows of the panels no receipt touched stay true when the receipts form one unbroken
    # chain: those stored at the chain's start are current at `revision` as well.
    chain_start: int | None = None
    unchanged: list[str] = field(default_factory=list)
    # A receipt changed the phase and no read told it (a passing fault): read again later.
    phase_unread: bool = False

    @property
    def advances(self) -> bool:
        return self.revision is not None


def _readers(campaign: Campaign, panel: Panel, fallback) -> list[tuple[str, Any]]:
    """(audience, principal) pairs a panel is re-read as when a receipt changes it. Players'
    rows are not among them: each is read with that player's own delegation on demand."""
    if not panel.audience_filtered:
        return [(PUBLIC, fallback)]
    return [(GM, campaign.owner)]


def panel_read(
    *, campaign: Campaign, panel: Panel, requester, memo: dict | None = None
) -> SnapshotRead | None:
    """One panel through its read tool as `requester`; a refusal (e.g. no combat) is recorded
    as the panel's state, an unreachable server returns None (the old row stays). Panels that
    share a read tool share one call through `memo`."""
    key = (panel.read_tool, getattr(requester, "pk", None))
    if memo is not None and key in memo:
        read = memo[key]
    else:
        read = _read(campaign, panel, requester)
        if memo is not None:
            memo[key] = read
    if read is None:
        return None
    return SnapshotRead(panel.key, "", dict(read.data), images=list(read.images))


def _read(campaign: Campaign, panel: Panel, requester) -> SnapshotRead | None:
    try:
        result = domain_call(
            system_id=campaign.system_id,
            tool=panel.read_tool,
            arguments={},
            requester=requester,
            campaign_id=campaign.domain_id,
        )
    except DomainError as exc:
        if exc.retryable:
            # A passing fault is not the panel's state: the old row stays (and is not carried
            # forward as current).
            logger.warning("Panel %s read failed: %s", panel.key, exc.domain_code)
            return None
        return SnapshotRead(panel.key, "", {"error": {"code": exc.domain_code}})
    except Exception:
        logger.warning("Panel %s read failed", panel.key, exc_info=True)
        return None
    return SnapshotRead(panel.key, "", dict(result.structured), images=image_blocks(result.result))


def projection_reads(
    *, campaign: Campaign, receipts: Iterable[dict[str, Any]], requester,
    turn_audience: str = PUBLIC,
) -> Refresh:  # fmt: skip
    """Re-read the panels the advancing receipts changed. Holds no transaction. `turn_audience`
    is who saw the turn that wrote them ("public" or "gm")."""
    fresh = [r for r in receipts if receipt_revision(r) > campaign.authority_revision]
    if not fresh:
        return Refresh()
    plugin = get_plugin(campaign.system_id)
    shown = (CARD, *plugin.panels)

    def receipt_audience(receipt: dict[str, Any]) -> str:
        # A receipt no panel shows (a roll, which the domain calls public whoever saw it) is
        # seen only in the turn's narration: announced to the turn's audience, no wider. Nobody
        # else has a panel to read again.
        changed = receipt.get("changed_scopes", [])
        if turn_audience == GM and not any(panel.refreshed_by(changed) for panel in shown):
            return GM
        return receipt.get("audience", PUBLIC)

    scopes = sorted({s for r in fresh for s in r.get("changed_scopes", [])})
    heard = [(r, receipt_audience(r)) for r in fresh]
    audiences = {a for _r, a in heard}
    # Receipts only some players may see (a fact told to one) are announced to those players
    # (and the GMs, who see every private announcement), not to the room.
    players = sorted(
        str(user_id)
        for a in audiences
        if a.startswith(PLAYER_PREFIX) and (user_id := principal_user_id(a[len(PLAYER_PREFIX) :]))
    )
    if PUBLIC in audiences or not audiences - {GM}:
        audience, players = (PUBLIC if PUBLIC in audiences else GM), []
    elif players:
        audience = PRIVATE
    else:
        audience = GM  # addressed to nobody Django knows: the GMs alone
    # A public announcement names only the scopes and entities of public receipts, a private
    # one only its players': the id of a hidden monster or of one player's private fact is not
    # everyone's to see. Every scope still picks the panels to read.
    if audience == PUBLIC:
        named = [r for r, a in heard if a == PUBLIC]
    elif audience == PRIVATE:
        named = [r for r, a in heard if a.startswith(PLAYER_PREFIX)]
    else:
        named = fresh
    entity_ids = sorted({e for r in named for e in r.get("entity_ids", [])})
    refresh = Refresh(
        revision=max(receipt_revision(r) for r in fresh),
        changed_scopes=sorted({s for r in named for s in r.get("changed_scopes", [])}),
        entity_ids=entity_ids,
        audience=audience,
        user_ids=players,
    )
    refresh.chain_start = _chain_start(fresh)
    if not CARD.refreshed_by(scopes):
        refresh.unchanged.append(CARD.key)
    memo: dict = {}
    for panel in plugin.panels:
        if not panel.refreshed_by(scopes):
            refresh.unchanged.append(panel.key)
            continue
        for panel_audience, principal in _readers(campaign, panel, requester):
            read = panel_read(campaign=campaign, panel=panel, requester=principal, memo=memo)
            if read is None:
                continue
            read.audience = panel_audience
            refresh.reads.append(read)
            view = read.data.get("campaign")
            if isinstance(view, dict) and view.get("phase"):
                refresh.phase = str(view["phase"])
    refresh.phase_unread = PHASE_SCOPE in scopes and refresh.phase is None
    return refresh


def _chain_start(receipts: list[dict[str, Any]]) -> int | None:
    """The revision an unbroken chain of receipts starts from (each one's previous revision is
    the one before it), or None if a revision in between is not among them."""
    chain = sorted(receipts, key=receipt_revision)
    try:
        starts = [int(r["previous_revision"]) for r in chain]
    except (KeyError, TypeError, ValueError):
        return None
    if any(start != receipt_revision(r) for start, r in zip(starts[1:], chain, strict=False)):
        return None
    return starts[0]


def snapshot_store(*, campaign_id, read: SnapshotRead, revision: int) -> bool:
    """Upsert one row unless a newer revision is already stored; returns whether it wrote."""
    data = dict(read.data)
    if read.images:
        recipients: list[str] = []
        if read.audience == GM:
            audience = "gm"
        elif read.audience.startswith(VIEWER_PREFIX):
            audience, recipients = "private", [read.audience.removeprefix(VIEWER_PREFIX)]
        else:
            audience = "public"
        data["images"] = [
            artifact_envelope(
                artifact_store(
                    campaign_id=campaign_id,
                    block=block,
                    audience=audience,
                    recipient_ids=recipients,
                )
            )
            for block in read.images
        ]
    now = timezone.now()
    row = ProjectionSnapshot(
        campaign_id=campaign_id,
        scope=read.scope,
        audience=read.audience,
        authority_revision=revision,
        data=data,
        created_at=now,
        updated_at=now,
    )
    return _upsert(row)


_UPSERT_FIELDS = (
    "id", "created_at", "updated_at", "campaign_id", "scope", "audience", "authority_revision",
    "data",
)  # fmt: skip


def _upsert(row: ProjectionSnapshot) -> bool:
    """One statement: insert the row, or overwrite the stored one unless that one holds a
    newer revision (an older read never overwrites it). True if it wrote."""
    meta = ProjectionSnapshot._meta
    table = connection.ops.quote_name(meta.db_table)
    columns = [meta.get_field(name.removesuffix("_id")).column for name in _UPSERT_FIELDS]
    params = [
        meta.get_field(name.removesuffix("_id")).get_db_prep_save(
            getattr(row, name), connection=connection
        )
        for name in _UPSERT_FIELDS
    ]
    q = connection.ops.quote_name
    sql = (
        f"INSERT INTO {table} ({', '.join(q(c) for c in columns)}) "  # noqa: S608
        f"VALUES ({', '.join(['%s'] * len(columns))}) "
        f"ON CONFLICT ({q('campaign_id')}, {q('scope')}, {q('audience')}) DO UPDATE SET "
        f"{q('authority_revision')} = EXCLUDED.{q('authority_revision')}, "
        f"{q('data')} = EXCLUDED.{q('data')}, {q('updated_at')} = EXCLUDED.{q('updated_at')} "
        f"WHERE {table}.{q('authority_revision')} <= EXCLUDED.{q('authority_revision')} "
        f"RETURNING {q('id')}"
    )
    with connection.cursor() as cursor:
        cursor.execute(sql, params)
        return cursor.fetchone() is not None


def projection_apply(*, campaign: Campaign, refresh: Refresh, phase_written: bool = False) -> None:
    """Write the re-read rows and announce `state.changed` (inside the caller's transaction).
    Does nothing for a refresh that does not advance the revision. `phase_written`: the
    receipt's UPDATE in this transaction already stored the refreshed phase."""
    if not refresh.advances:
        return
    for read in refresh.reads:
        snapshot_store(campaign_id=campaign.pk, read=read, revision=refresh.revision)
    if refresh.chain_start is not None and refresh.unchanged:
        # What these receipts did not change is as it was: the viewers' panel reads find those
        # rows current instead of asking the domain again after every turn.
        ProjectionSnapshot.objects.filter(
            campaign_id=campaign.pk,
            scope__in=refresh.unchanged,
            authority_revision=refresh.chain_start,
        ).update(authority_revision=refresh.revision, updated_at=timezone.now())
    if refresh.phase and not phase_written:
        Campaign.objects.filter(pk=campaign.pk, authority_revision__lte=refresh.revision).exclude(
            phase=refresh.phase
        ).update(phase=refresh.phase, updated_at=timezone.now())
        campaign.phase = refresh.phase
    state_changed_emit(
        campaign_id=campaign.pk, revision=refresh.revision, scopes=refresh.changed_scopes,
        entity_ids=refresh.entity_ids, audience=refresh.audience, user_ids=refresh.user_ids,
    )  # fmt: skip


def state_changed_emit(
    *, campaign_id, revision: int, scopes: Iterable[str], entity_ids: Iterable[str] = (),
    audience: str = PUBLIC, user_ids: Iterable[str] = (),
) -> None:  # fmt: skip
    """Announce `state.changed` (inside the caller's transaction): its viewers read again the
    panels those scopes show. To the audience, or to `user_ids` alone (then "private")."""
    users = [str(user_id) for user_id in user_ids]
    outbox_emit(
        event_type=STATE_CHANGED,
        campaign_id=campaign_id,
        payload={
            "authority_revision": revision,
            "changed_scopes": sorted(scopes),
            "entity_ids": sorted(entity_ids),
            "audience": "private" if users else audience,
        },
        audience={"users": users} if users else audience,
    )


def snapshots_for(
    *, campaign: Campaign, audience: str, viewer: str | None = None
) -> dict[str, ProjectionSnapshot]:
    """The current rows for an audience (and the public ones, and the viewer's own character
    card), by panel key."""
    audiences = [audience, PUBLIC]
    rows = ProjectionSnapshot.objects.filter(campaign=campaign, audience__in=audiences)
    if viewer is not None:
        rows = rows | ProjectionSnapshot.objects.filter(
            campaign=campaign, audience=viewer, scope=CARD.key
        )
    return {row.scope: row for row in rows}
