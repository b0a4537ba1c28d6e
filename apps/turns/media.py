"""Media in tool results: images become private, audience-bound artifacts; text, resource and
embedded-resource blocks stay in the journal as the server sent them."""

from __future__ import annotations

import base64
import binascii
import hashlib
from dataclasses import dataclass
from typing import Any

from django.conf import settings
from django.db import IntegrityError, transaction

from apps.turns.models import RoomMediaArtifact

DEFAULT_MAX_BYTES = 4 * 1024 * 1024
MAX_BLOCKS = 64
# Shown inline in an <img>; anything else is offered as a download by the view.
INLINE_TYPES = frozenset({"image/png", "image/jpeg", "image/gif", "image/webp", "image/svg+xml"})


def max_bytes() -> int:
    return int(getattr(settings, "SAGASMITH_TURN_ARTIFACT_MAX_BYTES", DEFAULT_MAX_BYTES))


@dataclass(frozen=True)
class ImageBlock:
    index: int
    mime_type: str
    data: bytes

    @property
    def sha256(self) -> str:
        return hashlib.sha256(self.data).hexdigest()


def image_blocks(result: dict[str, Any] | None) -> list[ImageBlock]:
    """The decodable images of a CallToolResult, within the size limit; others are skipped
    (they stay in the journal, so nothing is lost, only not shown)."""
    blocks: list[ImageBlock] = []
    for index, block in enumerate(((result or {}).get("content") or [])[:MAX_BLOCKS]):
        if not isinstance(block, dict) or block.get("type") != "image":
            continue
        try:
            data = base64.b64decode(block.get("data") or "", validate=True)
        except (binascii.Error, ValueError):
            continue
        mime = str(block.get("mimeType") or "application/octet-stream")[:100]
        if not data or len(data) > max_bytes():
            continue
        blocks.append(ImageBlock(index=index, mime_type=mime, data=data))
    return blocks


def artifact_store(
    *,
    campaign_id,
    block: ImageBlock,
    audience: str,
    recipient_ids: list[str] | None = None,
    job_id=None,
    step: int | None = None,
) -> RoomMediaArtifact:
    """Store (or find, by checksum and audience) one image artifact; idempotent."""
    recipients = sorted(recipient_ids or [])
    lookup = {
        "campaign_id": campaign_id,
        "sha256": block.sha256,
        "audience": audience,
        "recipient_ids": recipients,
    }
    existing = RoomMediaArtifact.objects.filter(**lookup).first()
    if existing is not None:
        return existing
    try:
        with transaction.atomic():
            return RoomMediaArtifact.objects.create(
                **lookup,
                job_id=job_id,
                step=step,
                content_index=block.index,
                kind="image",
                mime_type=block.mime_type,
                size_bytes=len(block.data),
                data=block.data,
            )
    except IntegrityError:
        return RoomMediaArtifact.objects.get(**lookup)


def artifact_url(artifact: RoomMediaArtifact) -> str:
    # Built by hand, not reverse(): the worker must not depend on the web URLconf wiring.
    return f"/campaigns/{artifact.campaign_id}/room/artifacts/{artifact.id}"


def artifact_envelope(artifact: RoomMediaArtifact) -> dict[str, Any]:
    return {
        "artifact_id": str(artifact.id),
        "kind": artifact.kind,
        "mime_type": artifact.mime_type,
        "size_bytes": artifact.size_bytes,
        "sha256": artifact.sha256,
        "url": artifact_url(artifact),
    }
