"""narrative edges: what the schema lets through but the story cannot use."""

from __future__ import annotations

from tests.domain_servers.conftest import GM, PLAYER, Game


def test_a_blank_name_title_fact_or_question_is_refused_and_changes_nothing(
    narrative: Game,
) -> None:
    """Spaces pass the schema's minLength; a clock or scene of no name would be listed as
    "Clocks:   0/4" and could never be named again."""
    narrative.write("phase_set", {"phase": "play"})
    revision = narrative.read("campaign_get")["authority_revision"]
    cases = [
        ("character_create", {"name": "   "}, PLAYER, "the name must not be blank"),
        ("scene_start", {"title": " "}, GM, "the title must not be blank"),
        ("thread_open", {"title": "\t"}, GM, "the title must not be blank"),
        ("clock_create", {"name": "  ", "segments": 4}, GM, "the name must not be blank"),
        ("fact_add", {"text": "\n"}, GM, "the text must not be blank"),
        ("oracle_ask", {"question": "  ", "likelihood": "even"}, PLAYER,
         "the question must not be blank"),
    ]  # fmt: skip
    for tool, args, sub, message in cases:
        error = narrative.fail(tool, args, sub)
        assert (error["code"], error["message"]) == ("invalid_request", message), tool
    assert narrative.read("campaign_get")["authority_revision"] == revision
    story = narrative.read("story_get")
    assert (story["scene"], story["threads"], story["clocks"], story["facts"]) == (
        None, [], [], [],
    )  # fmt: skip
    assert narrative.read("campaign_get")["campaign"]["random_stream"]["position"] == 0


def test_a_fact_or_open_thread_again_with_a_closing_full_stop_is_the_same_one(
    narrative: Game,
) -> None:
    """Typed once with a full stop and once without, a fact was listed twice ("Known: The
    docks are flooded. The docks are flooded.")."""
    narrative.write("phase_set", {"phase": "play"})
    narrative.write("fact_add", {"text": "The docks are flooded"})
    narrative.write("thread_open", {"title": "The missing heir."})
    revision = narrative.read("campaign_get")["authority_revision"]
    cases = [
        ("fact_add", {"text": "The docks are  flooded."}, "that fact is already recorded"),
        ("thread_open", {"title": "the missing heir"},
         "the thread “the missing heir” is already open"),
    ]  # fmt: skip
    for tool, args, message in cases:
        error = narrative.fail(tool, args)
        assert (error["code"], error["message"]) == ("invalid_request", message), tool
    assert narrative.read("campaign_get")["authority_revision"] == revision
    # Other words are another fact.
    narrative.write("fact_add", {"text": "The docks are flooded again."})
    assert [f["text"] for f in narrative.read("story_get", sub=PLAYER)["facts"]] == [
        "The docks are flooded",
        "The docks are flooded again.",
    ]


def test_tags_and_conditions_differing_only_in_case_or_spaces_are_one(narrative: Game) -> None:
    """A card showed "Wounded" and "wounded" side by side, and removing "wounded" from a
    "Wounded" character was refused as a condition it does not have."""
    made = narrative.write(
        "character_create",
        {"name": "Ilse", "tags": ["Sailor", "sailor ", "Brave"], "conditions": ["Wounded"]},
        sub=PLAYER,
    )["character"]
    assert (made["tags"], made["conditions"]) == (["Brave", "Sailor"], ["Wounded"])
    narrative.write("phase_set", {"phase": "play"})
    updated = narrative.write(
        "character_update",
        {"character_id": made["id"], "add_conditions": ["WOUNDED", "Soaked"],
         "remove_tags": ["brave"]},
        sub=PLAYER,
    )["character"]  # fmt: skip
    assert (updated["tags"], updated["conditions"]) == (["Sailor"], ["Soaked", "Wounded"])
    healed = narrative.write(
        "character_update", {"character_id": made["id"], "remove_conditions": ["wounded"]}
    )["character"]
    assert healed["conditions"] == ["Soaked"]
    error = narrative.fail("character_update", {"character_id": made["id"], "add_tags": ["  "]})
    assert (error["code"], error["message"]) == ("invalid_request", "a tag must not be blank")


def test_names_titles_facts_and_questions_are_kept_without_the_spaces_around_them(
    narrative: Game,
) -> None:
    """A model's trailing newline was kept, and narrated as "The bridge is out.\\n."."""
    narrative.write("phase_set", {"phase": "play"})
    narrative.write("scene_start", {"title": " The Docks\n"})
    narrative.write("thread_open", {"title": "Rescue  "})
    narrative.write("clock_create", {"name": "\tDoom", "segments": 4})
    narrative.write("fact_add", {"text": "The bridge is out.\n"})
    asked = narrative.write(
        "oracle_ask", {"question": " Is it raining? ", "likelihood": "even"}, sub=PLAYER
    )
    assert asked["question"] == "Is it raining?"
    made = narrative.write("character_create", {"name": " Ilse "}, sub=PLAYER)["character"]
    assert made["name"] == "Ilse"
    story = narrative.read("story_get", sub=PLAYER)
    assert (
        story["scene"]["title"],
        [t["title"] for t in story["threads"]],
        [c["name"] for c in story["clocks"]],
        [f["text"] for f in story["facts"]],
    ) == ("The Docks", ["Rescue"], ["Doom"], ["The bridge is out."])
