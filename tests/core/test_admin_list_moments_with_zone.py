"""Every admin list writes a moment as the pages do, with its zone ("Dec 7, 2026, 5:26 AM UTC"):
the admin renders a datetime field's column in the page's zone without naming it, and a moment
with no zone reads as the reader's own."""

from __future__ import annotations

import re
from datetime import UTC, datetime

import pytest
from django.contrib import admin
from django.core.exceptions import FieldDoesNotExist
from django.db import models
from django.test import RequestFactory

from apps.core.models import AuditEvent

pytestmark = pytest.mark.django_db

AT = datetime(2026, 12, 7, 5, 26, tzinfo=UTC)
MODELS = sorted(admin.site._registry, key=lambda model: model._meta.label)


def _datetime_field(model, name) -> bool:
    try:
        return isinstance(model._meta.get_field(name), models.DateTimeField)
    except FieldDoesNotExist:  # a method or property: the project writes it itself
        return False


@pytest.mark.parametrize("model", MODELS, ids=lambda model: model._meta.label)
def test_no_list_leaves_a_datetime_field_for_the_admin_to_write_without_its_zone(model, make_user):
    request = RequestFactory().get("/admin/")
    request.user = make_user("root@example.test", is_staff=True, is_superuser=True)
    listed = admin.site._registry[model].get_list_display(request)
    assert [name for name in listed if isinstance(name, str) and _datetime_field(model, name)] == []


def heading(html: str) -> list[tuple[str, str]]:
    """The created_at column's heading: its classes and its words."""
    found = re.findall(
        r'<th scope="col" class="([^"]*column-created_at[^"]*)">(.*?)</th>', html, re.S
    )
    return [(classes, " ".join(re.sub(r"<[^>]+>", " ", text).split())) for classes, text in found]


def test_the_audit_list_says_when_with_the_zone_sorted_and_linked_as_before(client, make_user):
    root = make_user("root@example.test", is_staff=True, is_superuser=True)
    event = AuditEvent.objects.create(
        action="account.created", subject_type="user", subject_id="moment-9f2c"
    )
    AuditEvent.objects.filter(pk=event.pk).update(created_at=AT)
    client.force_login(root)
    html = client.get("/admin/core/auditevent/?q=moment-9f2c").content.decode()
    assert heading(html) == [("sortable column-created_at", "Created at")]
    first = re.findall(r'<th class="field-created_at"><a href="([^"]+)">(.*?)</a></th>', html, re.S)
    assert first == [
        (
            f"/admin/core/auditevent/{event.pk}/change/?_changelist_filters=q%3Dmoment-9f2c",
            '<time datetime="2026-12-07T05:26:00+00:00"><span class="nowrap">Dec 7, 2026,</span> '
            '<span class="nowrap">5:26 AM UTC</span></time>',
        )
    ]
    oldest_first = client.get("/admin/core/auditevent/?q=moment-9f2c&o=0").content.decode()
    assert heading(oldest_first) == [("sortable column-created_at sorted ascending", "Created at")]
