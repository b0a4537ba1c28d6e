from django.http import HttpResponseRedirect
from django.templatetags.static import static
from django.utils.cache import patch_cache_control
from django.views.decorators.http import require_safe


@require_safe
def favicon(request):
    """Browsers ask /favicon.ico of pages that name no icon (admin, the API's JSON): the site's
    icon, not a 404 in every staff console. Not permanent: the icon's hashed name changes."""
    response = HttpResponseRedirect(static("img/favicon.svg"))
    patch_cache_control(response, public=True, max_age=86400)
    return response
