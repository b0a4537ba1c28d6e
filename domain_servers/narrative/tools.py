"""narrative tools: characters with tags/conditions, scenes, threads, clocks, facts, oracle."""

from __future__ import annotations

from typing import Any

from domain_servers.common.campaign_tools import campaign_tools, check_controller
from domain_servers.common.errors import denied, invalid
from domain_servers.common.server import (
    ALL_ROLES,
    GM_ROLES,
    PLAYING_ROLES,
    PRINCIPAL_PATTERN,
    RANDOM_RECEIPT_SCHEMA,
    Call,
    Outcome,
    ToolSpec,
    View,
    identifier,
    integer,
    nothing_hidden,
    principal,
    public_part,
    string,
    string_list,
)
from domain_servers.common.text import visible as shows
from domain_servers.common.text import words

SYSTEM_ID = "narrative"
PHASES = ["lobby", "play"]
PLAY = frozenset({"play"})
SETUP = frozenset({"lobby", "play"})

# Probability (out of 100) that the answer is "yes".
LIKELIHOOD = {
    "impossible": 5,
    "very_unlikely": 15,
    "unlikely": 30,
    "even": 50,
    "likely": 70,
    "very_likely": 85,
    "certain": 95,
}
AUDIENCE_PATTERN = f"^(public|gm|player:{PRINCIPAL_PATTERN[1:-1]})$"


def initial_state() -> dict[str, Any]:
    return {
        "characters": {},
        "scenes": {},
        "current_scene": None,
        "threads": {},
        "clocks": {},
        "facts": {},
    }


def summary(call: Call) -> dict[str, Any]:
    chars = call.state["characters"]
    return {
        "character_ids": sorted(chars),
        # Names are table talk: what a GM picks from when binding a character to a player.
        "characters": [{"id": i, "name": chars[i]["name"]} for i in sorted(chars)],
        "current_scene": call.state["current_scene"],
    }


def visible(call: Call, audience: str) -> bool:
    return call.is_gm or audience == "public" or audience == f"player:{call.requester}"


def oracle(roll: int, likelihood: str) -> dict[str, Any]:
    """Yes when roll <= threshold; the extreme fifth adds "and", the 5 nearest add "but"."""
    threshold = LIKELIHOOD[likelihood]
    if roll <= threshold:
        answer = "yes"
        twist = "and" if roll <= threshold // 5 else "but" if roll > threshold - 5 else None
    else:
        answer = "no"
        twist = (
            "and"
            if roll > 100 - (100 - threshold) // 5
            else ("but" if roll <= threshold + 5 else None)
        )
    text = answer if twist is None else f"{answer}, {twist}"
    return {"roll": roll, "threshold": threshold, "answer": answer, "twist": twist, "result": text}


def _words(call: Call, key: str) -> str:
    return words(call.args[key], key)


def _prose(call: Call, key: str) -> str:
    # Trimmed like a name (a model's trailing line break); the inner lines stay.
    return call.args.get(key, "").strip()


def _get(call: Call, collection: str, key: str) -> dict[str, Any]:
    item = call.state[collection].get(call.args[key])
    if item is None:
        raise invalid(f"{key} {call.args[key]!r} does not exist in this campaign")
    return item


def character_view(call: Call, char: dict[str, Any]) -> dict[str, Any]:
    return dict(char) if call.is_gm else {k: v for k, v in char.items() if k != "gm_notes"}


def _label_key(item: str) -> str:
    return " ".join(item.split()).casefold()


def _labels(items: list[str], field: str) -> dict[str, str]:
    """Tags or conditions given, by how they are compared: "Wounded" and "wounded " are one
    condition (spelled as first given), so a card never lists both nor refuses to drop one."""
    labels: dict[str, str] = {}
    for item in items:
        if not item.strip():
            raise invalid(f"a {field[:-1]} must not be blank")
        if not shows(item):
            raise invalid(f"a {field[:-1]} must show a visible character")
        labels.setdefault(_label_key(item), item.strip())
    return labels


def character_create(call: Call) -> Outcome:
    # Players always control what they create; only a GM may name another controller.
    name = _words(call, "name")
    controller = (call.args.get("controller") or call.requester) if call.is_gm else call.requester
    check_controller(call, controller)
    char_id = call.new_id("ch")
    char = {
        "id": char_id,
        "name": name,
        "controller": controller,
        "tags": sorted(_labels(call.args.get("tags", []), "tags").values()),
        "conditions": sorted(_labels(call.args.get("conditions", []), "conditions").values()),
        "gm_notes": _prose(call, "gm_notes") if call.is_gm else "",
    }
    call.state["characters"][char_id] = char
    return Outcome(
        {"character": character_view(call, char)},
        scopes=[f"character:{char_id}"],
        entity_ids=[char_id],
    )


def character_get(call: Call) -> View:
    return View({"character": character_view(call, _get(call, "characters", "character_id"))})


def character_update(call: Call) -> Outcome:
    char = _get(call, "characters", "character_id")
    if not call.is_gm and char["controller"] != call.requester:
        raise denied(f"the requester does not control {char['name']}")
    if not call.is_gm and call.character is not None and call.character != char["id"]:
        # The delegation names the one character the player acts as ("" for none).
        raise denied(f"the delegation does not act for {char['name']}")
    for field in ("tags", "conditions"):
        current: dict[str, str] = {}
        for item in char[field]:
            current.setdefault(_label_key(item), item)
        for item in call.args.get(f"remove_{field}", []):
            if current.pop(_label_key(item), None) is None:
                raise invalid(f"{char['name']} has no {field[:-1]} {item!r}")
        for key, item in _labels(call.args.get(f"add_{field}", []), field).items():
            current.setdefault(key, item)
        if len(current) > 50:
            raise invalid(f"{char['name']} would have more than 50 {field}")
        char[field] = sorted(current.values())
    if not any(
        call.args.get(k) for k in ("add_tags", "remove_tags", "add_conditions", "remove_conditions")
    ):
        raise invalid("give at least one tag or condition to add or remove")
    return Outcome(
        {"character": character_view(call, char)},
        scopes=[f"character:{char['id']}"],
        entity_ids=[char["id"]],
    )


def scene_start(call: Call) -> Outcome:
    title = _words(call, "title")
    scopes = ["campaign", "scene"]  # campaign_get reports the current scene
    ended = call.state["current_scene"]
    if ended:
        call.state["scenes"][ended]["status"] = "ended"
    scene_id = call.new_id("scene")
    call.state["scenes"][scene_id] = {
        "id": scene_id,
        "title": title,
        "description": _prose(call, "description"),
        "gm_notes": _prose(call, "gm_notes"),
        "status": "active",
    }
    call.state["current_scene"] = scene_id
    return Outcome(
        {"scene_id": scene_id, "ended_scene_id": ended},
        scopes=scopes,
        entity_ids=[scene_id] + ([ended] if ended else []),
    )


def scene_end(call: Call) -> Outcome:
    scene_id = call.state["current_scene"]
    if scene_id is None:
        raise invalid("no scene is active")
    call.state["scenes"][scene_id]["status"] = "ended"
    call.state["current_scene"] = None
    return Outcome(
        {"ended_scene_id": scene_id}, scopes=["campaign", "scene"], entity_ids=[scene_id]
    )


def _same(a: str, b: str) -> bool:
    # "The docks are flooded." is the fact "The docks are flooded": a closing full stop, like
    # case and spacing, does not make another.
    return _label_key(a).rstrip(".") == _label_key(b).rstrip(".")


def thread_open(call: Call) -> Outcome:
    # Two open threads of one title could not be told apart (nor resolved by title).
    title = _words(call, "title")
    if any(
        t["status"] == "open" and _same(t["title"], title) for t in call.state["threads"].values()
    ):
        raise invalid(f"the thread “{title}” is already open")
    thread_id = call.new_id("thread")
    call.state["threads"][thread_id] = {
        "id": thread_id,
        "title": title,
        "description": _prose(call, "description"),
        "status": "open",
        "resolution": None,
    }
    return Outcome({"thread_id": thread_id}, scopes=["threads"], entity_ids=[thread_id])


def thread_resolve(call: Call) -> Outcome:
    thread = _get(call, "threads", "thread_id")
    if thread["status"] != "open":
        raise invalid(f"the thread “{thread['title']}” is already resolved")
    thread["status"] = "resolved"
    thread["resolution"] = _prose(call, "resolution")
    return Outcome(
        {"thread_id": thread["id"], "status": "resolved"},
        scopes=["threads"],
        entity_ids=[thread["id"]],
    )


def clock_create(call: Call) -> Outcome:
    # A name may repeat: a finished "Alarm" does not stop the next one (the room advances one
    # that can still move).
    name = _words(call, "name")
    clock_id = call.new_id("clock")
    call.state["clocks"][clock_id] = {
        "id": clock_id,
        "name": name,
        "segments": call.args["segments"],
        "filled": 0,
    }
    return Outcome(
        {"clock_id": clock_id, "segments": call.args["segments"], "filled": 0},
        scopes=["clocks"],
        entity_ids=[clock_id],
    )


def clock_advance(call: Call) -> Outcome:
    clock = _get(call, "clocks", "clock_id")
    ticks = call.args["ticks"]
    if ticks == 0:
        raise invalid("ticks must not be 0")
    before = clock["filled"]
    if ticks > 0 and before == clock["segments"]:
        raise invalid(f"the {clock['name']} clock is already complete")
    if ticks < 0 and before == 0:
        raise invalid(f"the {clock['name']} clock is already empty")
    clock["filled"] = max(0, min(clock["segments"], before + ticks))
    return Outcome(
        {
            "clock_id": clock["id"],
            "filled_before": before,
            "filled": clock["filled"],
            "segments": clock["segments"],
            "complete": clock["filled"] == clock["segments"],
        },
        scopes=["clocks"],
        entity_ids=[clock["id"]],
    )


def fact_add(call: Call) -> Outcome:
    text = _words(call, "text")
    audience = call.args.get("audience", "public")
    if audience.startswith("player:") and audience[7:] not in call.state["members"]:
        raise invalid(f"audience {audience} names a principal who is not a member")
    if any(
        f["audience"] == audience and _same(f["text"], text) for f in call.state["facts"].values()
    ):
        raise invalid("that fact is already recorded")
    fact_id = call.new_id("fact")
    call.state["facts"][fact_id] = {"id": fact_id, "text": text, "audience": audience}
    return Outcome(
        {"fact_id": fact_id, "audience": audience},
        scopes=["facts"],
        entity_ids=[fact_id],
        audience=audience,
    )


def _made_order(entity_id: str) -> tuple[int, str]:
    # Ids count up across kinds ("clock-3" before "clock-11"): sorted as made, not as text.
    number = entity_id.rpartition("-")[2]
    return (int(number) if number.isdigit() else 0, entity_id)


def story_get(call: Call) -> View:
    state = call.state
    current = state["current_scene"]
    scene = None
    if current:
        scene = dict(state["scenes"][current])
        if not call.is_gm:
            scene.pop("gm_notes")
    return View(
        {
            "audience": call.audience,
            "scene": scene,
            "threads": [state["threads"][k] for k in sorted(state["threads"], key=_made_order)],
            "clocks": [state["clocks"][k] for k in sorted(state["clocks"], key=_made_order)],
            "facts": [
                state["facts"][k]
                for k in sorted(state["facts"], key=_made_order)
                if visible(call, state["facts"][k]["audience"])
            ],
        }
    )


def oracle_ask(call: Call) -> Outcome:
    question = _words(call, "question")
    roll = call.rng.randint(1, 100)
    result = oracle(roll, call.args["likelihood"])
    result.update({"question": question, "likelihood": call.args["likelihood"]})
    return Outcome(result, scopes=["oracle"])


TAG_LIST = string_list("Short tags.", 20, 40)


def tools() -> list[ToolSpec]:
    char_id = identifier("Character id, e.g. ch-1.")
    return campaign_tools(SYSTEM_ID, PHASES, initial_state, summary) + [
        ToolSpec(
            "character_create",
            "Create a character with tags and conditions.",
            character_create,
            True,
            PLAYING_ROLES,
            SETUP,
            params={
                "name": string("Character name.", 80, minLength=1),
                "controller": principal("Controlling principal (GM only)."),
                "tags": TAG_LIST,
                "conditions": TAG_LIST,
                "gm_notes": string("Private GM notes (GM only).", 2000, prose=True),
            },
            required=("name",),
            output={"character": {"type": "object"}},
            public=public_part("character", character_view),
        ),
        ToolSpec(
            "character_get",
            "Read a character; GM notes only for the GM.",
            character_get,
            False,
            ALL_ROLES,
            None,
            params={"character_id": char_id},
            required=("character_id",),
            output={"character": {"type": "object"}},
        ),
        ToolSpec(
            "character_update",
            "Add or remove a character's tags and conditions.",
            character_update,
            True,
            PLAYING_ROLES,
            PLAY,
            params={
                "character_id": char_id,
                "add_tags": TAG_LIST,
                "remove_tags": TAG_LIST,
                "add_conditions": TAG_LIST,
                "remove_conditions": TAG_LIST,
            },
            required=("character_id",),
            output={"character": {"type": "object"}},
            public=public_part("character", character_view),
        ),
        ToolSpec(
            "scene_start",
            "Start a scene (ends the current one; GM only).",
            scene_start,
            True,
            GM_ROLES,
            PLAY,
            params={
                "title": string("Scene title.", 120, minLength=1),
                "description": string("What the players see.", 4000, prose=True),
                "gm_notes": string("Private GM notes.", 4000, prose=True),
            },
            required=("title",),
            output={"scene_id": {"type": "string"}},
            public=nothing_hidden,
        ),
        ToolSpec(
            "scene_end",
            "End the current scene (GM only).",
            scene_end,
            True,
            GM_ROLES,
            PLAY,
            output={"ended_scene_id": {"type": "string"}},
            public=nothing_hidden,
        ),
        ToolSpec(
            "thread_open",
            "Open a story thread (GM only).",
            thread_open,
            True,
            GM_ROLES,
            PLAY,
            params={
                "title": string("Thread title.", 120, minLength=1),
                "description": string("Details.", 2000, prose=True),
            },
            required=("title",),
            output={"thread_id": {"type": "string"}},
            public=nothing_hidden,
        ),
        ToolSpec(
            "thread_resolve",
            "Resolve an open thread (GM only).",
            thread_resolve,
            True,
            GM_ROLES,
            PLAY,
            params={
                "thread_id": identifier("Thread id."),
                "resolution": string("How it ended.", 2000, prose=True),
            },
            required=("thread_id",),
            output={"status": {"type": "string"}},
            public=nothing_hidden,
        ),
        ToolSpec(
            "clock_create",
            "Create a progress clock with 2..12 segments (GM only).",
            clock_create,
            True,
            GM_ROLES,
            PLAY,
            params={
                "name": string("Clock name.", 120, minLength=1),
                "segments": integer("Number of segments.", 2, 12),
            },
            required=("name", "segments"),
            output={"clock_id": {"type": "string"}},
            public=nothing_hidden,
        ),
        ToolSpec(
            "clock_advance",
            "Fill (or with negative ticks empty) clock segments (GM only).",
            clock_advance,
            True,
            GM_ROLES,
            PLAY,
            params={
                "clock_id": identifier("Clock id."),
                "ticks": integer("Segments to fill; negative empties.", -12, 12),
            },
            required=("clock_id", "ticks"),
            output={"filled": {"type": "integer"}},
            public=nothing_hidden,
        ),
        ToolSpec(
            "fact_add",
            "Record a fact for an audience: public, gm or player:<principal>.",
            fact_add,
            True,
            GM_ROLES,
            SETUP,
            params={
                "text": string("The fact.", 4000, prose=True, minLength=1),
                "audience": string("Who may see it.", 170, pattern=AUDIENCE_PATTERN),
            },
            required=("text",),
            output={"fact_id": {"type": "string"}},
            public=nothing_hidden,
        ),
        ToolSpec(
            "story_get",
            "Current scene, threads, clocks and the facts you may see.",
            story_get,
            False,
            ALL_ROLES,
            None,
            output={
                "facts": {"type": "array"},
                "threads": {"type": "array"},
                "clocks": {"type": "array"},
            },
        ),
        ToolSpec(
            "oracle_ask",
            "Seeded yes/no oracle: d100 against the likelihood, with 'and'/'but' twists.",
            oracle_ask,
            True,
            PLAYING_ROLES,
            PLAY,
            params={
                "question": string("The yes/no question.", 500, minLength=1),
                "likelihood": {
                    "type": "string",
                    "enum": list(LIKELIHOOD),
                    "maxLength": 16,
                    "description": "How likely yes is.",
                },
            },
            required=("likelihood", "question"),
            output={
                "answer": {"type": "string"},
                "roll": {"type": "integer"},
                "random_stream_receipt": RANDOM_RECEIPT_SCHEMA,
            },
            public=nothing_hidden,
        ),
    ]
