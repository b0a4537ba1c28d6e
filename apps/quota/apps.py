from django.apps import AppConfig


class QuotaConfig(AppConfig):
    name = "apps.quota"
    label = "quota"
    default_auto_field = "django.db.models.BigAutoField"
