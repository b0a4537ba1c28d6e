"""The public JWKS: domain servers (and anyone) verify delegation tokens with these keys."""

from __future__ import annotations

from django.http import HttpRequest, JsonResponse
from django.views.decorators.cache import cache_control
from django.views.decorators.http import require_GET

from apps.domains.keys import public_jwks

# Short enough that a rotation reaches fetching verifiers within minutes of a key's removal.
JWKS_MAX_AGE = 300


@require_GET
@cache_control(public=True, max_age=JWKS_MAX_AGE)
def jwks_view(request: HttpRequest) -> JsonResponse:
    return JsonResponse(public_jwks())
