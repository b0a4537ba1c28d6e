"""Every page is served with a Content-Security-Policy that runs only our own scripts: an
injected inline script or event handler does nothing. The templates keep to it."""

from __future__ import annotations

import re
from pathlib import Path

import pytest
from django.conf import settings

TEMPLATES = Path(settings.BASE_DIR) / "templates"


def _directives(header: str) -> dict[str, list[str]]:
    out = {}
    for part in header.split(";"):
        words = part.split()
        if words:
            out[words[0]] = words[1:]
    return out


@pytest.mark.django_db
def test_a_page_runs_only_scripts_served_from_this_site(client):
    policy = _directives(client.get("/accounts/login/")["Content-Security-Policy"])

    assert policy["script-src"] == ["'self'"]
    assert policy["default-src"] == ["'self'"]
    assert policy["object-src"] == ["'none'"]
    assert policy["base-uri"] == ["'none'"]
    assert policy["frame-ancestors"] == ["'none'"]
    assert policy["form-action"] == ["'self'"]


@pytest.mark.django_db
def test_error_pages_and_the_api_carry_the_policy_too(client):
    assert "script-src 'self'" in client.get("/no-such-page/")["Content-Security-Policy"]
    assert "script-src 'self'" in client.get("/api/campaigns")["Content-Security-Policy"]


@pytest.mark.django_db
def test_an_answer_with_its_own_policy_keeps_it(client, settings):
    from django.http import HttpResponse

    from apps.core.middleware import ContentSecurityPolicyMiddleware

    own = "default-src 'none'; sandbox"

    def view(request):
        response = HttpResponse("x")
        response["Content-Security-Policy"] = own
        return response

    response = ContentSecurityPolicyMiddleware(view)(client.get("/").wsgi_request)

    assert response["Content-Security-Policy"] == own


@pytest.mark.django_db
def test_the_api_docs_page_loads_its_setup_script_from_this_site(client):
    page = client.get("/api/docs/").content.decode()

    assert _INLINE_SCRIPT.findall(page) == []
    assert client.get("/api/docs/?script=").status_code == 200


_INLINE_HANDLER = re.compile(r"<[a-zA-Z][^>]*\son[a-z]+\s*=", re.S)
# A JSON data block is not run; anything else without src= is inline code.
_INLINE_SCRIPT = re.compile(r"<script(?![^>]*\b(?:src=|type=\"application/json\"))[^>]*>")
_STYLE_ATTRIBUTE = re.compile(r"<[a-zA-Z][^>]*\sstyle\s*=", re.S)


def _template_files():
    return sorted(TEMPLATES.rglob("*.html"))


def test_no_template_has_an_inline_script_an_event_handler_or_a_style_attribute():
    found = []
    for path in _template_files():
        text = path.read_text()
        for pattern, what in (
            (_INLINE_HANDLER, "event handler"),
            (_INLINE_SCRIPT, "inline script"),
            (_STYLE_ATTRIBUTE, "style attribute"),
        ):
            if pattern.search(text):
                found.append(f"{path.relative_to(TEMPLATES)}: {what}")

    assert found == []


@pytest.mark.django_db
def test_only_the_api_docs_page_allows_inline_styles(client):
    docs = _directives(client.get("/api/docs/")["Content-Security-Policy"])
    page = _directives(client.get("/accounts/login/")["Content-Security-Policy"])

    assert docs["style-src"] == ["'self'", "'unsafe-inline'"]
    assert docs["script-src"] == ["'self'"]
    assert page["style-src"] == ["'self'"]


@pytest.mark.django_db
def test_django_debug_pages_keep_their_own_inline_styles_when_debug_is_on(client, settings):
    settings.DEBUG = True

    missing = client.get("/no-such-page/")
    page = client.get("/accounts/login/")

    assert missing.status_code == 404
    assert "Content-Security-Policy" not in missing
    assert "script-src 'self'" in page["Content-Security-Policy"]
