from django.db import migrations, models


def keep_one_controller(apps, schema_editor):
    """Where several active bindings control one character, the oldest keeps control: until
    now the domain's controller was the character's creator, whose binding came first."""
    ActorBinding = apps.get_model("campaigns", "ActorBinding")
    seen = set()
    controlling = ActorBinding.objects.filter(status="active", can_control=True).order_by(
        "campaign_id", "character_id", "created_at"
    )
    for binding in controlling.iterator():
        key = (binding.campaign_id, binding.character_id)
        if key in seen:
            ActorBinding.objects.filter(pk=binding.pk).update(can_control=False)
        seen.add(key)


class Migration(migrations.Migration):
    dependencies = [
        ("campaigns", "0001_initial"),
    ]

    operations = [
        migrations.RunPython(keep_one_controller, migrations.RunPython.noop, elidable=True),
        migrations.AddConstraint(
            model_name="actorbinding",
            constraint=models.UniqueConstraint(
                condition=models.Q(("can_control", True), ("status", "active")),
                fields=("campaign", "character_id"),
                name="campaigns_binding_one_controller",
            ),
        ),
    ]
