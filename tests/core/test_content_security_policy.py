"""Every page is served with a Content-Security-Policy that runs only our own scripts: an
injected inline script or event handler does nothing. The templates keep to it."""

from __future__ import annotations

import re
from pathlib import Path

import pytest
from django.conf import settings

TEMPLATES = Path(settings.BASE_DIR) / "templates"
STATIC_JS = Path(settings.BASE_DIR) / "static" / "js"


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


_INLINE_HANDLER = re.compile(r"<[a-z][^>]*\son[a-z]+\s*=", re.S | re.I)
# A JSON data block is not run; anything else without src= is inline code.
_INLINE_SCRIPT = re.compile(r"<script(?![^>]*\b(?:src=|type=\"application/json\"))[^>]*>", re.I)
_STYLE_ATTRIBUTE = re.compile(r"<[a-z][^>]*\sstyle\s*=", re.S | re.I)
_STYLE_ELEMENT = re.compile(r"<style[\s>]", re.I)
_SCRIPT_URL = re.compile(r"javascript:", re.I)
# Markup a script builds is held to the same policy once it is in the page.
_SET_INLINE_ATTRIBUTE = re.compile(r"setAttribute\(\s*[\"'`](?:on[a-z]+|style)[\"'`]", re.I)


def _inline_code(text: str) -> list[str]:
    """What in a template's or script's text the policy would refuse to run or apply."""
    return [
        what
        for pattern, what in (
            (_INLINE_HANDLER, "event handler"),
            (_INLINE_SCRIPT, "inline script"),
            (_STYLE_ATTRIBUTE, "style attribute"),
            (_STYLE_ELEMENT, "style element"),
            (_SCRIPT_URL, "javascript: URL"),
            (_SET_INLINE_ATTRIBUTE, "handler or style set as an attribute"),
        )
        if pattern.search(text)
    ]


def _checked_files():
    apps_templates = Path(settings.BASE_DIR).glob("apps/*/templates/**/*.html")
    return (
        sorted(TEMPLATES.rglob("*.html")) + sorted(apps_templates) + sorted(STATIC_JS.rglob("*.js"))
    )


def test_no_template_or_script_has_inline_code_or_style_the_policy_refuses():
    found = [
        f"{path.relative_to(settings.BASE_DIR)}: {what}"
        for path in _checked_files()
        for what in _inline_code(path.read_text())
    ]

    assert found == []


@pytest.mark.parametrize(
    ("text", "what"),
    [
        ('<button onClick="go()">', "event handler"),
        ("<SCRIPT>go()</SCRIPT>", "inline script"),
        ('<p STYLE="color:red">', "style attribute"),
        ("<style>p { color: red }</style>", "style element"),
        ('<a href="javascript:go()">', "javascript: URL"),
        ("el.setAttribute('onclick', 'go()')", "handler or style set as an attribute"),
        ("host.innerHTML = `<img src=x onerror=go()>`", "event handler"),
    ],
)
def test_the_template_check_finds_each_kind_of_inline_code(text, what):
    assert _inline_code(text) == [what]


def test_the_template_check_passes_what_the_policy_allows():
    allowed = (
        '<script src="/static/js/forms.js" defer></script>'
        '<script id="turn-strings" type="application/json">{"a": 1}</script>'
        '<form data-confirm="Leave?"><button type="submit" class="button">Go</button></form>'
        "bar.style.width = '50%'; button.onclick = leave;"
    )

    assert _inline_code(allowed) == []


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


@pytest.mark.django_db
def test_the_api_docs_exception_keeps_to_a_policy_worded_otherwise(client, settings):
    settings.CONTENT_SECURITY_POLICY = (
        "default-src 'self' https://assets.example; script-src 'self'; object-src 'none'"
    )

    docs = _directives(client.get("/api/docs/")["Content-Security-Policy"])

    assert docs == {
        "default-src": ["'self'", "https://assets.example"],
        "script-src": ["'self'"],
        "object-src": ["'none'"],
        "style-src": ["'self'", "https://assets.example", "'unsafe-inline'"],
    }


@pytest.mark.django_db
def test_with_no_policy_configured_the_api_docs_send_none_either(client, settings):
    settings.CONTENT_SECURITY_POLICY = ""

    assert "Content-Security-Policy" not in client.get("/api/docs/")


@pytest.mark.django_db
def test_a_repeated_directive_keeps_the_first_as_browsers_do_on_the_api_docs(client, settings):
    # Browsers enforce the first of a repeated directive; the docs page's exception must not
    # loosen the site's policy by taking the later one.
    settings.CONTENT_SECURITY_POLICY = (
        "default-src 'self'; script-src 'self'; style-src 'self'; script-src 'self' 'unsafe-eval'"
    )

    docs = _directives(client.get("/api/docs/")["Content-Security-Policy"])

    assert docs == {
        "default-src": ["'self'"],
        "script-src": ["'self'"],
        "style-src": ["'self'", "'unsafe-inline'"],
    }
