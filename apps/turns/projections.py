"""Panel projections rebuilt from receipts (architecture.md section 7).

A receipt names the new authority revision and the changed scopes. Only panels whose scopes
changed are re-read, through the plugin's read tool, once per audience: "gm" (read as the
campaign owner), "players" (read as a player: the domain filters its views by the token's
role, so every player gets the same view) or "public" for panels that are not audience
filtered. A receipt that does not advance the campaign's revision invalidates nothing.

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

from apps.campaigns.models import Campaign, CampaignMembership
from apps.campaigns.services.authority import receipt_revision
from apps.domains.client import domain_call
from apps.domains.errors import DomainError
from apps.domains.registry import Panel, get_plugin
from apps.projections.services import outbox_emit
from apps.turns.media import ImageBlock, artifact_envelope, artifact_store, image_blocks
from apps.turns.models import ProjectionSnapshot

logger = logging.getLogger(__name__)

STATE_CHANGED = "state.changed"
GM, PLAYERS, PUBLIC = "gm", "players", "public"


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
    audience: str = PUBLIC
    reads: list[SnapshotRead] = field(default_factory=list)
    phase: str | None = None

    @property
    def advances(self) -> bool:
        return self.revision is not None


def _readers(campaign: Campaign, panel: Panel, fallback) -> list[tuple[str, Any]]:
    """(audience, principal) pairs a panel is read as."""
    if not panel.audience_filtered:
        return [(PUBLIC, fallback)]
    readers: list[tuple[str, Any]] = [(GM, campaign.owner)]
    player = (
        CampaignMembership.objects.select_related("user")
        .filter(
            campaign=campaign,
            status=CampaignMembership.Status.ACTIVE,
            role=CampaignMembership.Role.PLAYER,
        )
        .order_by("created_at")
        .first()
    )
    if player is not None:
        readers.append((PLAYERS, player.user))
    return readers


def panel_read(*, campaign: Campaign, panel: Panel, requester) -> SnapshotRead | None:
    """One panel through its read tool as `requester`; a refusal (e.g. no combat) is recorded
    as the panel's state, an unreachable server returns None (the old row stays)."""
    try:
        result = domain_call(
            system_id=campaign.system_id,
            tool=panel.read_tool,
            arguments={},
            requester=requester,
            campaign_id=campaign.domain_id,
        )
    except DomainError as exc:
        return SnapshotRead(panel.key, "", {"error": {"code": exc.domain_code}})
    except Exception:
        logger.warning("Panel %s read failed", panel.key, exc_info=True)
        return None
    data = dict(result.structured)
    return SnapshotRead(panel.key, "", data, images=image_blocks(result.result))


def projection_reads(
    *, campaign: Campaign, receipts: Iterable[dict[str, Any]], requester
) -> Refresh:
    """Re-read the panels the advancing receipts changed. Holds no transaction."""
    fresh = [r for r in receipts if receipt_revision(r) > campaign.authority_revision]
    if not fresh:
        return Refresh()
    scopes = sorted({s for r in fresh for s in r.get("changed_scopes", [])})
    entity_ids = sorted({e for r in fresh for e in r.get("entity_ids", [])})
    audience = GM if all(r.get("audience") == GM for r in fresh) else PUBLIC
    refresh = Refresh(
        revision=max(receipt_revision(r) for r in fresh),
        changed_scopes=scopes,
        entity_ids=entity_ids,
        audience=audience,
    )
    plugin = get_plugin(campaign.system_id)
    for panel in plugin.panels:
        if not panel.refreshed_by(scopes):
            continue
        for panel_audience, principal in _readers(campaign, panel, requester):
            read = panel_read(campaign=campaign, panel=panel, requester=principal)
            if read is None:
                continue
            read.audience = panel_audience
            refresh.reads.append(read)
            view = read.data.get("campaign")
            if isinstance(view, dict) and view.get("phase"):
                refresh.phase = str(view["phase"])
    return refresh


def snapshot_store(*, campaign_id, read: SnapshotRead, revision: int) -> bool:
    """Upsert one row unless a newer revision is already stored; returns whether it wrote."""
    data = dict(read.data)
    if read.images:
        recipients: list[str] = []
        audience = "gm" if read.audience == GM else "public"
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
    if refresh.phase and not phase_written:
        Campaign.objects.filter(pk=campaign.pk, authority_revision__lte=refresh.revision).exclude(
            phase=refresh.phase
        ).update(phase=refresh.phase, updated_at=timezone.now())
        campaign.phase = refresh.phase
    outbox_emit(
        event_type=STATE_CHANGED,
        campaign_id=campaign.pk,
        payload={
            "authority_revision": refresh.revision,
            "changed_scopes": refresh.changed_scopes,
            "entity_ids": refresh.entity_ids,
            "audience": refresh.audience,
        },
        audience=refresh.audience,
    )


def snapshots_for(*, campaign: Campaign, audience: str) -> dict[str, ProjectionSnapshot]:
    """The current rows for an audience (and the public ones), by panel key."""
    rows = ProjectionSnapshot.objects.filter(campaign=campaign, audience__in=[audience, PUBLIC])
    return {row.scope: row for row in rows}
