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
