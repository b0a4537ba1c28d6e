from django.db import migrations, models


def removed_bindings_control_nothing(apps, schema_editor):
    """Unbinding and removal used to leave can_control set on the removed row."""
    ActorBinding = apps.get_model("campaigns", "ActorBinding")
    ActorBinding.objects.filter(status="removed", can_control=True).update(can_control=False)


class Migration(migrations.Migration):
    dependencies = [
        ("campaigns", "0004_character_control"),
    ]

    operations = [
        migrations.RunPython(
            removed_bindings_control_nothing, migrations.RunPython.noop, elidable=True
        ),
        migrations.AlterField(
            model_name="actorbinding",
            name="can_control",
            field=models.BooleanField(default=False),
        ),
    ]
