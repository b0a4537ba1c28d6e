import re
import uuid

from django.conf import settings
from django.http import HttpResponsePermanentRedirect
from django.urls import Resolver404, resolve
from django.utils.cache import add_never_cache_headers

from .exceptions import is_api_request
from .request_context import current_ip, current_request_id

_VALID_ID = re.compile(r"^[A-Za-z0-9._-]{8,64}$")


def request_id_from(incoming: str) -> str:
    """The request's id: the client's X-Request-ID if well formed, else a new one."""
    return incoming if _VALID_ID.match(incoming) else uuid.uuid4().hex


class RequestIdMiddleware:
    """Gives every request an id (client-supplied if well formed) and echoes it back."""

    def __init__(self, get_response):
        self.get_response = get_response

    def __call__(self, request):
        request_id = request_id_from(request.headers.get("X-Request-ID", ""))
        request.request_id = request_id
        token = current_request_id.set(request_id)
        ip_token = current_ip.set(request.META.get("REMOTE_ADDR") or None)
        try:
            response = self.get_response(request)
        finally:
            current_request_id.reset(token)
            current_ip.reset(ip_token)
        response["X-Request-ID"] = request_id
        return response


def _directives(policy: str) -> dict[str, str]:
    """`policy`'s directives in order: name -> its sources ("" if it names none)."""
    parts = {}
    for part in policy.split(";"):
        words = part.split()
        if words:
            parts.setdefault(words[0], " ".join(words[1:]))  # a repeat is ignored, as browsers do
    return parts


def policy_with(policy: str, **directives: str) -> str:
    """`policy` with the given directives (style_src= is style-src) set, the others as they
    are: one page's exception is written against the site's policy, whatever its wording."""
    parts = _directives(policy)
    parts.update({name.replace("_", "-"): value for name, value in directives.items()})
    return "; ".join(f"{name} {value}".rstrip() for name, value in parts.items())


def policy_directive(policy: str, name: str) -> str | None:
    """The sources `policy` gives directive `name` ("" if it names none), or None without it."""
    return _directives(policy).get(name)


class ContentSecurityPolicyMiddleware:
    """Sends settings.CONTENT_SECURITY_POLICY with every answer that sets none of its own (an
    image artifact keeps its stricter one): the pages run only scripts served from this site,
    so markup that slipped past escaping cannot run."""

    def __init__(self, get_response):
        self.get_response = get_response
        self.policy = settings.CONTENT_SECURITY_POLICY

    def __call__(self, request):
        response = self.get_response(request)
        if settings.DEBUG and response.status_code in (404, 500):
            # Django's debug pages style and script themselves inline; they never reach users.
            return response
        if self.policy and not response.has_header("Content-Security-Policy"):
            response["Content-Security-Policy"] = self.policy
        return response


class SignedInNeverStoredMiddleware:
    """What a signed-in user is answered (pages and API, errors too) is never stored: not by a
    shared cache, and not by the browser, whose back button would show a room as it was, or
    show it to the next person at a shared computer after sign-out. An answer that sets its own
    caching (an image artifact) keeps it."""

    def __init__(self, get_response):
        self.get_response = get_response

    def __call__(self, request):
        response = self.get_response(request)
        user = getattr(request, "user", None)
        if user is not None and user.is_authenticated and not response.has_header("Cache-Control"):
            add_never_cache_headers(response)
        return response


# allauth's rate-limited pages (password reset, sign-up, ...) answer 429.html without saying
# when to come back; the limits that answer so count per minute (templates/429.html says so).
PAGE_RETRY_AFTER_SECONDS = 60


def _without_trailing_slash(request) -> str | None:
    """Where a page asked with a trailing slash it does not take lives ("/campaigns/new/" is
    /campaigns/new): APPEND_SLASH covers only the other way. Reads only; not for the API."""
    path = request.path_info
    if request.method not in ("GET", "HEAD") or not path.endswith("/") or path == "/":
        return None
    if path.startswith("//"):
        return None  # "//host/" without its slash would send the browser to another site
    if is_api_request(request):
        return None
    try:
        resolve(path.rstrip("/"))
    except Resolver404:
        return None
    query = request.META.get("QUERY_STRING", "")
    return request.path.rstrip("/") + (f"?{query}" if query else "")


class NotAllowedPageMiddleware:
    """A page opened with the wrong method (a form's POST-only URL, from history or a link)
    gets a page that says so, not the empty response `require_POST` gives; a PageNotFound
    gets the site's 404 page with its reason; a rate-limited page says when to retry. The API
    keeps its JSON envelope."""

    def __init__(self, get_response):
        self.get_response = get_response

    def __call__(self, request):
        response = self.get_response(request)
        if response.status_code == 404 and (moved := _without_trailing_slash(request)):
            return HttpResponsePermanentRedirect(moved)
        if response.status_code == 405 and not response.content and not is_api_request(request):
            from django.shortcuts import render

            page = render(request, "405.html", status=405)  # with the signed-in navigation
            page["Allow"] = response.get("Allow", "")
            return page
        if response.status_code == 429 and not response.has_header("Retry-After"):
            response["Retry-After"] = str(PAGE_RETRY_AFTER_SECONDS)
        return response

    def process_exception(self, request, exception):
        from .exceptions import PageNotFound, page_not_found_page

        if isinstance(exception, PageNotFound) and not is_api_request(request):
            return page_not_found_page(request, exception)
        return None
