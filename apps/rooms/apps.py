from django.apps import AppConfig


class RoomsConfig(AppConfig):
    name = "apps.rooms"
    label = "rooms"
    default_auto_field = "django.db.models.BigAutoField"
