"""The default plan every new account starts on: Free, 100 credits a month."""

from django.db import migrations


def create_free_plan(apps, schema_editor):
    Plan = apps.get_model("quota", "Plan")
    if not Plan.objects.filter(is_default=True).exists():
        Plan.objects.update_or_create(
            slug="free",
            defaults={
                "name": "Free",
                "periodic_grant": 100,
                "period": "monthly",
                "grants_expire": True,
                "is_default": True,
            },
        )


class Migration(migrations.Migration):
    dependencies = [("quota", "0001_initial")]

    operations = [migrations.RunPython(create_free_plan, migrations.RunPython.noop)]
