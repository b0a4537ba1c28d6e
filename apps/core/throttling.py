from rest_framework import throttling


class UserRateThrottle(throttling.UserRateThrottle):
    """Per-user limit for signed-in callers (cache-backed: Redis when configured)."""

    def allow_request(self, request, view):
        if not request.user or not request.user.is_authenticated:
            return True
        return super().allow_request(request, view)


class AnonRateThrottle(throttling.AnonRateThrottle):
    pass


class ScopedRateThrottle(throttling.ScopedRateThrottle):
    pass


class WriteScopedRateThrottle(throttling.ScopedRateThrottle):
    """A view's `throttle_scope` rate for a signed-in user's writes (reads are not counted),
    on top of the general per-user limit: e.g. posting to a room."""

    def allow_request(self, request, view):
        if request.method in ("GET", "HEAD", "OPTIONS"):
            return True
        if not request.user or not request.user.is_authenticated:
            return True
        return super().allow_request(request, view)


# The general limits plus a view's write scope.
WRITE_LIMITED = [UserRateThrottle, AnonRateThrottle, WriteScopedRateThrottle]
