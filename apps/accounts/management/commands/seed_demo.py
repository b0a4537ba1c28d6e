"""Idempotent demo data: a staff user, a GM and two players with known local passwords, each
with demo credits to play with."""

from django.conf import settings
from django.core.management.base import BaseCommand, CommandError
from django.db import transaction

from apps.accounts.models import User
from apps.accounts.services import legal_accept
from apps.quota.services import quota_account_for, quota_grant

DEMO_USERS = [
    ("staff@sagasmith.test", "Staff", True),
    ("gm@sagasmith.test", "Morgan the GM", False),
    ("player1@sagasmith.test", "Ash", False),
    ("player2@sagasmith.test", "Briar", False),
]
DEMO_GM = "gm@sagasmith.test"
DEMO_PLAYERS = ("player1@sagasmith.test", "player2@sagasmith.test")
DEMO_PASSWORD = "demo-password-123"  # noqa: S105 - local demo only, refused in production
# Once per demo user, on top of the plan's grant: enough for evenings of play at the demo
# tables (a fight of a few rounds costs the GM about a hundred credits).
DEMO_GRANT = 2000
DEMO_GRANT_NOTE = "Demo credits"


class Command(BaseCommand):
    help = "Create or refresh the demo accounts (never in production)."

    def handle(self, *args, **options):
        if settings.SAGASMITH_PRODUCTION:
            raise CommandError("seed_demo refuses to run with production settings.")
        with transaction.atomic():
            for email, name, staff in DEMO_USERS:
                user = User.objects.filter(email=email).first()
                if user is None:
                    user = User.objects.create_user(
                        email=email,
                        password=DEMO_PASSWORD,
                        display_name=name,
                        is_staff=staff,
                        is_superuser=staff,
                    )
                # Like sign-up and the admin's add: every user comes with a quota account.
                account = quota_account_for(user=user)
                if not account.grants.filter(source="staff", note=DEMO_GRANT_NOTE).exists():
                    quota_grant(
                        account=account, amount=DEMO_GRANT, source="staff", note=DEMO_GRANT_NOTE
                    )
                if user.terms_version != settings.SAGASMITH_TERMS_VERSION:
                    legal_accept(user=user)
                from allauth.account.models import EmailAddress

                EmailAddress.objects.update_or_create(
                    user=user, email=email, defaults={"verified": True, "primary": True}
                )
        for email, _name, staff in DEMO_USERS:
            role = "staff" if staff else ("GM" if email.startswith("gm") else "player")
            self.stdout.write(f"  {role:7} {email} / {DEMO_PASSWORD}")
