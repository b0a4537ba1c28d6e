"""A GM's narration is applied by the game master (real browser, uvicorn, live dnd5e server,
the worker in Celery's eager mode): "we take a long rest" sent in Narration mode heals the
party, which a GM action cannot do; narration no command takes is shown once, with no reply."""

from __future__ import annotations

import pytest

from tests.browser.conftest import fighters_table, gm_and_ilsa_in_the_room
from tests.browser.test_character_card_concentration import _write
from tests.browser.test_room_live import _say, _wait_for_texts, asgi_server  # noqa: F401
from tests.browser.test_room_turns import _settle
from tests.turns.rooms_support import eager  # noqa: F401

REST = "The party finishes a long rest: Ilsa 12/12 HP."


@pytest.mark.browser
@pytest.mark.django_db(transaction=True)
def test_a_gm_narrates_a_long_rest_and_the_rules_apply_it(
    browser,
    asgi_server,  # noqa: F811
    live_domains,  # noqa: F811
    eager,  # noqa: F811
    make_user,
):
    from playwright.sync_api import expect

    from apps.turns.models import RoomTurnJob

    campaign, _users, names = fighters_table(make_user, name="Inn", fighters=["Ilsa"])
    (ilsa_id,) = names
    _write(campaign, campaign.owner, "phase_set", phase="play")
    _write(campaign, campaign.owner, "damage_apply", target_id=ilsa_id, amount=5)
    with gm_and_ilsa_in_the_room(browser, asgi_server, campaign) as (gm, ilsa):
        hp = ilsa.locator('#turn-character [data-field="hp-text"]')
        expect(hp).to_have_text("7/12")

        _say(gm, "we take a long rest", mode="narration")
        _settle(campaign, 1)
        for page in (gm, ilsa):
            _wait_for_texts(page, ["we take a long rest", REST])
            expect(page.locator("#timeline li[data-sequence]").first).to_have_class(
                "entry entry--narration"
            )
        expect(hp).to_have_text("12/12")
        job = RoomTurnJob.objects.get(campaign=campaign)
        assert (job.task, job.status, "long_rest" in job.tools) == ("narration", "succeeded", True)

        _say(gm, "Dawn breaks over the inn.", mode="narration")
        _settle(campaign, 2)
        for page in (gm, ilsa):
            _wait_for_texts(page, ["we take a long rest", REST, "Dawn breaks over the inn."])
        expect(gm.locator("#turn-jobs li")).to_have_count(0)
