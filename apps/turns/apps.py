from django.apps import AppConfig
from django.utils.translation import gettext_lazy as _


class TurnsConfig(AppConfig):
    name = "apps.turns"
    label = "turns"
    verbose_name = _("Room turns")
    default_auto_field = "django.db.models.BigAutoField"
