"""Every admin page a superuser can reach answers, and an empty add form is refused, not a 500."""

from __future__ import annotations

import pytest
from django.contrib import admin
from django.test import RequestFactory
from django.urls import reverse

pytestmark = pytest.mark.django_db

MODELS = sorted(admin.site._registry, key=lambda model: model._meta.label)


@pytest.fixture
def root(make_user):
    return make_user("root@example.test", is_staff=True, is_superuser=True)


@pytest.mark.parametrize("model", MODELS, ids=lambda model: model._meta.label)
def test_every_admin_list_and_add_page(client, root, model):
    client.force_login(root)
    prefix = f"admin:{model._meta.app_label}_{model._meta.model_name}"
    assert client.get(reverse(f"{prefix}_changelist")).status_code == 200
    add = reverse(f"{prefix}_add")
    request = RequestFactory().get(add)
    request.user = root
    if not admin.site._registry[model].has_add_permission(request):
        assert client.get(add).status_code == 403
        return
    assert client.get(add).status_code == 200
    # An empty form is refused with its errors shown, not saved half-made.
    assert client.post(add, {}).status_code == 200
