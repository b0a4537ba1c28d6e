import os
import time
from contextlib import contextmanager

import pytest

from tests.conftest import service_missing

# Defined here, not imported by each module: a session fixture imported into a module is that
# module's own, so every module started (and kept to the end) a pair of domain servers.
from tests.turns.conftest import live_domains, turns_stay_queued  # noqa: F401

CHROMIUM = "/usr/bin/chromium"
CHROMIUM_ARGS = ["--headless", "--no-sandbox", "--disable-gpu", "--disable-background-networking"]


def wait_until_true(page, expression: str, timeout: float = 30.0) -> None:
    """Wait until the JavaScript `expression` is true in `page`. Playwright's wait_for_function
    polls by evaluating a string in the page, which the pages' policy (no 'unsafe-eval') blocks;
    page.evaluate is run by the browser's debugger and is not."""
    deadline = time.monotonic() + timeout
    while not page.evaluate(expression):
        assert time.monotonic() < deadline, f"{expression} still false after {timeout} s"
        page.wait_for_timeout(50)


@contextmanager
def dialogs_answered(page, *, accept: bool):
    """The messages of the dialogs (confirms, alerts) `page` shows inside the block, in order,
    each accepted or dismissed as `accept` says."""
    asked: list[str] = []

    def answer(dialog):
        asked.append(dialog.message)
        if accept:
            dialog.accept()
        else:
            dialog.dismiss()

    page.on("dialog", answer)
    try:
        yield asked
    finally:
        page.remove_listener("dialog", answer)


@pytest.fixture(scope="package")
def chromium():
    """One Chromium for the whole package (launching one per test cost about a second each).
    Package scope, not session: a live sync Playwright keeps its event loop marked as running
    in this thread, which would break every async test that runs after the package."""
    if not os.path.exists(CHROMIUM):
        service_missing("Debian's chromium is not installed at /usr/bin/chromium")
    # Playwright's sync API refuses to run inside a running event loop; Django's async-safety
    # check would also trip on ORM use from this thread, which pytest-django handles for us.
    os.environ.setdefault("DJANGO_ALLOW_ASYNC_UNSAFE", "true")
    from playwright.sync_api import expect, sync_playwright

    # An assertion waits up to 15 s, not Playwright's 5: on a loaded CI machine a turn's way
    # from the composer to the page (request, commit, publication, socket) once took longer.
    expect.set_options(timeout=15_000)
    with sync_playwright() as p:
        browser = p.chromium.launch(executable_path=CHROMIUM, args=CHROMIUM_ARGS)
        yield browser
        browser.close()


@pytest.fixture
def browser(chromium):
    """The package's Chromium; the contexts a test leaves open are closed after it, so no page
    of one test (and its socket, reconnecting to a server that is gone) outlives it."""
    yield chromium
    for context in chromium.contexts:
        context.close()


def table_for(make_user, *, system_id: str, name: str, players=(), observers=()):
    """A campaign run by gm@example.test ("Gail GM") with its room, and its members: each
    player or observer is (email, display name). Returns (campaign, users by email)."""
    import uuid

    from apps.campaigns.services.campaigns import campaign_create
    from apps.rooms.services import room_get_or_create
    from tests.campaigns.conftest import join

    gm = make_user("gm@example.test", display_name="Gail GM")
    campaign = campaign_create(
        owner=gm, name=name, system_id=system_id, idempotency_key=uuid.uuid4().hex
    )
    users = {"gm@example.test": gm}
    for role, people in (("player", players), ("observer", observers)):
        for email, display_name in people:
            users[email] = make_user(email, display_name=display_name)
            join(campaign, gm, users[email], role=role)
    room_get_or_create(campaign=campaign)
    return campaign, users


def campaign_with_invites(make_user, *expiring):
    """gm@example.test's ("Gail GM") campaign "Curse of Strahd", with a live invite for each
    (role, expires_at) in `expiring`. Returns (campaign, [invites])."""
    import uuid
    from datetime import timedelta

    from apps.campaigns.models import CampaignInvite
    from apps.campaigns.services.campaigns import campaign_create
    from apps.campaigns.services.invites import invite_create

    gm = make_user("gm@example.test", display_name="Gail GM")
    campaign = campaign_create(
        owner=gm, name="Curse of Strahd", system_id="dnd5e", idempotency_key=uuid.uuid4().hex
    )
    invites = []
    for role, expires_at in expiring:
        invite, _token = invite_create(
            campaign=campaign, actor=gm, mode="request", expires_in=timedelta(hours=5),
            max_uses=1, role=role,
        )  # fmt: skip
        CampaignInvite.objects.filter(pk=invite.pk).update(expires_at=expires_at)
        invites.append(invite)
    return campaign, invites


def account_on_a_zero_plan(user):
    """`user`'s quota account on a plan that grants nothing, so a test's own grants are all the
    credits its pages show."""
    from apps.quota.models import Plan
    from apps.quota.services import quota_account_for

    plan = Plan.objects.create(slug="zero", name="Zero", periodic_grant=0, period="none")
    return quota_account_for(user=user, plan=plan)


def fighters_table(make_user, *, name: str, fighters):
    """A dnd5e `table_for` whose one player, ilsa@example.test ("Ilsa Player"), has a level 1
    fighter of each name in `fighters`. Returns (campaign, users by email, {character id:
    name})."""
    from apps.campaigns.services.characters import character_create_for

    campaign, users = table_for(
        make_user, system_id="dnd5e", name=name, players=[("ilsa@example.test", "Ilsa Player")]
    )
    mine = {}
    for fighter in fighters:
        binding = character_create_for(
            campaign=campaign, user=users["ilsa@example.test"],
            form_data={"name": fighter, "template": "fighter", "level": 1},
        )  # fmt: skip
        mine[binding.character_id] = fighter
    return campaign, users, mine


@contextmanager
def in_the_room(browser, base_url: str, campaign, *emails: str):
    """The pages of these users, each in a browser context of its own, signed in and open on
    the campaign's room; the contexts close afterwards."""
    from tests.browser.test_room_history import VIEWPORT, _open
    from tests.browser.test_room_live import _sign_in

    contexts = [browser.new_context(viewport=VIEWPORT) for _ in emails]
    try:
        pages = [
            _sign_in(c, base_url, e, land=False) for c, e in zip(contexts, emails, strict=True)
        ]
        for page in pages:
            _open(page, f"{base_url}/campaigns/{campaign.id}/room/")
        yield pages
    finally:
        for context in contexts:
            context.close()


def gm_and_ilsa_in_the_room(browser, base_url: str, campaign):
    """The GM's and Ilsa's pages (gm@example.test, ilsa@example.test), as in_the_room."""
    return in_the_room(browser, base_url, campaign, "gm@example.test", "ilsa@example.test")


@contextmanager
def gm_and_ilsa_in_combat(
    browser, base_url: str, make_user, *, name: str, fighters=("Ilsa",), monsters="a goblin"
):
    """A `fighters_table` called `name` with the GM's and Ilsa's pages in its room, once the
    GM has started combat with `monsters` and that turn has settled. Yields (campaign, GM's
    page, Ilsa's page)."""
    from tests.browser.test_room_live import _say
    from tests.browser.test_room_turns import _settle

    campaign, _users, _mine = fighters_table(make_user, name=name, fighters=list(fighters))
    with gm_and_ilsa_in_the_room(browser, base_url, campaign) as (gm, ilsa):
        _say(gm, f"start combat with {monsters}", mode="action")
        _settle(campaign, 1)
        yield campaign, gm, ilsa
