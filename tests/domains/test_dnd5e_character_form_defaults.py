"""The D&D 5e character form a first-time player meets: a class template is chosen already, so
a name alone makes a character, and the ability scores say they are for "None" only."""

from __future__ import annotations

from apps.domains.plugins.dnd5e import ABILITIES, Dnd5eCharacterForm


def test_the_form_starts_on_the_fighter_template():
    form = Dnd5eCharacterForm()

    assert form["template"].value() == "fighter"
    assert '<option value="fighter" selected>Fighter</option>' in str(form["template"])


def test_a_name_with_the_template_as_shown_makes_a_character():
    # What the browser sends when the player types a name and nothing else.
    form = Dnd5eCharacterForm(data={"name": "Ilsa", "template": "fighter", "level": 1})

    assert form.is_valid(), form.errors
    assert form.to_arguments() == {"name": "Ilsa", "level": 1, "template": "fighter"}


def test_the_template_and_scores_say_the_scores_are_for_none_only():
    form = Dnd5eCharacterForm()

    assert form.fields["template"].help_text == (
        "A template sets the ability scores. Choose “None” to enter your own below."
    )
    assert {form.fields[a].help_text for a in ABILITIES} == {"Only with “None” as the template."}
