"""Player panel rows became per viewer ("user:<id>"): the shared "players" rows are no longer
read, and one of them may hold what only the player who filled it may see."""

from django.db import migrations


def drop_shared_player_rows(apps, schema_editor):
    apps.get_model("turns", "ProjectionSnapshot").objects.filter(audience="players").delete()


class Migration(migrations.Migration):
    dependencies = [("turns", "0002_drop_redundant_indexes")]

    operations = [migrations.RunPython(drop_shared_player_rows, migrations.RunPython.noop)]
