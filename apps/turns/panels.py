"""The per-viewer room panel: projection rows for the viewer's audience, read through the
domain with the viewer's own delegation when a row is missing or behind."""

from __future__ import annotations

from typing import Any

from django.utils import timezone

from apps.campaigns.models import Campaign, CampaignMembership
from apps.campaigns.selectors import bindings_chosen_first, character_creation_open
from apps.domains.client import domain_call
from apps.domains.errors import DomainError
from apps.domains.registry import get_plugin
from apps.rooms.selectors import MANAGER_ROLES
from apps.turns.models import ProjectionSnapshot
from apps.turns.projections import (
    CARD,
    GM,
    PUBLIC,
    SnapshotRead,
    panel_read,
    snapshot_store,
    snapshots_for,
    viewer_audience,
)
from apps.turns.selectors import active_jobs_for_viewer
from apps.turns.services.jobs import job_view


def _character_card(
    campaign: Campaign,
    membership: CampaignMembership,
    viewer: str,
    row: ProjectionSnapshot | None,
    character_id: str = "",
) -> dict[str, Any] | None:
    """The viewer's bound character (`character_id` when it is one of theirs, else their
    first), from their card row while no receipt has changed it, else read through the domain
    with their own delegation (and stored). Bound without "Can see the private sheet", only
    who it is."""
    binding = bindings_chosen_first(
        campaign_id=campaign.pk, user_id=membership.user_id, character_id=character_id
    ).first()
    if binding is None:
        return None
    if not binding.can_view_private:
        name = binding.character_name or binding.character_id
        return {"id": binding.character_id, "name": name, "sheet_private": True}
    if (
        row is not None
        and row.authority_revision >= campaign.authority_revision
        and row.data.get("id") == binding.character_id
    ):
        return row.data
    try:
        result = domain_call(
            system_id=campaign.system_id,
            tool=CARD.read_tool,
            arguments={"character_id": binding.character_id},
            requester=membership.user,
            campaign_id=campaign.domain_id,
        )
    except DomainError as exc:
        return {"id": binding.character_id, "name": binding.character_name,
                "error": {"code": exc.domain_code}}  # fmt: skip
    card = result.structured.get("character") or {"id": binding.character_id}
    snapshot_store(
        campaign_id=campaign.pk,
        read=SnapshotRead(CARD.key, viewer, card),
        revision=int(result.authority_revision or campaign.authority_revision),
    )
    return card


def panel_for_viewer(*, membership: CampaignMembership, character_id: str = "") -> dict[str, Any]:
    """Everything the side panels show this viewer, with the card of `character_id` if it is
    theirs (the one they act as). Raises the domain client's transport errors only for the
    character card's server; panel reads degrade to their last row."""
    campaign = Campaign.objects.get(pk=membership.campaign_id)
    manager = membership.role in MANAGER_ROLES
    # A player's (or observer's) rows are their own: the domain may show each one different
    # things, so one player's view is never served to another.
    viewer = viewer_audience(membership.user_id)
    audience = GM if manager else viewer
    plugin = get_plugin(campaign.system_id)
    rows = snapshots_for(campaign=campaign, audience=audience, viewer=viewer)
    panels: dict[str, Any] = {}
    memo: dict = {}
    for panel in plugin.panels:
        row_audience = audience if panel.audience_filtered else PUBLIC
        row = rows.get(panel.key)
        if (
            row is not None
            and row.audience == row_audience
            and (row.authority_revision >= campaign.authority_revision)
        ):
            data, revision = row.data, row.authority_revision
        else:
            read = panel_read(campaign=campaign, panel=panel, requester=membership.user, memo=memo)
            if read is None:
                data = row.data if row is not None else {"error": {"code": "unavailable"}}
                revision = row.authority_revision if row is not None else None
            else:
                read.audience = row_audience
                revision = int(read.data.get("authority_revision") or campaign.authority_revision)
                snapshot_store(campaign_id=campaign.pk, read=read, revision=revision)
                data = snapshots_for(campaign=campaign, audience=audience)[panel.key].data
        panels[panel.key] = {"label": str(panel.label), "revision": revision, "data": data}
    # Before the read: a job changed since is newer than this, and a page keeps its own view.
    jobs_read_at = timezone.now()
    jobs, jobs_more = active_jobs_for_viewer(campaign_id=campaign.pk, membership=membership)
    return {
        "campaign_id": str(campaign.pk),
        "system_id": campaign.system_id,
        "phase": campaign.phase,
        # Whether this viewer's role may create a character in the current phase (the card's
        # "Create a character" link).
        "character_creation_open": character_creation_open(campaign=campaign, role=membership.role),
        "authority_revision": campaign.authority_revision,
        "role": membership.role,
        "audience": GM if manager else "players",
        "panels": panels,
        "character": _character_card(
            campaign, membership, viewer, rows.get(CARD.key), character_id
        ),
        "jobs": [job_view(job) for job in jobs],
        "jobs_has_more": jobs_more,
        "jobs_read_at": jobs_read_at.isoformat(),
    }
