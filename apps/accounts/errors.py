from django.utils.translation import gettext_lazy as _

from apps.core.errors import ApplicationError, PermissionDenied, ValidationFailed


class InviteUnavailable(ApplicationError):
    code = "invite_unavailable"
    status = 400
    recovery = str(_("Ask the person who invited you for a new link."))


class RegistrationClosed(PermissionDenied):
    code = "registration_closed"


class WrongPassword(ValidationFailed):
    code = "wrong_password"
