"""Pages that name no icon (the admin, the API's JSON) make browsers ask /favicon.ico: they get
the site's icon, not a 404 in the console."""

from django.contrib.staticfiles import finders
from django.templatetags.static import static


def test_favicon_ico_sends_browsers_to_the_sites_icon(client):
    response = client.get("/favicon.ico")

    assert (response.status_code, response["Location"]) == (302, static("img/favicon.svg"))
    assert response["Cache-Control"] == "public, max-age=3600"
    assert finders.find("img/favicon.svg") is not None


def test_favicon_ico_answers_only_reads(client):
    assert client.post("/favicon.ico").status_code == 405
