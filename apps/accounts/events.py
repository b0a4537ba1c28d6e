"""Signals this app sends for other apps to act on."""

from django.dispatch import Signal

# Sent inside the transaction that ended some of a user's sessions, with `user`: whatever
# another app keeps open on those sessions (room sockets) must end with them.
sessions_ended = Signal()
