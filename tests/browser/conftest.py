import os

import pytest

from tests.conftest import service_missing

CHROMIUM = "/usr/bin/chromium"
CHROMIUM_ARGS = ["--headless", "--no-sandbox", "--disable-gpu", "--disable-background-networking"]


@pytest.fixture
def browser():
    # Function scope on purpose: a live sync Playwright keeps its event loop marked as
    # running in this thread, which would break every async test that runs after it.
    if not os.path.exists(CHROMIUM):
        service_missing("Debian's chromium is not installed at /usr/bin/chromium")
    # Playwright's sync API refuses to run inside a running event loop; Django's async-safety
    # check would also trip on ORM use from this thread, which pytest-django handles for us.
    os.environ.setdefault("DJANGO_ALLOW_ASYNC_UNSAFE", "true")
    from playwright.sync_api import sync_playwright

    with sync_playwright() as p:
        browser = p.chromium.launch(executable_path=CHROMIUM, args=CHROMIUM_ARGS)
        yield browser
        browser.close()
