"""One account per email address in any letter case, kept by the database.

0002 left an address alone when another user had its lower-case spelling, for staff to decide
which account keeps the mailbox. Merging or deleting accounts here would lose someone's
campaigns, so the migration stops instead and names the addresses to resolve first.
"""

from django.db import migrations, models
from django.db.models import Count
from django.db.models.functions import Lower


def refuse_shared_addresses(apps, schema_editor):
    User = apps.get_model("accounts", "User")
    shared = sorted(
        User.objects.annotate(address=Lower("email"))
        .values("address")
        .annotate(accounts=Count("pk"))
        .filter(accounts__gt=1)
        .values_list("address", flat=True)
    )
    if shared:
        raise RuntimeError(
            "Some accounts share an email address in different letter case; decide which "
            "account keeps each address and change the others' addresses before migrating: "
            + ", ".join(shared)
        )


class Migration(migrations.Migration):
    dependencies = [("accounts", "0002_lowercase_emails")]

    operations = [
        migrations.RunPython(refuse_shared_addresses, migrations.RunPython.noop),
        migrations.AddConstraint(
            model_name="user",
            constraint=models.UniqueConstraint(
                Lower("email"),
                name="accounts_user_email_ci_unique",
                violation_error_message=(
                    "Another account already uses this email address (in any letter case)."
                ),
            ),
        ),
    ]
