from django.apps import AppConfig


class DomainsConfig(AppConfig):
    name = "apps.domains"
    label = "domains"
    default_auto_field = "django.db.models.BigAutoField"

    def ready(self) -> None:
        from apps.domains import checks  # noqa: F401 - registers the system checks
        from apps.domains.registry import domain_registry

        # Refuse a bad SAGASMITH_DOMAINS (e.g. two systems sharing an audience) as every
        # process starts, not at its first turn.
        domain_registry()
