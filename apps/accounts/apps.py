from django.apps import AppConfig
from django.utils.translation import gettext_lazy as _


class AccountsConfig(AppConfig):
    name = "apps.accounts"
    label = "accounts"
    default_auto_field = "django.db.models.BigAutoField"
    # Apart from allauth's own "Accounts" (email addresses) in the admin index.
    verbose_name = _("Users and sign-in")

    def ready(self) -> None:
        from . import signals  # noqa: F401 - connects allauth/auth seams to services
