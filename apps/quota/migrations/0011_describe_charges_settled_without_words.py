"""Charges the one-statement settlement wrote with an empty description: it took the owner type
from the caller's copy of the reservation, which a room turn makes from the key alone. Each is
given its reservation's owner type, the form older charges are stored in and read in words
("room_turn": "Room turn"). Only the description changes: amounts and balances stay."""

from django.db import migrations
from django.db.models import OuterRef, Subquery


def describe_charges(apps, schema_editor):
    LedgerEntry = apps.get_model("quota", "LedgerEntry")
    Reservation = apps.get_model("quota", "Reservation")
    owner_type = Reservation.objects.filter(pk=OuterRef("reservation_id")).values("owner_type")
    LedgerEntry.objects.filter(kind="charge", description="").exclude(
        reservation__owner_type=""
    ).update(description=Subquery(owner_type[:1]))


class Migration(migrations.Migration):
    dependencies = [
        ("quota", "0010_keep_accounts_of_deleted_users"),
    ]

    operations = [
        migrations.RunPython(describe_charges, migrations.RunPython.noop),
    ]
