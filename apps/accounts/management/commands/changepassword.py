"""Django's changepassword, which also ends the user's sessions and revokes their API tokens, as
every other way of setting a password here does: an operator resetting a compromised account
from the shell must shut out whoever learnt the old password, tokens they made too."""

from django.contrib.auth import get_user_model
from django.contrib.auth.management.commands import changepassword

from apps.accounts.services import user_password_replaced


class Command(changepassword.Command):
    def handle(self, *args, **options):
        done = super().handle(*args, **options)  # raises CommandError when nothing changed
        users = get_user_model()._default_manager.using(options["database"])
        # The same user the parent changed: it found them by this name (or the shell user's).
        username = options["username"] or changepassword.getpass.getuser()
        user = users.get(**{get_user_model().USERNAME_FIELD: username})
        counts = user_password_replaced(user=user)
        return (
            f"{done} ({counts['sessions_ended']} sessions ended, "
            f"{counts['tokens_revoked']} API tokens revoked)"
        )
