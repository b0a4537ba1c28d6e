"""Writes owned by core: the audit log."""

from __future__ import annotations

from typing import Any

from .models import AuditEvent
from .request_context import current_ip, current_request_id


def audit_record(
    *,
    actor,
    action: str,
    subject_type: str = "",
    subject_id: str = "",
    details: dict[str, Any] | None = None,
) -> AuditEvent:
    """Append one audit row; request id and IP come from the current request, if any."""
    return AuditEvent.objects.create(
        actor=actor if actor is not None and getattr(actor, "pk", None) else None,
        action=action,
        subject_type=subject_type,
        subject_id=str(subject_id) if subject_id else "",
        request_id=current_request_id.get(),
        ip_address=current_ip.get(),
        details=details or {},
    )


def site_sync(*, using: str = "default", **kwargs) -> None:
    """Name the Site row after the product (allauth signs its emails with it; Django's default
    is "example.com"): its name is SAGASMITH_SITE_NAME, its domain the first allowed host
    that is not a wildcard. Runs after every migrate."""
    from django.conf import settings
    from django.contrib.sites.models import Site
    from django.db import DEFAULT_DB_ALIAS

    if using != DEFAULT_DB_ALIAS:
        return
    hosts = [h for h in settings.ALLOWED_HOSTS if h and not h.startswith(("*", "."))]
    Site.objects.using(using).update_or_create(
        pk=settings.SITE_ID,
        defaults={"name": settings.SAGASMITH_SITE_NAME, "domain": (hosts or ["localhost"])[0]},
    )
