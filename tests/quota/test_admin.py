from datetime import timedelta

import pytest
from django.contrib import admin
from django.db.models import Q
from django.utils import formats, timezone

from apps.core.errors import QuotaExceeded
from apps.core.models import AuditEvent
from apps.quota import services
from apps.quota.models import LedgerEntry, Plan, QuotaAccount, QuotaGrant

from .conftest import assert_invariant

pytestmark = pytest.mark.django_db


def test_staff_grant_in_admin_goes_through_service_and_is_audited(staff_client, make_user, funded):
    client, staff = staff_client
    account = funded(make_user("player@example.test"), 2)
    response = client.post(
        "/admin/quota/quotagrant/add/",
        {
            "user": str(account.user_id),
            "amount": "40",
            "expires_at_0": "",
            "expires_at_1": "",
            "note": "bug bounty",
        },
    )
    assert response.status_code == 302, response.content.decode()[:2000]
    grant = QuotaGrant.objects.get(source="staff")
    assert (grant.amount, grant.remaining, grant.actor, grant.note) == (40, 40, staff, "bug bounty")
    account.refresh_from_db()
    assert account.balance == 42
    entry = LedgerEntry.objects.get(grant=grant)
    assert (entry.kind, entry.amount, entry.balance_after) == ("grant", 40, 42)
    # Exactly one audit row (the service's), not a second one from the admin mixin.
    events = AuditEvent.objects.filter(
        Q(action__startswith="quota.") | Q(action__startswith="admin."), actor=staff
    )
    assert list(events.values_list("action", "subject_id")) == [("quota.grant", str(account.pk))]


def test_admin_grant_rejects_non_positive_amount(staff_client, make_user, funded):
    client, _ = staff_client
    account = funded(make_user(), 2)
    response = client.post(
        "/admin/quota/quotagrant/add/", {"user": str(account.user_id), "amount": "0", "note": ""}
    )
    assert response.status_code == 200
    assert QuotaGrant.objects.filter(source="staff").count() == 0
    assert AuditEvent.objects.filter(action="quota.grant", actor__isnull=False).count() == 0


def test_ledger_is_read_only_in_admin(staff_client, make_user, funded):
    client, _ = staff_client
    account = funded(make_user(), 2)
    entry = LedgerEntry.objects.get(account=account)
    assert client.get(f"/admin/quota/ledgerentry/{entry.pk}/change/").status_code == 200
    assert (
        client.post(f"/admin/quota/ledgerentry/{entry.pk}/delete/", {"post": "yes"}).status_code
        == 403
    )
    assert client.get("/admin/quota/ledgerentry/add/").status_code == 403
    assert LedgerEntry.objects.filter(pk=entry.pk).exists()


def test_account_admin_cannot_edit_balance(staff_client, make_user, funded):
    client, staff = staff_client
    account = funded(make_user(), 5)
    free = services.plan_default()
    response = client.post(
        f"/admin/quota/quotaaccount/{account.pk}/change/",
        {"plan": str(free.pk), "balance": "999999"},
    )
    assert response.status_code == 302
    account.refresh_from_db()
    # The plan changed (audited by the service) and brought its 100 credits for the period;
    # the posted balance was ignored.
    assert (account.plan_id, account.balance) == (free.pk, 105)
    events = AuditEvent.objects.filter(
        Q(action__startswith="quota.") | Q(action__startswith="admin."), actor=staff
    )
    assert list(events.values_list("action", "subject_id")) == [
        ("quota.account.plan_change", str(account.pk))
    ]


def test_staff_withdraw_unused_credits_through_the_ledger(staff_client, make_user, funded):
    client, staff = staff_client
    user = make_user("player@example.test")
    account = funded(user, 10, 6)
    first, second = account.grants.order_by("created_at")
    # 13 credits held by a turn in progress stay its own: only the 3 available go now.
    services.quota_reserve(user=user, amount=13, key="busy")
    selected = {"action": "withdraw_unused", "_selected_action": [str(first.pk), str(second.pk)]}
    response = client.post("/admin/quota/quotagrant/", selected, follow=True)
    assert response.status_code == 200
    assert (
        "Withdrew 3 credits. 13 more are held by requests in progress; withdraw again once "
        "they finish."
    ) in response.content.decode()
    account.refresh_from_db()
    assert (account.balance, account.reserved) == (0, 13)
    entries = LedgerEntry.objects.filter(account=account, kind__in=["expire", "withdrawal"])
    assert [(e.kind, e.amount, e.description, e.balance_after) for e in entries] == [
        ("withdrawal", 3, "Withdrawn by staff", 0)
    ]
    assert list(
        AuditEvent.objects.filter(action="quota.grant.withdraw").values_list("actor", "subject_id")
    ) == [(staff.pk, str(first.pk)), (staff.pk, str(second.pk))]
    # The turn pays from the grants; what it did not use comes back, and can be withdrawn.
    services.quota_settle(reservation=account.reservations.get(key="busy"), actual=4)
    account.refresh_from_db()
    assert (account.balance, account.reserved) == (9, 0)
    response = client.post("/admin/quota/quotagrant/", selected, follow=True)
    assert "Withdrew 9 credits." in response.content.decode()
    assert "more are held" not in response.content.decode()
    account.refresh_from_db()
    assert (account.balance, account.reserved) == (0, 0)
    with pytest.raises(QuotaExceeded):
        services.quota_reserve(user=user, amount=1, key="after")


def test_withdrawing_needs_the_right_to_grant_not_just_to_look(client, make_user, funded):
    from django.contrib.auth.models import Permission

    viewer = make_user("support@example.test", is_staff=True)
    viewer.user_permissions.add(Permission.objects.get(codename="view_quotagrant"))
    client.force_login(viewer)
    account = funded(make_user("player@example.test"), 10)
    grant = account.grants.get()
    page = client.get("/admin/quota/quotagrant/")
    assert page.status_code == 200
    assert "withdraw_unused" not in page.content.decode()
    client.post(
        "/admin/quota/quotagrant/",
        {"action": "withdraw_unused", "_selected_action": [str(grant.pk)]},
    )
    account.refresh_from_db()
    assert account.balance == 10
    assert list(LedgerEntry.objects.filter(account=account).values_list("kind", flat=True)) == [
        "grant"
    ]


def test_staff_grant_finds_the_user_by_email_even_one_without_an_account(staff_client, make_user):
    client, staff = staff_client
    # Made outside sign-up (like createsuperuser): no quota account yet.
    player = make_user("player@example.test")
    make_user("other@example.test")
    assert not QuotaAccount.objects.filter(user=player).exists()
    found = client.get(
        "/admin/autocomplete/",
        {
            "term": "player@",
            "app_label": "quota",
            "model_name": "quotaaccount",
            "field_name": "user",
        },
    )
    assert found.json()["results"] == [{"id": str(player.pk), "text": "player@example.test"}]
    response = client.post(
        "/admin/quota/quotagrant/add/",
        {
            "user": str(player.pk),
            "amount": "30",
            "expires_at_0": "",
            "expires_at_1": "",
            "note": "",
        },
        follow=True,
    )
    assert response.status_code == 200
    assert [str(m) for m in response.context["messages"]] == [
        "Granted 30 credits to player@example.test.",
        "The quota grant “30 credits (staff grant)” was added successfully.",
    ]
    account = QuotaAccount.objects.get(user=player)
    # The account opened with the default plan's grant, then the staff grant on top.
    assert list(account.grants.order_by("created_at").values_list("source", "amount")) == [
        ("plan", 100),
        ("staff", 30),
    ]
    assert (account.balance, account.reserved) == (130, 0)
    assert list(
        LedgerEntry.objects.filter(account=account)
        .order_by("id")
        .values_list("kind", "amount", "balance_after")
    ) == [("grant", 100, 100), ("grant", 30, 130)]
    assert_invariant(account)


def test_account_page_links_to_granting_its_user(staff_client, make_user, funded):
    client, _ = staff_client
    account = funded(make_user("player@example.test"), 2)
    page = client.get(f"/admin/quota/quotaaccount/{account.pk}/change/").content.decode()
    link = f"/admin/quota/quotagrant/add/?user={account.user_id}"
    assert f'<a href="{link}">Grant credits to this user</a>' in page
    form = client.get(link).context["adminform"].form
    assert form.initial["user"] == str(account.user_id)


def test_admin_grant_refuses_an_expiry_in_the_past(staff_client, make_user, funded):
    client, staff = staff_client
    account = funded(make_user("player@example.test"), 2)
    past = timezone.localtime() - timedelta(days=1)
    response = client.post(
        "/admin/quota/quotagrant/add/",
        {
            "user": str(account.user_id),
            "amount": "30",
            "expires_at_0": past.strftime("%Y-%m-%d"),
            "expires_at_1": past.strftime("%H:%M:%S"),
            "note": "",
        },
    )
    assert response.status_code == 200
    assert response.context["adminform"].form.errors == {
        "expires_at": [
            "Choose an expiry in the future, or leave it empty for credits that never expire."
        ]
    }
    account.refresh_from_db()
    assert account.balance == 2
    assert not QuotaGrant.objects.filter(source="staff").exists()
    assert not AuditEvent.objects.filter(action="quota.grant", actor=staff).exists()


def test_a_second_default_plan_is_refused_in_words_not_by_constraint_name(staff_client):
    client, _ = staff_client
    free = services.plan_default()
    response = client.post(
        "/admin/quota/plan/add/",
        {
            "name": "Pro",
            "slug": "pro",
            "periodic_grant": "1000",
            "period": "monthly",
            "grants_expire": "on",
            "is_default": "on",
        },
    )
    assert response.status_code == 200
    page = response.content.decode()
    assert "quota_plan_one_default" not in page
    assert (
        f"“{free.name}” is the default plan: untick “Default for new accounts” there first." in page
    )
    assert not Plan.objects.filter(slug="pro").exists()


def test_a_negative_plan_grant_is_refused_in_words_not_by_constraint_name(staff_client):
    client, _ = staff_client
    response = client.post(
        "/admin/quota/plan/add/",
        {"name": "Pro", "slug": "pro", "periodic_grant": "-5", "period": "monthly"},
    )
    assert response.status_code == 200
    page = response.content.decode()
    assert "quota_plan_grant_nonnegative" not in page
    assert "Ensure this value is greater than or equal to 0." in page
    assert not Plan.objects.filter(slug="pro").exists()


def test_changing_an_accounts_plan_keeps_credits_moved_while_the_form_was_saved(
    staff_client, make_user, funded, monkeypatch
):
    client, _ = staff_client
    account = funded(make_user("player@example.test"), 10)
    pro = Plan.objects.create(slug="pro", name="Pro", periodic_grant=0, period="none")
    get_object = admin.site._registry[QuotaAccount].get_object

    def get_object_then_a_turn_reserves(request, object_id, from_field=None):
        obj = get_object(request, object_id, from_field)
        # A turn reserves credits between the admin reading the account and saving it.
        services.quota_reserve(user=account.user, amount=4, key="turn-1")
        return obj

    monkeypatch.setattr(
        admin.site._registry[QuotaAccount], "get_object", get_object_then_a_turn_reserves
    )
    response = client.post(f"/admin/quota/quotaaccount/{account.pk}/change/", {"plan": str(pro.pk)})
    assert response.status_code == 302, response.content.decode()[:2000]
    account.refresh_from_db()
    assert (account.plan, account.balance, account.reserved) == (pro, 6, 4)
    assert_invariant(account)


def test_a_plan_with_credits_but_no_period_is_refused(staff_client):
    client, _ = staff_client
    response = client.post(
        "/admin/quota/plan/add/",
        {"name": "Pro", "slug": "pro", "periodic_grant": "500", "period": "none"},
    )
    assert response.status_code == 200
    assert (
        "A plan with no period never grants its credits: choose a period, or set credits per "
        "period to 0."
    ) in response.content.decode()
    assert not Plan.objects.filter(slug="pro").exists()


def test_grant_form_tells_staff_the_note_is_shown_to_the_user(staff_client, make_user, funded):
    client, _ = staff_client
    response = client.get("/admin/quota/quotagrant/add/")
    assert response.status_code == 200
    assert "The user sees this note on their usage page." in response.content.decode()


def test_upgrading_an_accounts_plan_in_admin_grants_the_difference_and_says_so(
    staff_client, make_user
):
    client, staff = staff_client
    small = Plan.objects.create(slug="small", name="Small", periodic_grant=100, period="monthly")
    pro = Plan.objects.create(slug="pro", name="Pro", periodic_grant=500, period="monthly")
    account = services.quota_account_for(user=make_user("player@example.test"), plan=small)
    response = client.post(
        f"/admin/quota/quotaaccount/{account.pk}/change/", {"plan": str(pro.pk)}, follow=True
    )
    assert response.status_code == 200
    start = services.plan_period_bounds(plan=pro, at=timezone.now())[0]
    # The period's start as the admin's pages write dates ("Dec 1, 2026").
    start = formats.date_format(timezone.localtime(start), "DATE_FORMAT")
    assert (
        f"Plan changed to Pro: 400 credits granted now for the period from {start}."
        in response.content.decode()
    )
    account.refresh_from_db()
    assert (account.plan, account.balance) == (pro, 500)
    upgrade = account.grants.get(source="upgrade")
    assert (upgrade.amount, upgrade.actor) == (400, staff)
    # One audit row, the service's, saying what the change granted.
    events = AuditEvent.objects.filter(
        Q(action__startswith="quota.") | Q(action__startswith="admin."), actor=staff
    )
    assert list(events.values_list("action", "subject_id")) == [
        ("quota.account.plan_change", str(account.pk))
    ]


def test_downgrading_an_accounts_plan_in_admin_says_credits_granted_stay(staff_client, make_user):
    client, _ = staff_client
    pro = Plan.objects.create(slug="pro", name="Pro", periodic_grant=500, period="monthly")
    small = Plan.objects.create(slug="small", name="Small", periodic_grant=100, period="monthly")
    account = services.quota_account_for(user=make_user("player@example.test"), plan=pro)
    response = client.post(
        f"/admin/quota/quotaaccount/{account.pk}/change/", {"plan": str(small.pk)}, follow=True
    )
    assert (
        "Plan changed to Small: no credits granted now; the 500 credits already granted for "
        "this period stay."
    ) in response.content.decode()
    account.refresh_from_db()
    assert (account.plan, account.balance) == (small, 500)


def test_the_account_list_says_what_is_usable_now_beside_the_balance(
    staff_client, make_user, funded
):
    from datetime import timedelta

    from django.utils import timezone

    from apps.quota.models import QuotaGrant

    client, _ = staff_client
    later = timezone.now() + timedelta(days=1)
    account = funded(make_user("player@example.test"), 10, 5, expires=[later, None])
    # The first grant's expiry passes; the expiry run has not forfeited it yet.
    QuotaGrant.objects.filter(account=account, amount=10).update(
        expires_at=timezone.now() - timedelta(minutes=1)
    )
    page = client.get("/admin/quota/quotaaccount/").content.decode()
    assert '<td class="field-balance">15</td>' in page
    assert '<td class="field-usable_now">5</td>' in page
    assert "Usable now" in page
