"""Staff pages for sagas read related rows in a fixed number of queries, never one per row."""

import datetime

import pytest
from django.contrib.contenttypes.models import ContentType
from django.test import Client

from apps.saga.models import OpsMemoryEntry, Saga, SagaArtifact
from tests.saga.conftest import finish, simple_plan, started

pytestmark = pytest.mark.django_db


def _sagas(make_user, count):
    """`count` sagas of different owners, each with events, artifacts and a memory entry."""
    sagas = []
    for i in range(count):
        owner = make_user(f"owner{i}@example.test")
        saga_id, _ = started(owner, plan=simple_plan(count + 1))
        for n in range(1, count + 1):
            finish(owner, saga_id, f"part{n}.md")
        saga = Saga.objects.get(key=saga_id)
        OpsMemoryEntry.objects.create(
            owner=owner, saga=saga, day=datetime.date(2026, 1, 1), text="entry"
        )
        sagas.append(saga)
    return sagas


def _staff_client(make_user):
    client = Client()
    client.force_login(make_user("staff@example.test", is_staff=True, is_superuser=True))
    return client


def _selected(queries, table):
    """Columns of `table` that the page's SELECTs from that table read."""
    import re

    columns = set()
    for query in queries:
        sql = query["sql"]
        if sql.startswith("SELECT") and f'FROM "{table}"' in sql:
            columns |= set(re.findall(rf'"{table}"\."(\w+)"', sql.split(" FROM ")[0]))
    return columns


@pytest.mark.parametrize("count", [1, 4])
def test_saga_admin_pages_read_in_fixed_queries_without_artifact_contents(
    make_user, django_assert_num_queries, count
):
    client = _staff_client(make_user)
    sagas = _sagas(make_user, count)
    client.get("/admin/")  # the first request of a session also records the session
    # Content types are cached per process: warm them whatever ran before.
    ContentType.objects.get_for_models(Saga, SagaArtifact, OpsMemoryEntry)
    with django_assert_num_queries(5) as listing_queries:
        listing = client.get("/admin/saga/saga/")
    assert listing.status_code == 200
    assert listing.context["cl"].result_count == count
    assert "state" not in _selected(listing_queries.captured_queries, "saga_saga")
    with django_assert_num_queries(6) as page_queries:
        page = client.get(f"/admin/saga/saga/{sagas[0].pk}/change/")
    assert page.status_code == 200
    assert _selected(page_queries.captured_queries, "saga_sagaartifact") == {
        "id", "created_at", "updated_at", "saga_id", "path", "size"
    }  # fmt: skip
    with django_assert_num_queries(5) as artifact_queries:
        listing = client.get("/admin/saga/sagaartifact/")
    assert listing.status_code == 200
    assert listing.context["cl"].result_count == count * count
    assert "content" not in _selected(artifact_queries.captured_queries, "saga_sagaartifact")
    assert "state" not in _selected(artifact_queries.captured_queries, "saga_saga")
    artifact = SagaArtifact.objects.get(saga=sagas[0], path="part1.md")
    with django_assert_num_queries(4):
        page = client.get(f"/admin/saga/sagaartifact/{artifact.pk}/change/")
    assert page.status_code == 200
    assert page.context["adminform"].form.instance.content == "hello world"
    with django_assert_num_queries(5):
        listing = client.get("/admin/saga/opsmemoryentry/")
    assert listing.status_code == 200
    assert listing.context["cl"].result_count == count
