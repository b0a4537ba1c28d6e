from django.http import HttpResponseRedirect
from django.templatetags.static import static
from django.utils.cache import patch_cache_control
from django.views.decorators.http import require_safe


@require_safe
def favicon(request):
    """Browsers ask /favicon.ico of pages that name no icon (admin, the API's JSON): the site's
    icon, not a 404 in every staff console. Not permanent, and kept an hour only: the icon's
    hashed name changes with each release that changes it, and the old file goes."""
    response = HttpResponseRedirect(static("img/favicon.svg"))
    patch_cache_control(response, public=True, max_age=3600)
    return response
