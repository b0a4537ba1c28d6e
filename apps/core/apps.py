from django.apps import AppConfig


class CoreConfig(AppConfig):
    name = "apps.core"
    label = "core"
    default_auto_field = "django.db.models.BigAutoField"

    def ready(self) -> None:
        from django.db.models.signals import post_migrate

        from . import checks  # noqa: F401 - registers the system checks
        from .services import site_sync

        post_migrate.connect(site_sync, sender=self, dispatch_uid="apps.core.site_sync")
