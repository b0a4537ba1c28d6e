from django.apps import AppConfig


class SagaConfig(AppConfig):
    name = "apps.saga"
    label = "saga"
    default_auto_field = "django.db.models.BigAutoField"
