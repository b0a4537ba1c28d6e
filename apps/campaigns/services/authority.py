"""Shared plumbing for domain writes: revision-based calls and applying receipts."""

from __future__ import annotations

import hashlib
from typing import Any

from django.db import transaction
from django.utils import timezone

from apps.domains.client import DomainResult, domain_call
from apps.domains.errors import DomainError

from ..models import Campaign

STALE_RETRIES = 3
# The domain contract's idempotency key: printable ASCII, no space at either end, at most this.
DOMAIN_KEY_MAX = 200


def domain_key(key: str) -> str:
    """`key` as the rules server takes it: itself when it fits, else its digest. A key built
    from a client's Idempotency-Key header (any printable text) or from long ids may not fit;
    the digest names the same request just as well, so a retry still replays."""
    fits = len(key) <= DOMAIN_KEY_MAX and key.isascii() and key.isprintable()
    if fits and key == key.strip():
        return key
    return "sha256:" + hashlib.sha256(key.encode()).hexdigest()


def campaign_refresh(*, campaign: Campaign, requester) -> DomainResult:
    """Read `campaign_get` as `requester` and store the revision and phase it reports."""
    result = domain_call(
        system_id=campaign.system_id,
        tool="campaign_get",
        arguments={},
        requester=requester,
        campaign_id=campaign.domain_id,
    )
    view = result.structured.get("campaign") or {}
    revision = int(result.structured.get("authority_revision") or 0)
    phase = str(view.get("phase") or campaign.phase)
    rows = Campaign.objects.filter(pk=campaign.pk)
    now = timezone.now()
    with transaction.atomic():
        # Never backwards: a publication may have stored a newer revision (and its phase)
        # while this read was under way.
        advanced = rows.filter(authority_revision__lt=revision).update(
            authority_revision=revision, phase=phase, updated_at=now
        )
        if advanced:
            _announce_unpublished(campaign, revision)
        elif (
            rows.filter(authority_revision=revision)
            .exclude(phase=phase)
            .update(phase=phase, updated_at=now)
        ):
            # A phase its turn's publication could not read: the room's panels show it.
            _announce_unpublished(campaign, revision)
    if revision >= campaign.authority_revision:
        campaign.authority_revision, campaign.phase = revision, phase
    return result


def _announce_unpublished(campaign: Campaign, revision: int) -> None:
    """The read learned of a write before its turn published it (that turn's receipt will then
    advance nothing), or of the phase its publication could not read: the room is told now.
    Which scopes changed is unknown: all the room's panels show are named, so every viewer
    reads them again."""
    from apps.domains.registry import get_plugin
    from apps.turns.projections import CARD, state_changed_emit

    panels = (CARD, *get_plugin(campaign.system_id).panels)
    state_changed_emit(
        campaign_id=campaign.pk, revision=revision,
        scopes={scope for panel in panels for scope in panel.scopes},
    )  # fmt: skip


def authority_write(
    *, campaign: Campaign, tool: str, arguments: dict[str, Any], requester, key: str
) -> DomainResult:
    """Call a domain write based on the projection's revision; on `stale_revision`, refresh and
    retry. The idempotency key is `key@revision`: a retry after a crash (projection unchanged)
    replays the committed result instead of writing twice.

    Raises DomainError, DomainUnavailable, DomainTimeout, DomainProtocolError."""
    revision = campaign.authority_revision
    for attempt in range(STALE_RETRIES):
        try:
            return domain_call(
                system_id=campaign.system_id,
                tool=tool,
                arguments={
                    **arguments,
                    "expected_revision": revision,
                    "idempotency_key": domain_key(f"{key}@{revision}"),
                },
                requester=requester,
                campaign_id=campaign.domain_id,
            )
        except DomainError as exc:
            if exc.domain_code != "stale_revision" or attempt == STALE_RETRIES - 1:
                raise
            campaign_refresh(campaign=campaign, requester=requester)
            revision = campaign.authority_revision
    raise AssertionError("unreachable")  # pragma: no cover


def receipt_revision(receipt: dict[str, Any] | None) -> int:
    """The authority revision a write's receipt names (0 for none)."""
    return int((receipt or {}).get("authority_revision") or 0)


def receipt_apply(*, campaign: Campaign, result: DomainResult, phase: str | None = None) -> bool:
    """Record a write's receipt on the projection; an older receipt never overwrites a newer one.
    `phase`, when given, is the phase read at that revision and is written with it. Returns
    whether it wrote. Call inside the transaction that applies the change."""
    receipt = result.receipt or {}
    revision = receipt_revision(receipt)
    changes = {"authority_revision": revision, "authority_receipt": receipt}
    if phase:
        changes["phase"] = phase
    updated = Campaign.objects.filter(pk=campaign.pk, authority_revision__lt=revision).update(
        **changes, updated_at=timezone.now()
    )
    if updated:
        for name, value in changes.items():
            setattr(campaign, name, value)
    else:
        # The projection is already at or past it: never report less than this receipt made.
        campaign.authority_revision = max(campaign.authority_revision, revision)
    return bool(updated)
