"""The one place that names channel groups, so publishers and consumers always agree."""

from __future__ import annotations

from uuid import UUID


def room_group(campaign_id: UUID | str) -> str:
    return f"rooms.campaign.{UUID(str(campaign_id)).hex}"


def user_group(user_id: UUID | str) -> str:
    return f"rooms.user.{UUID(str(user_id)).hex}"
