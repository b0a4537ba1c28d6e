import pytest
from django.conf import settings


@pytest.fixture(autouse=True)
def _short_lived_connections():
    """database_sync_to_async runs in asgiref's long-lived worker thread; with CONN_MAX_AGE its
    PostgreSQL connection would outlive the test and block dropping the test database."""
    db = settings.DATABASES["default"]
    old = db.get("CONN_MAX_AGE", 0)
    db["CONN_MAX_AGE"] = 0
    yield
    db["CONN_MAX_AGE"] = old
