"""What the model reads of Bless: spell_cast's description and target_ids, and the attack and
saving throw tools' word that a blessed roll adds 1d4."""

from __future__ import annotations

from domain_servers.dnd5e.tools import tools


def _spec(name: str):
    return next(t for t in tools() if t.name == name)


def test_spell_cast_describes_bless_and_its_targets() -> None:
    spec = _spec("spell_cast")
    schema = spec.input_schema()

    assert "A cleric's Bless (30 ft, the action, concentration up to 1 minute)" in spec.description
    assert "one more per slot level above 1st" in spec.description
    assert (schema["required"], schema["properties"]["target_ids"]["maxItems"]) == (
        ["campaign_id", "caster_id", "expected_revision", "idempotency_key", "spell"],
        11,
    )


def test_attack_and_saving_throw_say_a_blessed_roll_adds_1d4() -> None:
    assert "a blessed attacker adds 1d4 (to_hit.bless" in _spec("attack").description
    assert "A blessed creature adds 1d4 (bless" in _spec("saving_throw").description
    assert "Bless adds nothing to a check" in _spec("ability_check").description
