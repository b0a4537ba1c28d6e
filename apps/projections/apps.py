from django.apps import AppConfig


class ProjectionsConfig(AppConfig):
    name = "apps.projections"
    label = "projections"
    default_auto_field = "django.db.models.BigAutoField"
