"""Store every user's email in lower case, as sign-up and the manager always have.

The user admin stored the address as typed, and sign-in looks it up in lower case, so such a
user could not sign in at all. An address whose lower-case spelling another user already has
is left as it is: which of the two accounts the mailbox keeps is for staff to decide.
"""

from django.db import migrations
from django.db.models.functions import Lower


def lowercase_emails(apps, schema_editor):
    User = apps.get_model("accounts", "User")
    for user in User.objects.exclude(email=Lower("email")).only("email"):
        lowered = user.email.lower()
        if not User.objects.filter(email__iexact=lowered).exclude(pk=user.pk).exists():
            User.objects.filter(pk=user.pk).update(email=lowered)


class Migration(migrations.Migration):
    dependencies = [("accounts", "0001_initial")]

    # Reversing keeps the lower-case addresses: they are what sign-in expects.
    operations = [migrations.RunPython(lowercase_emails, migrations.RunPython.noop)]
