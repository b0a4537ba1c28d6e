from django.apps import AppConfig


class DomainsConfig(AppConfig):
    name = "apps.domains"
    label = "domains"
    default_auto_field = "django.db.models.BigAutoField"
