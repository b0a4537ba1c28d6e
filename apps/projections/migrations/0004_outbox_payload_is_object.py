from django.db import migrations, models
from django.db.models.lookups import Exact
from django.utils import timezone

from apps.projections.models import JSONTypeOf

NOT_AN_OBJECT = "not_an_object"


def keep_other_payloads_in_an_object(apps, schema_editor):
    """Rows written before payloads were checked: their publication fails every attempt. The
    value is kept under NOT_AN_OBJECT for operators, and a row still pending is given up."""
    OutboxEvent = apps.get_model("projections", "OutboxEvent")
    rows = (
        OutboxEvent.objects.using(schema_editor.connection.alias)
        .alias(kind=JSONTypeOf("payload"))
        .exclude(kind="object")
    )
    for row in rows.only("id", "payload", "dispatched_at", "error").iterator():
        row.payload = {NOT_AN_OBJECT: row.payload}
        if row.dispatched_at is None:
            row.dispatched_at = timezone.now()
            row.error = "ValueError: the payload is not a JSON object"
        row.save(update_fields=["payload", "dispatched_at", "error"])


class Migration(migrations.Migration):
    dependencies = [
        ("projections", "0003_outbox_room_events_index"),
    ]

    operations = [
        migrations.RunPython(keep_other_payloads_in_an_object, migrations.RunPython.noop),
        migrations.AddConstraint(
            model_name="outboxevent",
            constraint=models.CheckConstraint(
                condition=Exact(JSONTypeOf("payload"), "object"),
                name="projections_outbox_payload_is_object",
            ),
        ),
    ]
