"""What holds a reservation is said in the reader's language: the owner type's words are a
translatable string, for a charge stored with the code and one stored in English words alike."""

import pytest
from django.utils import translation
from django.utils.translation import trans_real

from apps.quota.models import LedgerEntry, owner_type_label


@pytest.fixture
def room_turn_in_chinese(monkeypatch):
    # The project ships no catalog yet: give the one string a translation for the test.
    chinese = trans_real.translation("zh-hans")
    gettext = chinese.gettext
    monkeypatch.setattr(
        chinese,
        "gettext",
        lambda message: "房间回合" if message == "Room turn" else gettext(message),
    )


@pytest.mark.parametrize("stored", ["room_turn", "Room turn"])
def test_the_owner_type_label_is_translated(room_turn_in_chinese, stored):
    with translation.override("zh-hans"):
        assert owner_type_label(stored) == "房间回合"
        charge = LedgerEntry(kind=LedgerEntry.Kind.CHARGE, description=stored)
        assert charge.description_in_words == "房间回合"
    with translation.override("en"):
        assert owner_type_label(stored) == "Room turn"


def test_an_owner_type_without_a_label_reads_as_its_words():
    assert owner_type_label("saga_step") == "Saga step"
    assert owner_type_label("") == ""


@pytest.mark.django_db
def test_a_charge_settled_in_chinese_stores_its_description_in_english(
    room_turn_in_chinese, make_user
):
    from apps.quota.models import Plan, QuotaGrant
    from apps.quota.services import quota_account_for, quota_grant, quota_reserve, quota_settle

    user = make_user("reader@example.test")
    plan = Plan.objects.create(slug="zero", name="Zero", periodic_grant=0, period="none")
    quota_grant(account=quota_account_for(user=user, plan=plan), amount=50,
                source=QuotaGrant.Source.STAFF)  # fmt: skip
    held = quota_reserve(user=user, amount=10, key="turn-1", owner_type="room_turn",
                         owner_id="job-1")  # fmt: skip
    with translation.override("zh-hans"):
        entry = quota_settle(reservation=held, actual=4)
        # Stored in the site's language; each reader sees it in theirs.
        assert entry.description == "Room turn"
        assert entry.description_in_words == "房间回合"
