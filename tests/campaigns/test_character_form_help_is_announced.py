"""The new-character form links each field's help text (and, once refused, its error) to the
field by aria-describedby, so a screen reader says "Only with “None” as the template." on the
Strength box rather than leaving it to be found by reading on."""

from __future__ import annotations

from html.parser import HTMLParser

import pytest

pytestmark = pytest.mark.django_db

TEMPLATE_HELP = "A template sets the ability scores. Choose “None” to enter your own below."
SCORE_HELP = "Only with “None” as the template."


class _Described(HTMLParser):
    """Each form control's name -> the texts of the elements its aria-describedby names."""

    def __init__(self) -> None:
        super().__init__()
        self.controls: dict[str, list[str]] = {}
        self.texts: dict[str, str] = {}
        self._open: list[str | None] = []

    def handle_starttag(self, tag, attrs):
        attrs = dict(attrs)
        if tag in ("input", "select", "textarea") and attrs.get("type") != "hidden":
            self.controls[attrs["name"]] = (attrs.get("aria-describedby") or "").split()
        if tag not in ("input", "br", "img", "meta", "link"):
            self._open.append(attrs.get("id"))
            if attrs.get("id"):
                self.texts.setdefault(attrs["id"], "")

    def handle_endtag(self, tag):
        if tag not in ("input", "br", "img", "meta", "link") and self._open:
            self._open.pop()

    def handle_data(self, data):
        for element_id in self._open:
            if element_id:
                self.texts[element_id] += data

    def described(self) -> dict[str, list[str]]:
        # A name without an element on the page is described by nothing: None shows it.
        return {
            name: [" ".join(self.texts[i].split()) if i in self.texts else None for i in ids]
            for name, ids in self.controls.items()
        }


def _described(html: str) -> dict[str, list[str]]:
    start = html.index('<form method="post" data-progress data-focus-error>')
    form = html[start : html.index("</form>", start)]
    parser = _Described()
    parser.feed(form)
    return parser.described()


def test_every_help_text_on_the_new_character_form_is_linked_to_its_field(
    domains, client, campaign, gm
):
    client.force_login(gm)

    html = client.get(f"/campaigns/{campaign.id}/characters/new").content.decode()

    assert _described(html) == {
        "name": [],
        "template": [TEMPLATE_HELP],
        "level": [],
        **{ability: [SCORE_HELP] for ability in ("str", "dex", "con", "int", "wis", "cha")},
    }


def test_a_refused_field_is_described_by_its_help_and_its_error(domains, client, campaign, gm):
    client.force_login(gm)

    response = client.post(
        f"/campaigns/{campaign.id}/characters/new",
        {"form_token": "help-described-1", "name": "Ilsa", "template": "", "level": "1",
         "str": "31", "dex": "10", "con": "10", "int": "10", "wis": "10", "cha": "10"},
    )  # fmt: skip

    assert response.status_code == 200
    described = _described(response.content.decode())
    assert described["str"] == [SCORE_HELP, "Ensure this value is less than or equal to 30."]
    assert described["dex"] == [SCORE_HELP]
