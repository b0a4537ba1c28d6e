// Turn panels: job progress with cancel, dice, the character card, initiative with HP bars and
// the rendered grid (dnd5e), the story: scene, clocks, facts and threads (narrative). Panel data comes per viewer from the panel API (players never receive
// monster hit points: only a status word). room.js dispatches every websocket frame of type
// "entry" or "event" as a `room:event` CustomEvent, and the job JSON after an action POST as
// `room:job`.
import { sentenceCase } from "./text.js";

const root = document.getElementById("turn-panels");
const card = document.getElementById("turn-character");
const t = JSON.parse(document.getElementById("turn-strings").textContent);
const actingAs = document.getElementById("composer-character"); // the player's "Act as", if any
// Whether the player chose whom to act as (a kept draft's choice counts): the page then only
// follows the turn order, it does not choose for them.
let actingPicked = Boolean(actingAs && actingAs.options.length && actingAs.value !== actingAs.options[0].value);
const ACTIVE = ["queued", "running", "waiting"];
const MAX_DICE = 20; // the newest rolls; older ones leave the list
const MAX_JOB_TEXT = 60; // characters of an action's text shown in its job row

function csrfToken() {
  const m = document.cookie.match(/(?:^|; )csrftoken=([^;]+)/);
  return m ? decodeURIComponent(m[1]) : "";
}

function el(tag, attrs = {}, ...children) {
  const node = document.createElement(tag);
  for (const [k, v] of Object.entries(attrs)) {
    if (v === null || v === undefined || v === false) continue;
    node.setAttribute(k, v === true ? "" : String(v));
  }
  for (const child of children) {
    if (child === null || child === undefined || child === "") continue;
    node.append(child instanceof Node ? child : String(child));
  }
  return node;
}

function readJson(id) {
  const node = document.getElementById(id);
  try { return node ? JSON.parse(node.textContent) : null; } catch (e) { return null; }
}

function format(template, values) {
  // Django-style "%(name)s" placeholders, as the translation table spells them.
  return String(template).replace(/%\((\w+)\)s/g, (m, key) => (key in values ? String(values[key]) : m));
}

function shorten(text, limit) {
  // At most `limit` characters, the ellipsis included; cut at a word break when one is near.
  const chars = Array.from(String(text || "").replace(/\s+/g, " ").trim());
  if (chars.length <= limit) return chars.join("");
  let cut = chars.slice(0, limit - 1).join("");
  const space = cut.lastIndexOf(" ");
  if (space >= cut.length - 15) cut = cut.slice(0, space);
  return `${cut.trimEnd()}…`;
}

function setText(node, text) {
  // Only touch the DOM when the text changes, so assistive tech is not re-notified.
  if (node && node.textContent !== text) node.textContent = text;
}

// Makes `node` what `fresh` is, changing only what differs: the elements and text that did not
// change stay the same nodes, so a screen reader keeps its place and nothing flickers.
// Returns the node now in the document.
function morph(node, fresh) {
  if (node.nodeType !== fresh.nodeType || node.nodeName !== fresh.nodeName) {
    node.replaceWith(fresh);
    return fresh;
  }
  if (node.nodeType !== Node.ELEMENT_NODE) {
    if (node.nodeValue !== fresh.nodeValue) node.nodeValue = fresh.nodeValue;
    return node;
  }
  for (const name of node.getAttributeNames()) {
    if (!fresh.hasAttribute(name)) node.removeAttribute(name);
  }
  for (const name of fresh.getAttributeNames()) {
    // Styles through the CSSOM: the pages' policy blocks setting a style attribute.
    if (name === "style") {
      if (node.style.cssText !== fresh.style.cssText) node.style.cssText = fresh.style.cssText;
    } else if (node.getAttribute(name) !== fresh.getAttribute(name)) {
      node.setAttribute(name, fresh.getAttribute(name));
    }
  }
  const olds = [...node.childNodes];
  const news = [...fresh.childNodes];
  news.forEach((child, i) => { if (i < olds.length) morph(olds[i], child); else node.append(child); });
  for (const extra of olds.slice(news.length)) extra.remove();
  return node;
}

// Shows `items` in `list`, keeping the element of each one already there (the same `key`
// attribute): only what changed is updated, added, removed or moved.
function keepItems(list, items, key) {
  const wanted = new Set(items.map((item) => item.getAttribute(key)));
  const kept = new Map();
  for (const child of [...list.children]) {
    const id = child.getAttribute(key);
    if (wanted.has(id) && !kept.has(id)) kept.set(id, child);
    else child.remove();
  }
  items.forEach((item, i) => {
    const old = kept.get(item.getAttribute(key));
    const node = old ? morph(old, item) : item;
    if (list.children[i] !== node) list.insertBefore(node, list.children[i] || null);
  });
}

const announcer = document.getElementById("turn-announce");
// A fast turn's statuses arrive milliseconds apart; a polite region read after the next one
// replaced it would lose "Running". Each text is held this long before the next is set.
const ANNOUNCE_HOLD_MS = 700;
const ANNOUNCE_QUEUE_MAX = 4; // past this, the oldest waiting ones are stale: dropped
// News that holds no state (an action ended) stays this long to be read, then is cleared.
const ANNOUNCE_NEWS_MS = 5000;
const toAnnounce = [];
let announcing = false;
let shown = null; // what the region says now: { text, stillTrue, until }
// `stillTrue` says whether the text still describes what is happening (an action still queued,
// the viewer's go still on); without it the text is news, kept ANNOUNCE_NEWS_MS.
function announce(text, stillTrue = null) {
  if (!announcer) return;
  toAnnounce.push({ text, stillTrue });
  if (toAnnounce.length > ANNOUNCE_QUEUE_MAX) toAnnounce.splice(0, toAnnounce.length - ANNOUNCE_QUEUE_MAX);
  if (!announcing) nextAnnouncement();
}
function nextAnnouncement() {
  if (!toAnnounce.length) { announcing = false; clearStaleAnnouncement(); return; }
  announcing = true;
  const next = toAnnounce.shift();
  announcer.textContent = "";
  shown = null;
  // A fresh text node after a tick is what screen readers reliably pick up.
  setTimeout(() => {
    announcer.textContent = next.text;
    shown = next;
    if (!next.stillTrue) {
      next.until = performance.now() + ANNOUNCE_NEWS_MS;
      setTimeout(clearStaleAnnouncement, ANNOUNCE_NEWS_MS);
    }
    setTimeout(nextAnnouncement, ANNOUNCE_HOLD_MS);
  }, 50);
}
// The region is a status a screen reader user can browse to: once what it says no longer holds
// (the action ended, the go passed on), it says nothing rather than something out of date.
function clearStaleAnnouncement() {
  if (announcing || !shown) return;
  const holds = shown.stillTrue ? shown.stillTrue() : performance.now() < shown.until;
  if (holds) return;
  announcer.textContent = "";
  shown = null;
}

const campaign = root ? root.dataset.campaign : null;
const viewer = root ? root.dataset.user : null;
// user id -> display name of the campaign's members (rendered with the page).
const members = new Map(Object.entries(readJson("turn-members") || {}));
const api = `/api/campaigns/${campaign}/room`;
const names = new Map(); // entity id -> display name, from the latest combat/party views
const jobs = new Map(); // job id -> job JSON (only ones this viewer may see)
let loading = false;
let again = false;
let retryTimer = null;
let ended = false; // access to the room ended: nothing more is asked for or shown

// State reads are never from the HTTP cache: a page the back button brings back would get the
// state as it was when the page was last open (the room may have moved on since).
const READ = { credentials: "same-origin", cache: "no-store", headers: { Accept: "application/json" } };

async function refresh() {
  if (ended) return;
  // Coalesce bursts of events into one request at a time, plus one trailing refresh.
  if (loading) { again = true; return; }
  loading = true;
  try {
    // The card shown is the character the viewer acts as.
    const query = actingAs && actingAs.value ? `?character=${encodeURIComponent(actingAs.value)}` : "";
    const res = await fetch(`${api}/panel${query}`, READ);
    // Not (or no longer) a member: asking again cannot help.
    if (res.status === 403 || res.status === 404) { endAccess(); return; }
    if (!res.ok) throw new Error(String(res.status));
    const panel = await res.json();
    if (ended) return; // the socket said access ended while this was on its way
    render(panel);
    clearTimeout(retryTimer);
  } catch (e) {
    if (ended) return;
    showJobsError(t.unavailable, "unavailable");
    clearTimeout(retryTimer);
    retryTimer = setTimeout(refresh, 5000);
  } finally {
    loading = false;
    if (again) { again = false; refresh(); }
  }
}

// ---- hit points --------------------------------------------------------------------------

function hpLevel(current, max) {
  if (current <= 0) return "down";
  const ratio = current / Math.max(1, max);
  if (ratio <= 0.5) return "low";
  if (ratio < 1) return "mid";
  return "full";
}

function statusLabel(word) {
  return sentenceCase(t[`status_${word}`] || word || "");
}

// Temporary hit points, where the view shows them (only beside the hit points themselves, so
// never a monster's to a player); 0 when there are none.
function tempHp(hp) {
  return hp && typeof hp.temp === "number" && hp.temp > 0 ? hp.temp : 0;
}

// "12/12" and, while there are temporary hit points, "+5 temp" beside it (damage spends those
// first): the nodes of the hit-point text, the card's and the initiative list's alike.
function hpTextNodes(hp) {
  const temp = tempHp(hp);
  const text = `${hp.current}/${hp.max}`;
  if (!temp) return [text];
  return [text, el("span", { class: "turn-hp__temp", title: format(t.hp_temp_long, { temp }) },
    ` ${format(t.hp_temp, { temp })}`)];
}

function fillBar(bar, current, max, label, temp = 0) {
  const pct = Math.max(0, Math.min(100, (current / Math.max(1, max)) * 100));
  bar.setAttribute("aria-valuemin", "0");
  bar.setAttribute("aria-valuemax", String(max));
  bar.setAttribute("aria-valuenow", String(Math.max(0, current)));
  // The bar measures hit points; a screen reader also hears the temporary ones on top.
  const extra = temp ? `, ${format(t.hp_temp_long, { temp })}` : "";
  bar.setAttribute("aria-valuetext", `${current}/${max}${extra}`);
  if (label) bar.setAttribute("aria-label", label);
  bar.dataset.level = hpLevel(current, max);
  bar.firstElementChild.style.width = `${pct}%`;
}

// Dead by the status word (a player's view) or the condition (a GM's view, which has no status).
function isDead(character) {
  return character.status === "dead" || (character.conditions || []).includes("dead");
}

// At 0 HP and not dead (by its numbers, or the status word a player's view gives instead).
function atZeroHp(character) {
  const hp = character.hp;
  return !isDead(character)
    && (character.status === "down" || Boolean(hp && typeof hp.current === "number" && hp.current <= 0));
}

// The word for a character's state, the same on its card and in the initiative list: at 0 HP
// it is "dying" while it makes death saves and "down" once stable (the domain's status word
// says "down" for both); otherwise the status word (none in a GM's view).
function statusWord(character) {
  if (atZeroHp(character)) return (character.conditions || []).includes("stable") ? "down" : "dying";
  return character.status || "";
}

// A dying character's death-save counts (at 0 HP, neither dead nor stable), else null.
function deathSavesText(character) {
  const saves = character.death_saves;
  const dying = Boolean(saves) && character.hp && character.hp.current === 0
    && !isDead(character) && !(character.conditions || []).includes("stable");
  if (!dying) return null;
  return t.death_saves.replace("%(successes)s", String(saves.successes)).replace("%(failures)s", String(saves.failures));
}

// A caster's spell slots left, lowest level first ("Level 1: 3 of 4 left, Level 2: 2 of 2 left"); null
// for a character without any (a fighter's are none, not "0 of 0").
function spellSlotsText(character) {
  const slots = Object.entries(character.spell_slots || {})
    .filter(([, slot]) => slot && slot.max > 0)
    .sort(([a], [b]) => Number(a) - Number(b));
  if (!slots.length) return null;
  return slots.map(([level, slot]) => format(t.spell_slot, { level, current: slot.current, max: slot.max })).join(", ");
}

// The spells behind a character's AC ("Shield of Faith +2"): the domain's `ac` already counts
// them, so the number is explained, never added to. "" when none is on it.
function acEffectsText(character) {
  const effects = Array.isArray(character.effects) ? character.effects : [];
  return effects.filter((e) => e && typeof e.ac_bonus === "number" && e.ac_bonus !== 0)
    .map((e) => format(t.ac_effect, { spell: e.name || e.spell, bonus: signed(e.ac_bonus) }))
    .join(", ");
}

// The AC, and under it a note of the spells in it. The note is inside the AC's own text, so
// a screen reader says it with the number; rebuilt only when it changes (as setText).
function fillArmourClass(node, character) {
  const value = character.ac !== undefined && character.ac !== null ? String(character.ac) : "—";
  const why = acEffectsText(character);
  const text = why ? `${value} ${why}` : value;
  if (node.textContent === text) return;
  node.replaceChildren(value, ...(why ? [" ", el("small", { class: "turn-character__ac-note", "data-field": "ac-effects" }, why)] : []));
}

// Names listed as the game master's narration lists them ("A, B and C"), with its pattern, so
// the card and the narration read alike in each language.
function andList(items) {
  if (items.length < 2) return items.join("");
  return format(t.and_list, { items: items.slice(0, -1).join(", "), last: items[items.length - 1] });
}

// The spell a caster keeps going and on whom ("Shield of Faith on Bram"; "on yourself" on its
// own card); Bless holds several (target_ids, target_names): "Bless on Bram, Goblin and
// yourself", its own card last. Just the spell if it names no one; null while it concentrates
// on nothing.
function concentrationText(character) {
  const held = character.concentration;
  if (!held || typeof held !== "object") return null;
  const spell = held.name || held.spell;
  const ids = Array.isArray(held.target_ids) ? held.target_ids : held.target_id ? [held.target_id] : [];
  const names = Array.isArray(held.target_names) ? held.target_names : held.target_name ? [held.target_name] : [];
  const others = [];
  let self = false;
  for (let i = 0; i < Math.max(ids.length, names.length); i += 1) {
    if (ids[i] && ids[i] === character.id) self = true;
    else if (names[i] || ids[i]) others.push(names[i] || ids[i]);
  }
  if (!others.length) return self ? format(t.concentrating_on_self, { spell }) : spell;
  const targets = self ? [...others, t.concentrating_yourself] : others;
  return format(t.concentrating_on, { spell, target: andList(targets) });
}

// A character's Hit Dice left ("2 of 3 (d10)"); null for one without any (a monster).
function hitDiceText(character) {
  const pool = character.hit_dice;
  if (!pool || !(pool.max > 0)) return null;
  return format(t.hit_dice, { current: pool.current, max: pool.max, die: pool.die });
}

// The domain's sheet (a player character's: modifiers, attacks and spells as its tools roll
// and cast them) as the card's lines; each list empty when the view has none (a monster).
const ABILITIES = ["str", "dex", "con", "int", "wis", "cha"];
// The spells on a character, named as the initiative list names them, each with the rounds its
// caster's count leaves while a combat counts them ("Bless (3 rounds left)"); null for none.
function effectsText(character) {
  const said = [];
  for (const effect of Array.isArray(character.effects) ? character.effects : []) {
    if (!effect || typeof effect !== "object") continue;
    const name = sentenceCase(effect.name || effect.spell);
    if (!name) continue;
    const rounds = effect.rounds_left;
    if (typeof rounds !== "number") said.push(name);
    else said.push(format(rounds === 1 ? t.effect_rounds_left_one : t.effect_rounds_left, { name, rounds }));
  }
  return said.length ? said.join(", ") : null;
}

// The strings' keys for a spell's level ("1st"), by level: 0 is a cantrip.
const SPELL_LEVELS = ["cantrip", "first", "second", "third", "fourth", "fifth", "sixth", "seventh", "eighth", "ninth"];

function signed(n) {
  return n < 0 ? String(n) : `+${n}`;
}

function abilityItems(character) {
  const scores = character.abilities || {};
  const mods = (character.sheet && character.sheet.ability_modifiers) || {};
  return ABILITIES.filter((a) => typeof scores[a] === "number" && typeof mods[a] === "number")
    .map((a) => el("li", { "data-ability": a },
      el("abbr", { title: t[`ability_${a}_long`] }, t[`ability_${a}`]), " ",
      el("span", { class: "turn-abilities__score" }, format(t.ability_score, { score: scores[a], modifier: signed(mods[a]) }))));
}

// As format(), but as nodes: a value may be an element (a name set in bold), wherever the
// translation puts it.
function formatNodes(template, values) {
  return String(template).split(/(%\(\w+\)s)/).map((part) => {
    const m = part.match(/^%\((\w+)\)s$/);
    if (!m || !(m[1] in values)) return part;
    const value = values[m[1]];
    return value instanceof Node ? value : String(value);
  });
}

function attackItems(character) {
  const attacks = (character.sheet && character.sheet.attacks) || [];
  return attacks.map((a) => el("li", {}, ...formatNodes(t.attack_line, {
    name: el("strong", {}, a.name), to_hit: signed(a.to_hit), damage: a.damage, damage_type: a.damage_type,
  })));
}

function spellItems(character) {
  const spells = (character.sheet && character.sheet.spells) || [];
  // A concentration spell says so: casting it ends the one the caster keeps going. One that
  // takes more than one creature (Bless, at its own level) says how many: a player would not
  // otherwise know to name them all; a one-creature spell says nothing, as before.
  return spells.map((s) => {
    const several = typeof s.targets === "number" && s.targets > 1;
    const line = several
      ? (s.concentration ? t.spell_line_targets_concentration : t.spell_line_targets)
      : (s.concentration ? t.spell_line_concentration : t.spell_line);
    return el("li", { "data-spell": s.key }, ...formatNodes(line, {
      name: el("strong", {}, s.name),
      level: t[`spell_level_${SPELL_LEVELS[s.level]}`] || String(s.level),
      casting: t[`casting_${s.casting}`] || s.casting,
      range: s.touch ? t.range_touch : format(t.range_feet, { feet: s.range }),
      targets: s.targets,
    }));
  });
}

// Fills a list row with `items`, hidden when there are none; untouched when nothing changed,
// so assistive tech is not re-notified (as setText).
const listsShown = new WeakMap(); // each sheet list's markup as last filled

function fillListRow(row, items) {
  if (!row) return false;
  const list = row.querySelector("ul");
  const html = items.map((item) => item.outerHTML).join("");
  if (listsShown.get(list) !== html) {
    list.replaceChildren(...items);
    listsShown.set(list, html);
  }
  row.hidden = !items.length;
  return items.length > 0;
}

function hpCell(character) {
  const wrap = el("span", { class: "turn-hp" });
  if (character.hp && typeof character.hp.current === "number") {
    const { current, max } = character.hp;
    const bar = el("span", { class: "turn-bar", role: "meter" }, el("span", { class: "turn-bar__fill" }));
    fillBar(bar, current, max, `${t.hp}: ${character.name || character.id}`, tempHp(character.hp));
    wrap.append(bar, el("span", { class: "turn-hp__text", "data-hp": "" }, ...hpTextNodes(character.hp)));
  } else if (character.status) {
    // Players get a status word for monsters, never the numbers.
    const word = statusWord(character);
    wrap.append(el("span", { class: "badge turn-status", "data-status": word }, statusLabel(word)));
  }
  return wrap;
}

// ---- combat: initiative order, HP, grid ----------------------------------------------------

let announcedGo = "";
let cardCharacter = ""; // the character on the viewer's card

function ownCharacters() {
  // A player with one character has no "Act as": theirs is the one on their card.
  return cardCharacter ? [cardCharacter] : [];
}

function announceGo(data, mine) {
  // Screen readers hear when the go passes to one of the viewer's characters, once per go
  // (panel re-reads of the same round and combatant say nothing).
  const go = `${data.round}:${data.current}`;
  if (go === announcedGo) return;
  announcedGo = go;
  if (!mine.includes(data.current)) return;
  const entry = data.order.find((e) => e.id === data.current);
  announce(format(t.your_go, { name: (entry && entry.character && entry.character.name) || data.current }),
    () => !ended && announcedGo === go);
}

// Where a combatant stands, in the coordinates "move to X,Y" takes (the battle map is an image
// a screen reader cannot read, and its axis numbers are small), and for the one whose go it is
// how far it can still move: a move around the creatures in the way may cost more than it looks.
// One unconscious (dying at 0 HP, or knocked out) or dead cannot move, whatever movement its
// turn's budget still holds: where it lies is all that is said.
function placeText(entry, current) {
  const at = entry.position;
  if (!Array.isArray(at) || at.length !== 2) return "";
  const parts = [format(t.at_square, { x: at[0], y: at[1] })];
  const c = entry.character || {};
  const still = isDead(c) || atZeroHp(c) || (c.conditions || []).includes("unconscious");
  const feet = entry.budget && entry.budget.movement;
  if (current && !still && typeof feet === "number") parts.push(format(t.movement_left, { feet }));
  return parts.join(" · ");
}

// What changes the rolls against or by a combatant now, in words: its Dodge, its hiding, its
// Disengage and the Help actions it holds, as the domain's view for this viewer carries them
// (an entry says "hidden" only to those the domain tells). A Disengage lasts the rest of its
// turn, though the budget keeps it until the next: only the current combatant's is shown.
// [data-state, text] pairs.
function combatStates(entry, current) {
  const budget = entry.budget || {};
  const states = [];
  if (budget.dodging) states.push(["dodging", t.state_dodging]);
  if (entry.hidden === true) states.push(["hidden", t.state_hidden]);
  // A Dash and a Disengage last the turn they are taken in; their flags stay until the next.
  if (current && budget.dashed) states.push(["dashed", t.state_dashed]);
  if (current && budget.disengaged) states.push(["disengaged", t.state_disengaged]);
  for (const help of Array.isArray(entry.helped_by) ? entry.helped_by : []) {
    const helper = help.helper_name || help.helper_id;
    states.push(["helped", help.target_id
      ? format(t.helped_vs, { helper, target: help.target_name || help.target_id })
      : format(t.helped_check, { helper })]);
  }
  return states;
}

// What a spell on a combatant does, as its effect says it ("+2 AC", "+1d4"); "" when the
// effect says nothing the list can put in words (its name alone is shown then).
function effectDoes(effect) {
  if (typeof effect.ac_bonus === "number" && effect.ac_bonus !== 0) {
    return format(t.effect_ac, { bonus: signed(effect.ac_bonus) });
  }
  if (typeof effect.dice === "string" && effect.dice) {
    return /^[+-]/.test(effect.dice) ? effect.dice : `+${effect.dice}`;
  }
  return "";
}

// The spells on a combatant and the one it concentrates on, as the viewer's read carries them
// (a monster's, to a player, as the domain narrows it): badges after its other states. Each
// effect shows its name; what it does is heard with it and shown on hover.
function spellBadges(entry) {
  const c = entry.character || {};
  const badges = [];
  for (const effect of Array.isArray(c.effects) ? c.effects : []) {
    if (!effect || typeof effect !== "object") continue;
    const name = sentenceCase(effect.name || effect.spell);
    if (!name) continue;
    const does = effectDoes(effect);
    const said = does ? name + format(t.effect_does, { does }) : ""; // "Shield of Faith: +2 AC"
    // Heard once, in hidden words: the hover's title sits on the seen name, hidden from screen
    // readers (a title on the badge was read again after its words, as a description).
    badges.push(el("span", { class: "badge turn-state", "data-state": "effect", "data-spell": effect.spell || null },
      el("span", { class: "turn-state__name", "aria-hidden": said ? "true" : null, title: said || null }, name),
      said ? el("span", { class: "sr-only" }, said) : null));
  }
  // One spell held on one or more targets (target_id or target_ids): named by the spell, the
  // targets' own rows show it on them.
  const held = c.concentration;
  const spell = held && typeof held === "object" ? held.name || held.spell : null;
  if (spell) {
    badges.push(el("span", { class: "badge turn-state", "data-state": "concentrating", "data-spell": held.spell || null },
      format(t.state_concentrating, { spell: sentenceCase(spell) })));
  }
  return badges;
}

function statesCell(entry, current) {
  const states = combatStates(entry, current).map(([key, text]) => el("span", { class: "badge turn-state", "data-state": key }, text));
  const badges = [...states, ...spellBadges(entry)];
  if (!badges.length) return null;
  // Spaces between them: a screen reader hears each state apart, not run together.
  const parts = badges.flatMap((badge, i) => [i ? " " : null, badge]);
  return el("span", { class: "turn-combatant__states" }, ...parts);
}

function renderCombat(panels) {
  const section = document.getElementById("turn-combat");
  if (!section) return; // only systems with combat (dnd5e) have the initiative section
  const data = panels.combat && panels.combat.data && panels.combat.data.combat;
  if (!data || !Array.isArray(data.order)) { hideKeepingFocus(section, true); announcedGo = ""; return; }
  section.hidden = false;
  setText(section.querySelector('[data-field="round"]'), `${t.round} ${data.round}`);
  // When one of the viewer's characters has the turn, it is the one that acts.
  const mine = actingAs ? [...actingAs.options].map((o) => o.value) : ownCharacters();
  announceGo(data, mine);
  const fighting = new Set(data.order.map((entry) => entry.id));
  if (actingAs && actingAs.value !== data.current && mine.includes(data.current)) {
    actingAs.value = data.current;
    refresh(); // its card
  } else if (actingAs && !actingPicked && !fighting.has(actingAs.value)) {
    // Until the player picks, the one that acts is one of theirs in the fight, not the first
    // listed (a fallen character left out of it).
    const inFight = mine.find((id) => fighting.has(id));
    if (inFight) {
      actingAs.value = inFight;
      refresh();
    }
  }
  const list = document.getElementById("turn-order");
  const items = [];
  for (const entry of data.order) {
    const c = entry.character || {};
    names.set(entry.id, c.name || entry.id);
    const current = entry.id === data.current;
    // Dead is out of the fight; at 0 HP and not yet stable is dying, still in it (death saves).
    const out = isDead(c);
    const word = statusWord(c);
    const dying = word === "dying";
    const item = el("li", {
      "data-id": entry.id,
      "data-kind": c.kind || "",
      class: `turn-combatant${current ? " is-current" : ""}${out ? " is-out" : ""}${dying ? " is-dying" : ""}`,
      "aria-current": current ? "step" : null,
    });
    // A status badge (shown instead of numbers) already says "dead": not again as a condition.
    const showsStatus = Boolean(c.status) && !(c.hp && typeof c.hp.current === "number");
    // At 0 HP the list says what the character's card says ("dying", or "down" once stable),
    // unless its status badge already says it.
    const zeroBadge = atZeroHp(c) && !showsStatus
      ? el("span", { class: `badge turn-combatant__${word}` }, statusLabel(word)) : null;
    // A dead combatant is dead, not also the prone and unconscious of the dying before.
    const held = isDead(c) ? ["dead"] : (c.conditions || []);
    const shown = held.filter((x) => !(showsStatus && x === c.status));
    // How close a dying character is: everyone at the table sees the counts (as on its card).
    const saves = deathSavesText(c);
    const facts = saves ? [...shown, `${t.death_saves_label}: ${saves}`] : shown;
    const conditions = facts.length ? el("span", { class: "turn-combatant__conditions small muted" }, sentenceCase(facts.join(", "))) : null;
    const place = placeText(entry, current);
    item.append(
      // Named once, by hidden words (a title would be said again, as a description); the
      // section's heading says "Initiative" to the eye.
      el("span", { class: "turn-combatant__init" }, el("span", { class: "sr-only" }, `${t.initiative} `), String(entry.initiative)),
      el("span", { class: "turn-combatant__who" },
        el("span", { class: "turn-combatant__name" }, c.name || entry.id),
        c.kind === "monster" ? el("span", { class: "badge turn-kind" }, sentenceCase(t.monster)) : null,
        zeroBadge,
        current ? el("span", { class: "sr-only" }, ` (${t.current})`) : null,
        place ? el("span", { class: "turn-combatant__place small muted" }, place) : null,
        conditions,
        statesCell(entry, current)),
      hpCell(c),
    );
    items.push(item);
  }
  keepItems(list, items, "data-id");
  renderOpportunity(data);
  renderGrid(panels);
}

// The opportunity attacks the last move left open: only the GM's combat read lists them (the
// GM calls them), by the names the initiative list shows.
function renderOpportunity(data) {
  const box = document.getElementById("turn-opportunity");
  if (!box) return;
  const windows = Array.isArray(data.opportunity) ? data.opportunity : [];
  const items = windows.map((w) => {
    const at = Array.isArray(w.at) ? w.at : [];
    return el("li", { "data-id": `${w.attacker_id}>${w.target_id}` }, format(t.opportunity_line, {
      attacker: names.get(w.attacker_id) || w.attacker_name || w.attacker_id,
      target: names.get(w.target_id) || w.target_name || w.target_id,
      x: at[0] ?? "?", y: at[1] ?? "?",
    }));
  });
  keepItems(document.getElementById("turn-opportunity-list"), items, "data-id");
  hideKeepingFocus(box, !items.length);
}

function renderGrid(panels) {
  const map = document.getElementById("turn-map");
  const grid = document.getElementById("turn-grid");
  const link = document.getElementById("turn-grid-link");
  if (!map) return;
  const images = panels.grid && panels.grid.data && panels.grid.data.images;
  const image = images && images.length ? images[0] : null;
  if (!image || !image.url) { hideKeepingFocus(map, true); grid.hidden = true; return; }
  // The grid's shape holds the map's place before the image arrives: the panel does not jump.
  const cells = panels.grid.data.grid || {};
  grid.style.aspectRatio = cells.width > 0 && cells.height > 0 ? cells.width + " / " + cells.height : "";
  if (grid.getAttribute("src") !== image.url) {
    grid.src = image.url; // the authenticated artifact view; a new artifact per revision
    link.href = image.url;
  }
  grid.hidden = false;
  map.hidden = false;
}

// ---- story: scene, clocks, facts, threads (narrative) -------------------------------------------

function storyData(panels, key) {
  // The scene, clocks and threads panels each hold the same per-viewer story view.
  const panel = panels[key];
  return panel && panel.data ? panel.data : null;
}

function showList(section, items, key) {
  keepItems(section.querySelector("[data-list]"), items, key);
  section.querySelector("[data-empty]").hidden = items.length > 0;
}

function renderStory(panels) {
  const sceneSection = document.getElementById("turn-scene");
  if (!sceneSection) return; // only systems with a story (narrative) have these sections
  const failed = ["scene", "clocks", "threads"].every((key) => {
    const data = storyData(panels, key);
    return !data || data.error;
  });
  sceneSection.querySelector("[data-error]").hidden = !failed;
  if (failed) return; // keep what was shown; the next refresh may work
  renderScene(sceneSection, storyData(panels, "scene"));
  renderClocks(storyData(panels, "clocks"));
  renderFacts(storyData(panels, "scene") || storyData(panels, "threads") || storyData(panels, "clocks"));
  renderThreads(storyData(panels, "threads"));
}

function renderScene(section, data) {
  if (!data || data.error) return;
  const scene = data.scene;
  const body = section.querySelector("[data-scene]");
  section.querySelector("[data-empty]").hidden = Boolean(scene);
  body.hidden = !scene;
  if (!scene) return;
  setText(body.querySelector('[data-field="title"]'), scene.title || "");
  const description = body.querySelector('[data-field="description"]');
  setText(description, scene.description || "");
  description.hidden = !scene.description;
  // Only the GM's story view carries the scene's notes.
  const notes = typeof scene.gm_notes === "string" ? scene.gm_notes.trim() : "";
  const notesRow = body.querySelector('[data-row="notes"]');
  setText(notesRow.querySelector('[data-field="notes"]'), notes);
  notesRow.hidden = !notes;
}

function clockItem(clock) {
  const segments = Math.max(1, Number(clock.segments) || 1);
  const filled = Math.max(0, Math.min(segments, Number(clock.filled) || 0));
  const complete = filled >= segments;
  const bar = el("span", {
    class: "turn-clock__bar",
    role: "meter",
    "aria-label": `${t.clock}: ${clock.name || clock.id}`,
    "aria-valuemin": "0",
    "aria-valuemax": String(segments),
    "aria-valuenow": String(filled),
    "aria-valuetext": format(t.clock_value, { filled, segments }),
  });
  for (let i = 0; i < segments; i++) {
    bar.append(el("span", { class: "turn-clock__segment", "data-filled": i < filled ? "true" : null }));
  }
  return el("li", { class: `turn-clock${complete ? " is-complete" : ""}`, "data-clock": clock.id },
    el("span", { class: "turn-clock__head" },
      el("span", { class: "turn-clock__name" }, clock.name || clock.id),
      complete ? el("span", { class: "badge turn-clock__done" }, sentenceCase(t.complete)) : null,
      el("span", { class: "turn-clock__count", "aria-hidden": "true" }, `${filled}/${segments}`)),
    bar);
}

function renderClocks(data) {
  const section = document.getElementById("turn-clocks");
  if (!section || !data || data.error) return;
  const clocks = Array.isArray(data.clocks) ? data.clocks : [];
  // Running clocks first, each group in the order they were made: a finished clock (whose
  // name a new one may take again) must not sit among, or above, the ones still being watched.
  const done = (clock) => Number(clock.filled) >= Number(clock.segments);
  const ordered = [...clocks.filter((c) => !done(c)), ...clocks.filter(done)];
  showList(section, ordered.map(clockItem), "data-clock");
}

function factTag(audience) {
  // The server sends only the facts this viewer may see; the tag says who else can.
  if (!audience || audience === "public") return null;
  if (audience === "gm") return el("span", { class: "badge badge--gm turn-fact__tag" }, t.gm_only);
  const principal = audience.startsWith("player:") ? audience.slice(7) : "";
  const userId = principal.startsWith("user:") ? principal.slice(5) : "";
  let text = t.private;
  if (userId && userId === viewer) text = t.only_you;
  else if (userId && members.has(userId)) text = format(t.only_for, { who: members.get(userId) });
  return el("span", { class: "badge badge--private turn-fact__tag" }, text);
}

function renderFacts(data) {
  const section = document.getElementById("turn-facts");
  if (!section || !data || data.error) return;
  const facts = Array.isArray(data.facts) ? data.facts : [];
  showList(section, facts.map((fact) => el("li", {
    class: "turn-fact", "data-fact": fact.id, "data-audience": fact.audience || "public",
  }, el("span", { class: "turn-fact__text" }, fact.text || ""), factTag(fact.audience))), "data-fact");
}

function renderThreads(data) {
  const section = document.getElementById("turn-threads");
  if (!section || !data || data.error) return;
  const threads = Array.isArray(data.threads) ? data.threads : [];
  // Open threads first, each group in the order they were opened.
  const ordered = [...threads.filter((th) => th.status !== "resolved"), ...threads.filter((th) => th.status === "resolved")];
  showList(section, ordered.map((thread) => {
    const resolved = thread.status === "resolved";
    return el("li", { class: "turn-thread", "data-thread": thread.id, "data-status": thread.status || "open" },
      el("span", { class: "turn-thread__head" },
        el("span", { class: "turn-thread__title" }, thread.title || thread.id),
        resolved ? el("span", { class: "badge turn-thread__status" }, sentenceCase(t.resolved)) : null),
      thread.description ? el("span", { class: "turn-thread__description small muted" }, thread.description) : null,
      resolved && thread.resolution ? el("span", { class: "turn-thread__resolution small" }, thread.resolution) : null);
  }), "data-thread");
}

// ---- character card ------------------------------------------------------------------------

function renderCharacter(character, audience) {
  cardCharacter = (character && character.id) || "";
  if (!card) return;
  const sheet = card.querySelector("[data-sheet]");
  const empty = card.querySelector("[data-empty]");
  const error = card.querySelector("[data-error]");
  const gmNote = card.querySelector("[data-gm]");
  const fallen = card.querySelector("[data-fallen]");
  const create = card.querySelector("[data-create]");
  const loading = card.querySelector("[data-loading]");
  if (loading) loading.hidden = true; // read now (a page cached from before it had none)
  // A player with no character, or whose character died, is shown the way to a new one.
  const dead = Boolean(character) && !character.error && isDead(character);
  if (create) hideKeepingFocus(create, Boolean(character) && !dead);
  fallen.hidden = !dead;
  if (dead) setText(fallen, format(t.fallen, { name: character.name || character.id }));
  if (!character) {
    sheet.hidden = true; error.hidden = true;
    gmNote.hidden = audience !== "gm"; empty.hidden = audience === "gm";
    return;
  }
  empty.hidden = true; gmNote.hidden = true;
  error.hidden = !character.error;
  names.set(character.id, character.name || character.id);
  sheet.hidden = false;
  setText(sheet.querySelector('[data-field="name"]'), character.name || character.id);
  // Bound without "Can see the private sheet": who it is, and that the rest is the GM's.
  sheet.dataset.private = character.sheet_private ? "true" : "false";
  sheet.querySelector("[data-sheet-private]").hidden = !character.sheet_private;
  // The same word as the initiative list's for this character ("dying" at 0 HP, not "down").
  const status = sheet.querySelector('[data-field="status"]');
  const word = statusWord(character);
  setText(status, statusLabel(word));
  status.hidden = !word;
  status.dataset.status = word;
  // The template renders the fields of the campaign's system: hit points and armour class for
  // dnd5e, tags (and the GM's notes, for the GM) for narrative. Fill whichever are there.
  const bar = sheet.querySelector('[data-field="hp-bar"]');
  if (bar) {
    const hpText = sheet.querySelector('[data-field="hp-text"]');
    if (character.hp && typeof character.hp.current === "number") {
      const { current, max } = character.hp;
      fillBar(bar, current, max, null, tempHp(character.hp));
      const nodes = hpTextNodes(character.hp);
      const text = nodes.map((node) => (typeof node === "string" ? node : node.textContent)).join("");
      // Only when it changes, so assistive tech is not re-notified (as setText).
      if (hpText.textContent !== text) hpText.replaceChildren(...nodes);
      bar.parentElement.hidden = false;
    } else {
      bar.parentElement.hidden = true;
    }
  }
  const ac = sheet.querySelector('[data-field="ac"]');
  if (ac) fillArmourClass(ac, character);
  const list = (items) => (Array.isArray(items) && items.length ? items.join(", ") : t.none);
  const tags = sheet.querySelector('[data-field="tags"]');
  if (tags) setText(tags, list(character.tags));
  // The status badge already says "dead": not again as a condition, nor the prone and
  // unconscious of the dying that led there.
  const conditions = isDead(character) ? [] : (character.conditions || []).filter((c) => !word || c !== word);
  setText(sheet.querySelector('[data-field="conditions"]'), sentenceCase(list(conditions)));
  const heldRow = sheet.querySelector('[data-row="concentration"]');
  if (heldRow) {
    const held = concentrationText(character);
    heldRow.hidden = !held;
    if (held) setText(heldRow.querySelector('[data-field="concentration"]'), held);
  }
  const effectsRow = sheet.querySelector('[data-row="effects"]');
  if (effectsRow) {
    const effects = effectsText(character);
    effectsRow.hidden = !effects;
    if (effects) setText(effectsRow.querySelector('[data-field="effects"]'), effects);
  }
  const savesRow = sheet.querySelector('[data-row="death-saves"]');
  if (savesRow) {
    const saves = deathSavesText(character);
    savesRow.hidden = !saves;
    if (saves) setText(savesRow.querySelector('[data-field="death-saves"]'), saves);
  }
  const slotsRow = sheet.querySelector('[data-row="spell-slots"]');
  if (slotsRow) {
    const slots = spellSlotsText(character);
    slotsRow.hidden = !slots;
    if (slots) setText(slotsRow.querySelector('[data-field="spell-slots"]'), slots);
  }
  const diceRow = sheet.querySelector('[data-row="hit-dice"]');
  if (diceRow) {
    const pool = hitDiceText(character);
    diceRow.hidden = !pool;
    if (pool) setText(diceRow.querySelector('[data-field="hit-dice"]'), pool);
  }
  const more = sheet.querySelector('[data-row="sheet"]');
  if (more) {
    const shown = [
      fillListRow(more.querySelector('[data-row="abilities"]'), abilityItems(character)),
      fillListRow(more.querySelector('[data-row="attacks"]'), attackItems(character)),
      fillListRow(more.querySelector('[data-row="spells"]'), spellItems(character)),
    ];
    more.hidden = !shown.some(Boolean);
  }
  const notesRow = sheet.querySelector('[data-row="notes"]');
  if (notesRow) {
    // Only the GM's view of a character carries gm_notes; players never receive them.
    const notes = typeof character.gm_notes === "string" ? character.gm_notes.trim() : "";
    setText(notesRow.querySelector('[data-field="notes"]'), notes);
    notesRow.hidden = !notes;
  }
}

// ---- jobs -----------------------------------------------------------------------------------

let jobsError = ""; // what the jobs error line shows: "", "unavailable" or "cancel"
let lateJob = ""; // the turn a "too late to cancel" line is about

function showJobsError(text, kind = "cancel") {
  const node = document.getElementById("turn-jobs-error");
  if (!node) return;
  node.textContent = text || "";
  node.hidden = !text;
  jobsError = text ? kind : "";
  lateJob = "";
}

// Jobs this page asked to cancel, until they end: one that ends any other way than cancelled
// was too late to stop, and the viewer who clicked is told so (else its row just goes).
const cancelAsked = new Set();

function cancelOutcome(job) {
  if (!cancelAsked.has(job.id) || ACTIVE.includes(job.status)) return;
  cancelAsked.delete(job.id);
  if (job.status === "cancelled") return;
  const text = `${t.cancel_too_late} (${t[job.status] || job.status}).`;
  showJobsError(text);
  lateJob = String(job.id);
  // Said beside the action too: its Cancel may have been the timeline's (on a phone this list
  // is far below). After the redraw that takes the ended turn's mark away.
  queueMicrotask(() => document.dispatchEvent(new CustomEvent("room:cancel-failed", {
    detail: { message: job.trigger_message_id, job: job.id, text },
  })));
}

async function settleCancelled(id) {
  // It left the panel's list without its last event reaching this page: ask how it ended.
  try {
    const res = await fetch(`${api}/jobs/${id}`, READ);
    if (res.ok) cancelOutcome(await res.json());
  } catch (e) { /* the note is a courtesy: the timeline shows what the turn did */ }
}

// Jobs seen ending: a read answered before the end (a panel fetch still under way) cannot bring
// one back into "Turns in progress".
const finishedJobs = new Set();

function olderThan(job, known) {
  const a = Date.parse(job.updated_at || ""), b = Date.parse((known && known.updated_at) || "");
  return !Number.isNaN(a) && !Number.isNaN(b) && a < b;
}

const STANDING_ERROR = ["waiting", "queued", "failed"]; // statuses whose job error is current
const announced = new Map(); // job id -> the status:attempt pairs the announcer has said

function mergeJob(job) {
  if (!job || !job.id) return;
  const before = jobs.get(job.id);
  const finished = finishedJobs.has(job.id);
  // Once ended, only how it ended is news (a cancel's answer); before that, a view from before
  // the one shown is not.
  if (finished ? ACTIVE.includes(job.status) : olderThan(job, before)) return;
  cancelOutcome(job);
  if (ACTIVE.includes(job.status)) jobs.set(job.id, job);
  else { jobs.delete(job.id); finishedJobs.add(job.id); }
  // Each status is said once per attempt of a job: a replayed event, a panel read or a view
  // overtaken by an older one would otherwise say "Running" again; a new attempt is news.
  const said = announced.get(job.id) || new Set();
  const heard = `${job.status}:${job.attempt || 0}`;
  if (!finished && !said.has(heard)) {
    said.add(heard);
    announced.set(job.id, said);
    const label = t[job.status] || job.status;
    // The error is news while it stands (a retry waits, or the turn failed); a new run keeps
    // the last attempt's on the job, which is no longer what is happening.
    const why = STANDING_ERROR.includes(job.status) && job.error && job.error.message;
    // An active status holds while the job is still at it; how it ended is news.
    const attempt = job.attempt || 0;
    const stillTrue = ACTIVE.includes(job.status) ? () => {
      const now = jobs.get(job.id);
      return Boolean(now) && now.status === job.status && (now.attempt || 0) === attempt;
    } : null;
    // "Your action" only for the viewer's own; a GM hears whose action it is (or narration).
    const [own, of] = job.task === "narration" ? [t.job_status_narration, t.job_status_narration_of] : [t.job_status, t.job_status_of];
    const whose = !job.requester_id || ownJob(job) ? own : format(of, { who: requesterName(job) || t.a_player });
    announce(`${whose}: ${label}${why ? ` — ${job.error.message}` : ""}`, stillTrue);
  }
}

function renderJobs() {
  const list = document.getElementById("turn-jobs");
  const empty = document.getElementById("turn-jobs-empty");
  const active = [...jobs.values()].filter((j) => ACTIVE.includes(j.status))
    .sort((a, b) => String(a.created_at).localeCompare(String(b.created_at)));
  const keep = new Set(active.map((j) => j.id));
  let focusLost = false;
  for (const node of [...list.children]) {
    if (keep.has(node.dataset.job)) continue;
    focusLost = focusLost || node.contains(document.activeElement);
    node.remove();
  }
  // A row that had the focus (its Cancel) ended: the focus goes to where the next action is
  // written, not back to the top of the page.
  const composerBody = document.getElementById("composer-body");
  if (focusLost && composerBody && !composerBody.disabled) composerBody.focus();
  for (const job of active) {
    let item = list.querySelector(`li[data-job="${CSS.escape(job.id)}"]`);
    if (!item) {
      item = el("li", { class: "turn-job", "data-job": job.id });
      const cancel = el("button", { type: "button", class: "button button--small button--ghost turn-job__cancel" }, t.cancel);
      cancel.addEventListener("click", () => cancelJob(job.id, cancel));
      const text = String(job.text || "").trim();
      const who = requesterName(job);
      item.append(
        el("span", { class: "turn-job__status" }),
        el("span", { class: "turn-job__progress", "aria-hidden": "true" }),
        cancel,
        // What was asked and who asked it, so two queued turns can be told apart.
        text || who ? el("span", { class: "turn-job__action small" },
          who ? el("span", { class: "turn-job__who" }, text ? `${who}: ` : who) : null,
          text ? el("span", { class: "turn-job__text", title: text }, shorten(text, MAX_JOB_TEXT)) : null) : null,
        el("span", { class: "turn-job__detail small muted" }),
      );
      if (job.requester_id && !who) item.dataset.unnamed = "1";
      list.append(item);
    }
    item.dataset.status = job.status;
    setText(item.querySelector(".turn-job__status"), t[job.status] || job.status);
    const detail = [];
    // A waiting turn waits without a bound (the domain may have acted): no "attempt 9/9".
    if (job.attempt > 1 && job.status !== "waiting") detail.push(`${t.attempt} ${job.attempt}/${job.max_attempts}`);
    // Why it waits, or why it is queued again (a requeue keeps the error that sent it back).
    if (["waiting", "queued"].includes(job.status) && job.error && job.error.message) detail.push(job.error.message);
    setText(item.querySelector(".turn-job__detail"), detail.join(" · "));
    const cancel = item.querySelector("button");
    if (job.cancel_requested) { busy(cancel, true); cancel.textContent = t.cancelling; }
    nameCancel(cancel, job);
  }
  // Oldest first, the order they run in, on every page alike: rows are made in whatever order
  // their events arrive, so a row already there is moved to its place (only when out of it).
  active.forEach((job, index) => {
    const item = list.querySelector(`li[data-job="${CSS.escape(job.id)}"]`);
    if (list.children[index] !== item) list.insertBefore(item, list.children[index] || null);
  });
  empty.hidden = active.length > 0;
  // The timeline marks each action whose turn is listed here; a queued one offers there the
  // Cancel this list offers (every turn listed is one this viewer may cancel).
  document.dispatchEvent(new CustomEvent("room:turns", {
    detail: active.map((job) => ({
      message: job.trigger_message_id, label: t[job.status] || job.status, job: job.id,
      cancel: job.status === "queued" ? {
        text: job.cancel_requested ? t.cancelling : t.cancel,
        name: job.cancel_requested ? cancelLabelBusy(job) : cancelLabel(job),
        busy: Boolean(job.cancel_requested),
      } : null,
    })),
  }));
  clearStaleAnnouncement(); // every change of jobs or of the go is drawn through here
}

function ownJob(job) {
  return Boolean(viewer) && job.requester_id === viewer;
}

function requesterName(job) {
  // "You" for the viewer's own turns, else the member's name; nothing while the page does not
  // know it (a member who joined since it loaded is looked up).
  if (!job.requester_id) return "";
  if (ownJob(job)) return t.you;
  if (!members.has(job.requester_id)) learnMembers();
  return members.get(job.requester_id) || "";
}

// One lookup at a time, and not again for a while: an id it does not name (a member who left)
// would otherwise ask on every redraw.
let membersAsked = false;
function learnMembers() {
  const url = (readJson("room-config") || {}).membersUrl;
  if (membersAsked || !url) return;
  membersAsked = true;
  fetch(url, { credentials: "same-origin" })
    .then((r) => (r.ok ? r.json() : []))
    .then((list) => {
      let learned = false;
      for (const m of list) {
        if (!members.has(m.user_id)) { members.set(m.user_id, m.label); learned = true; }
      }
      if (!learned) return;
      // Rows drawn without their player's name are drawn again with it; the Cancel the reader
      // is on keeps the focus in its new row (removed, it would drop to the page's top), or,
      // the turn gone meanwhile, the focus goes to the message box as renderJobs does.
      const onRow = document.activeElement && document.activeElement.closest("#turn-jobs li[data-unnamed]");
      const focusedJob = onRow ? onRow.dataset.job : "";
      for (const item of document.querySelectorAll("#turn-jobs li[data-unnamed]")) item.remove();
      renderJobs();
      const again = focusedJob && document.querySelector(`#turn-jobs li[data-job="${CSS.escape(focusedJob)}"] button`);
      const composerBody = document.getElementById("composer-body");
      if (again) again.focus();
      else if (focusedJob && composerBody && !composerBody.disabled) composerBody.focus();
    })
    .catch(() => {})
    .finally(() => setTimeout(() => { membersAsked = false; }, 30000));
}

function cancelLabel(job) {
  const status = t[job.status] || job.status;
  const text = shorten(job.text, MAX_JOB_TEXT);
  if (!text) return `${t.cancel_label} (${status})`;
  if (ownJob(job)) return format(t.cancel_own, { text, status });
  const who = requesterName(job);
  return who ? format(t.cancel_other, { who, text, status }) : format(t.cancel_text, { text, status });
}

// Named by the words it shows (speech input says what is seen): "Cancel" and the turn it
// cancels, or, while busy cancelling, "Cancelling…" and that turn's words.
function nameCancel(button, job) {
  if (button.getAttribute("aria-disabled") !== "true") {
    button.setAttribute("aria-label", cancelLabel(job));
    return;
  }
  button.setAttribute("aria-label", cancelLabelBusy(job));
}

function cancelLabelBusy(job) {
  const text = shorten(job.text, MAX_JOB_TEXT);
  return text ? `${t.cancelling} ${text}` : t.cancelling;
}

// Busy, not disabled: disabling the focused button would throw keyboard focus to the page's top.
function busy(button, on) {
  if (on) button.setAttribute("aria-disabled", "true");
  else button.removeAttribute("aria-disabled");
}

async function cancelJob(id, button) {
  if (button.getAttribute("aria-disabled") === "true") return;
  busy(button, true);
  button.textContent = t.cancelling;
  if (jobs.has(id)) nameCancel(button, jobs.get(id));
  showJobsError("");
  cancelAsked.add(id);
  try {
    const res = await fetch(`${api}/jobs/${id}/cancel`, {
      method: "POST", credentials: "same-origin",
      headers: { "X-CSRFToken": csrfToken(), Accept: "application/json" },
    });
    const data = await res.json().catch(() => ({}));
    if (!res.ok) throw new Error((data.error && data.error.message) || t.cancel_failed);
    // Ended before the cancel reached it, or it ends later anyway: mergeJob says so.
    mergeJob(data);
    renderJobs();
  } catch (e) {
    cancelAsked.delete(id);
    busy(button, false);
    button.textContent = t.cancel;
    if (jobs.has(id)) nameCancel(button, jobs.get(id));
    showJobsError(e.message || t.cancel_failed);
    if (!button.closest("#turn-jobs")) button.dispatchEvent(new CustomEvent("room:cancel-failed", {
      bubbles: true, detail: { text: e.message || t.cancel_failed },
    }));
  }
}

// The timeline's Cancel beside a queued action (room.js draws it): the same request, the same
// "Cancelling…" while it is under way, and a refusal said beside it as well as in the list
// (on a phone the list is far below).
document.addEventListener("room:cancel-turn", (ev) => {
  const { job, button } = ev.detail || {};
  if (job && button) cancelJob(job, button);
});

// ---- dice ------------------------------------------------------------------------------------

const diceSeen = new Set();

function nameOf(id, named = "") {
  // The panel's current name first (it follows renames), then the one the roll was made with.
  return (id && names.get(id)) || named || id || "";
}

function attackTitle(item) {
  const who = [nameOf(item.dataset.attacker, item.dataset.attackerName),
    nameOf(item.dataset.target, item.dataset.targetName)].filter(Boolean).join(" → ");
  return `${item.dataset.label}${who ? ` · ${who}` : ""}`;
}

function relabelDice() {
  // Names come with the panel; dice replayed before it arrived showed ids until now.
  for (const item of document.querySelectorAll('#turn-dice li[data-dice="attack"]')) {
    setText(item.querySelector(".turn-roll__title"), attackTitle(item));
  }
}

function signedSum(addends) {
  // "3 + 4 - 1" for [3, 4, -1]. An addend may be { value, label }, the label a template that
  // names it ("%(roll)s (Bless)"): [8, { value: 3, label }, 4] reads "8 + 3 (Bless) + 4".
  return addends.map((addend, i) => {
    const value = typeof addend === "object" ? addend.value : addend;
    const said = (v) => (typeof addend === "object" ? format(addend.label, { roll: v }) : String(v));
    return i === 0 ? said(value) : value < 0 ? `- ${said(-value)}` : `+ ${said(value)}`;
  }).join(" ");
}

function d20Dice(natural, total, bless = null) {
  // A d20's arithmetic: the natural roll, Bless's d4 named where it adds, and the modifier that
  // makes the total if there is one: "d20 12 + 5", "d20 8 + 3 (Bless) + 4", "d20 8 + 3 (Bless)".
  const addends = [natural];
  if (typeof bless === "number") addends.push({ value: bless, label: t.bless_die });
  const modifier = total - natural - (typeof bless === "number" ? bless : 0);
  if (modifier !== 0) addends.push(modifier);
  return `d20 ${signedSum(addends)}`;
}

function d20Face(natural, total, named = t.roll_total) {
  // A d20 line's face: its natural roll on the d20's face; a line that carries none (a
  // monster's hides its modifier) shows its total on a flat tag, not drawn as a d20 (a "21" on
  // a d20 reads as impossible), which names it to a screen reader ("total 18", in the order
  // the page's pattern gives).
  if (natural === null) {
    const said = String(total ?? "?");
    const label = format(t.named_total, { what: named, total: said });
    return el("span", { class: "turn-roll__die turn-roll__die--total", role: "img", "aria-label": label, title: named }, said);
  }
  return el("span", { class: "turn-roll__die", "aria-hidden": "true", "data-natural": natural }, String(natural));
}

function rolledAs(mode, made) {
  // A roll's arithmetic and, if two d20s were rolled, which was kept: "d20 8 + 1 = 9 · with
  // disadvantage".
  return mode === "advantage" || mode === "disadvantage" ? format(t[`rolled_${mode}`], { roll: made }) : made;
}

function diceBreakdown(roll) {
  // What a roll adds to "expression = total": the kept dice and the modifier that make the
  // total ("3 + 4", "12 + 5") and any dice a keep dropped; "" when it adds nothing (a single
  // die). Rolls stored before the server sent addends show the domain's detail text instead.
  if (!Array.isArray(roll.addends)) {
    return roll.detail ? String(roll.detail).replace(/ => -?\d+$/, "") : "";
  }
  const parts = [];
  if (roll.addends.length > 1) parts.push(signedSum(roll.addends));
  if (roll.dropped && roll.dropped.length) parts.push(`${t.dropped} ${roll.dropped.join(", ")}`);
  return parts.join(", ");
}

function diceWords(expression) {
  // A keep in the rules' notation said as the table says it, as the timeline does: 4d6kh3 is
  // "4d6, drop lowest", 2d20kh1 "1d20 with advantage"; any other expression as it is.
  const term = /^(\d+)d(\d+)(k[hl])(\d+)((?:[+-]\d+)*)$/i.exec(String(expression));
  if (!term) return String(expression);
  const count = Number(term[1]);
  const kept = Number(term[4]);
  const highest = term[3].toLowerCase() === "kh";
  if (count === 2 && kept === 1) {
    return format(highest ? t.dice_advantage : t.dice_disadvantage, { dice: `1d${term[2]}${term[5]}` });
  }
  const dice = `${count}d${term[2]}${term[5]}`;
  if (kept === count - 1) return format(highest ? t.dice_drop_lowest : t.dice_drop_highest, { dice });
  return format(highest ? t.dice_keep_highest : t.dice_keep_lowest, { dice, n: kept });
}

// The viewer's own name as the room writes it in the timeline and "Here now" (the room page's
// "%(name)s (you)", in a translator's word order), split at the name: the words before it and
// after it.
const youName = (readJson("room-strings") || {}).youName || "%(name)s";
const [youBefore, youAfter] = youName.includes("%(name)s") ? youName.split("%(name)s", 2) : ["", ""];

function roller(roll) {
  // Who made a roll that names nobody itself: "Nia", or "Nia (you)" on her own page. One
  // unbreakable piece, the name cut short with an ellipsis when the column is too narrow for
  // it (hovered whole; a screen reader reads all of it): "(you)" never ends up on a line alone.
  if (!roll.by) return null;
  const mine = Boolean(roll.by_id) && roll.by_id === viewer;
  // No-break spaces: a space at the edge of a flex item's text is dropped.
  const you = (words) => (mine && words ? el("span", { class: "turn-roll__by-you" }, words.replace(/ /g, "\u00a0")) : null);
  return el("span", { class: "turn-roll__by", title: mine ? format(youName, { name: roll.by }) : roll.by },
    you(youBefore),
    el("span", { class: "turn-roll__by-name" }, roll.by),
    you(youAfter));
}

function diceItem(roll) {
  const item = el("li", { class: "turn-roll", "data-dice": roll.tool });
  if (roll.tool === "attack") {
    const outcome = roll.critical ? t.critical : roll.hit ? t.hit : t.miss;
    item.dataset.outcome = roll.hit ? "hit" : "miss";
    item.dataset.attacker = roll.attacker_id || "";
    item.dataset.target = roll.target_id || "";
    item.dataset.attackerName = roll.attacker_name || "";
    item.dataset.targetName = roll.target_name || "";
    item.dataset.label = roll.label || t.attack;
    // A monster's attack comes without its natural die (with the total it would give away the
    // attack bonus): the face then shows the total, drawn and named so as not to pass for a
    // natural d20 (a "21" on a d20 reads as impossible).
    const natural = roll.natural ?? null;
    const face = d20Face(natural, roll.total, t.attack_total);
    // An attack with its natural die says how its total was made, as a check's line does
    // ("d20 12 + 5 = 17"), Bless's d4 named in it: the d4 is why it hit where the d20 and the
    // bonus alone would have missed.
    const made = natural !== null && typeof roll.total === "number"
      ? `${d20Dice(natural, roll.total, roll.bless)} = ${roll.total}`
      : String(roll.total ?? "?");
    item.append(
      face,
      el("span", { class: "turn-roll__body" },
        el("span", { class: "turn-roll__title" }, attackTitle(item)),
        el("span", { class: "turn-roll__line" },
          // "17 · hit", as a save's "17 · DC 15 success": "17 to hit hit" said the word twice.
          `${made} · `,
          roll.mode === "advantage" || roll.mode === "disadvantage" ? `${t[`with_${roll.mode}`]} ` : "",
          el("strong", { class: "turn-roll__outcome" }, outcome),
          roll.damage !== null && roll.damage !== undefined ? `, ${roll.damage} ${roll.damage_type || ""} ${t.damage}`.trimEnd() : "")),
    );
  } else if ((roll.dc !== undefined && roll.dc !== null) || roll.tool === "ability_check") {
    // A check with no DC (the GM compares its total, a Stealth roll with the watchers'
    // Perception) has no outcome to show: only the roll and, if two d20s were rolled, how.
    const judged = roll.dc !== undefined && roll.dc !== null;
    if (judged) item.dataset.outcome = roll.success ? "hit" : "miss";
    // As attacks: the natural d20 on the die and the total it makes beside it; a line that
    // carries no natural roll (a monster's hides its modifier) shows the total on a face not
    // drawn as a d20 (a "21" on a d20 reads as impossible).
    const natural = typeof roll.natural === "number" ? roll.natural : null;
    const face = d20Face(natural, roll.total);
    const made = natural === null || typeof roll.total !== "number"
      ? String(roll.total ?? "?")
      : `${d20Dice(natural, roll.total, roll.bless)} = ${roll.total}`;
    item.append(
      face,
      el("span", { class: "turn-roll__body" },
        el("span", { class: "turn-roll__title" }, sentenceCase(roll.label || t.roll)),
        // Two d20s, one kept, said where an attack's line says it: before the outcome.
        judged
          ? el("span", { class: "turn-roll__line" }, `${made} · ${t.dc} ${roll.dc} `,
            roll.mode === "advantage" || roll.mode === "disadvantage" ? `${t[`with_${roll.mode}`]} ` : "",
            el("strong", { class: "turn-roll__outcome" }, roll.success ? t.success : t.failure),
            // Failed whatever was rolled: why, as the narration says it.
            roll.automatic_failure ? `: ${roll.automatic_failure}` : "",
            // A concentration save failed: the spell it ends ("Shield of Faith ends").
            roll.ends ? ` · ${roll.ends}` : "")
          : el("span", { class: "turn-roll__line" }, rolledAs(roll.mode, made))),
    );
  } else if (roll.tool === "combat_start") {
    // An initiative is a DEX check, and reads as a check's line with no DC: the natural d20 on
    // its face, "d20 14 + 2 = 16" beside it. A line with no natural roll (a monster's hides its
    // modifier; one stored before the roll was said) has its total on the flat tag, and a line
    // under the title only when two d20s were rolled ("9 · with disadvantage", as its check's).
    const natural = typeof roll.natural === "number" ? roll.natural : null;
    const rolled = natural !== null && typeof roll.total === "number";
    const twoDice = roll.mode === "advantage" || roll.mode === "disadvantage";
    const made = rolled
      ? rolledAs(roll.mode, `${d20Dice(natural, roll.total)} = ${roll.total}`)
      : twoDice ? rolledAs(roll.mode, String(roll.total ?? "?")) : null;
    item.append(
      d20Face(rolled ? natural : null, roll.total),
      el("span", { class: "turn-roll__body" },
        el("span", { class: "turn-roll__title" }, sentenceCase(roll.label || t.roll)),
        made === null ? null : el("span", { class: "turn-roll__line" }, made)),
    );
  } else {
    const breakdown = diceBreakdown(roll);
    item.append(
      el("span", { class: "turn-roll__die", "aria-hidden": "true" }, String(roll.total ?? "?")),
      el("span", { class: "turn-roll__body" },
        // The line already says the expression: the title is the label (the tools give some in
        // lower case, "luck"), else just "Roll", and who rolled (everyone's rolls share the list).
        el("span", { class: "turn-roll__title" }, sentenceCase(roll.label || t.roll), ...(roll.by ? [" · ", roller(roll)] : [])),
        el("span", { class: "turn-roll__line" },
          // A blessed death save: its d20 and d4 make the total (10 or more succeeds).
          roll.tool === "death_save" && typeof roll.bless === "number" && typeof roll.total === "number"
            ? `${d20Dice(roll.total - roll.bless, roll.total, roll.bless)} = `
            : roll.expression ? `${diceWords(roll.expression)} = ` : "",
          el("strong", {}, String(roll.total ?? "")),
          breakdown ? el("span", { class: "muted turn-roll__detail" }, ` (${breakdown})`) : null,
          // The odds the oracle was asked at, worded by the server as its reply says them; an
          // answer stored without them has no such part.
          roll.odds ? el("span", { class: "muted turn-roll__detail" }, ` (${roll.odds})`) : null,
          // The oracle's answer, as the narration says it ("YES, BUT"); any other result (a
          // death save's "success") in the same words as checks and attacks.
          roll.result ? el("strong", { class: "turn-roll__outcome" }, ` ${roll.tool === "oracle_ask" ? String(roll.result).toUpperCase() : roll.result}`) : null)),
    );
  }
  return item;
}

function diceAfter(list, sequence) {
  // Newest first, ordered by timeline sequence even if a replay arrives late: the first item
  // of an older entry, which a new one goes before.
  for (const node of list.children) {
    if (Number(node.dataset.sequence) < sequence) return node;
  }
  return null;
}

function renderDice(sequence, dice, audience) {
  if (diceSeen.has(sequence)) return; // replays after a reconnect carry the same entries
  diceSeen.add(sequence);
  const list = document.getElementById("turn-dice");
  for (const roll of dice) {
    const item = diceItem(roll);
    item.dataset.sequence = String(sequence);
    if (audience === "gm") {
      // Only GMs get these: marked as the timeline marks them, so a secret is not read out.
      item.dataset.audience = "gm";
      item.querySelector(".turn-roll__title").after(
        el("span", { class: "badge badge--gm turn-roll__audience" }, t.gm_only));
    }
    list.insertBefore(item, diceAfter(list, sequence));
  }
  // A fight's initiative opens it: the list marks where it started, so rolls of an earlier
  // fight under a reused name ("Goblin 2") are not read as this one's. Below the entry's
  // rolls, the newest being first.
  if (dice.some((roll) => roll.tool === "combat_start")) {
    const mark = el("li", { class: "turn-dice__combat", "data-sequence": sequence }, t.dice_combat_started);
    list.insertBefore(mark, diceAfter(list, sequence));
  }
  while (list.querySelectorAll(".turn-roll").length > MAX_DICE) list.lastElementChild.remove();
  document.getElementById("turn-dice-empty").hidden = list.children.length > 0;
  foldDice(list);
  labelDiceMore();
}

const DICE_FOLDED = 5; // rolls shown on narrow screens until "Show all" (the CSS hides the rest)

function foldDice(list) {
  // Marks the rows past the newest DICE_FOLDED rolls. A fight's mark is no roll: it counts for
  // nothing, and shows with the initiative rolls it sits under (a mark alone, below rolls
  // that are hidden, would say nothing of them).
  let rolls = 0;
  let shown = true; // whether the roll above shows
  for (const node of list.children) {
    if (node.classList.contains("turn-roll")) {
      rolls += 1;
      shown = rolls <= DICE_FOLDED;
    }
    node.classList.toggle("is-folded", !shown);
  }
}

function labelDiceMore() {
  const more = document.getElementById("turn-dice-more");
  const list = document.getElementById("turn-dice");
  if (!more || !list) return;
  const expanded = list.classList.contains("is-expanded");
  const rolls = list.querySelectorAll(".turn-roll").length; // not the marks between fights
  more.hidden = rolls <= DICE_FOLDED;
  more.setAttribute("aria-expanded", String(expanded));
  setText(more, expanded ? t.dice_fewer : format(t.dice_more, { n: rolls }));
}

const diceMore = document.getElementById("turn-dice-more");
if (diceMore) {
  diceMore.addEventListener("click", () => {
    document.getElementById("turn-dice").classList.toggle("is-expanded");
    labelDiceMore();
  });
}

// ---- wiring ----------------------------------------------------------------------------------

// Hides `node`; the keyboard focus on something in it would drop to the top of the page, so it
// goes where the next action is written (as when a job's Cancel goes).
function hideKeepingFocus(node, hidden) {
  const had = hidden && !node.hidden && node.contains(document.activeElement);
  node.hidden = hidden;
  const composerBody = document.getElementById("composer-body");
  if (had && composerBody && !composerBody.disabled) composerBody.focus();
}

function renderCreate(panel) {
  // "Create a character" only while the campaign's phase allows it (D&D 5e: not in combat).
  if (!card || typeof panel.character_creation_open !== "boolean") return;
  const open = card.querySelector("[data-create-open]");
  const closed = card.querySelector("[data-create-closed]");
  if (!open || !closed) return; // only a player's card offers it
  hideKeepingFocus(open, !panel.character_creation_open);
  closed.hidden = panel.character_creation_open;
  if (!panel.character_creation_open) setText(closed, format(t.create_closed, { phase: phaseLabel(panel.phase).toLowerCase() }));
}

function phaseLabel(phase) {
  // As Campaign.phase_label says it: translated, else the code as words.
  if (!phase) return "";
  const words = phase.replace(/_/g, " ");
  return t["phase_" + phase] || words.charAt(0).toUpperCase() + words.slice(1);
}

function renderPhase(phase) {
  const badge = document.querySelector("#phase-panel .badge--phase");
  if (badge && phase) setText(badge, phaseLabel(phase));
}

const fallenTried = new Set(); // characters "Act as" moved off, dead, before the player picked

function actAsTheLiving(character) {
  // Until the player picks, "Act as" moves off a dead character to the next of theirs (each
  // looked at once: if all have fallen, the last stays, with the way to a new one).
  if (!actingAs || actingPicked || !character || character.id !== actingAs.value) return;
  if (character.error || !isDead(character)) return;
  fallenTried.add(character.id);
  const next = [...actingAs.options].map((o) => o.value).find((id) => !fallenTried.has(id));
  if (next) {
    actingAs.value = next;
    refresh(); // its card
  }
}

function render(panel) {
  // A refresh that works clears its own failure, never what a cancel just reported (the
  // refresh a room:job starts often comes back after the cancel's answer).
  if (jobsError === "unavailable") showJobsError("");
  renderCharacter(panel.character, panel.audience);
  actAsTheLiving(panel.character);
  renderCreate(panel);
  renderCombat(panel.panels || {});
  // The room's suggestions last as long as the turn they were for: the turn as their event
  // names it (the round and whose turn it is in combat, none outside it).
  const combat = panel.panels && panel.panels.combat && panel.panels.combat.data && panel.panels.combat.data.combat;
  const fighting = Boolean(combat) && Array.isArray(combat.order);
  document.dispatchEvent(new CustomEvent("room:turn", { detail: {
    revision: panel.authority_revision, phase: panel.phase,
    round: fighting ? combat.round ?? null : null, combatant: fighting ? combat.current ?? null : null,
    // An action of the viewer's still running: its answer may bring the turn new options.
    acting: (panel.jobs || []).some((job) => ownJob(job) && ACTIVE.includes(job.status)),
  } }));
  renderStory(panel.panels || {});
  renderPhase(panel.phase);
  relabelDice();
  const fresh = new Set();
  const listed = panel.jobs || [];
  for (const job of listed) { fresh.add(job.id); mergeJob(job); }
  // The panel lists the oldest active jobs this viewer may see: any other one up to the last
  // listed has finished; a newer one may only be past the list's end.
  const newest = listed.length ? String(listed[listed.length - 1].created_at) : "";
  const more = document.getElementById("turn-jobs-more");
  if (more) more.hidden = !panel.jobs_has_more;
  for (const [id, job] of [...jobs.entries()]) {
    if (fresh.has(id)) continue;
    if (panel.jobs_has_more && String(job.created_at) > newest) continue;
    // Shown as it was after the panel was read (an event overtook a fetch): not ended.
    if (olderThan({ updated_at: panel.jobs_read_at }, job)) continue;
    // Ended: a view from before the end (a cancel's answer still on its way) cannot bring it
    // back; how it ended still can be told.
    jobs.delete(id);
    finishedJobs.add(id);
    if (cancelAsked.has(id)) settleCancelled(id);
  }
  renderJobs();
}

document.addEventListener("room:event", (ev) => {
  if (ended) return;
  const frame = ev.detail || {};
  if (frame.type === "event") {
    if (frame.event_type === "turn.job") { mergeJob(frame.payload); renderJobs(); }
    if (frame.event_type === "state.changed" || frame.event_type === "turn.job") refresh();
  } else if (frame.type === "entry" && frame.entry && String(frame.entry.event_type || "").startsWith("turn.")) {
    const dice = (frame.entry.data && frame.entry.data.dice) || [];
    if (dice.length) renderDice(frame.entry.sequence, dice, frame.entry.audience);
  }
});

function endAccess() {
  // Removed (or signed out): stop refreshing, and show nothing this viewer may no longer see.
  if (ended) return;
  ended = true;
  clearTimeout(retryTimer);
  again = false;
  jobs.clear();
  cancelAsked.clear();
  showJobsError("");
  if (document.getElementById("turn-jobs")) renderJobs();
  clearStaleAnnouncement(); // the viewer's go is over too
  if (card) for (const node of card.children) node.hidden = true;
  const combat = document.getElementById("turn-combat");
  if (combat) {
    combat.hidden = true;
    document.getElementById("turn-order").replaceChildren();
    document.getElementById("turn-opportunity").hidden = true;
    document.getElementById("turn-opportunity-list").replaceChildren();
    document.getElementById("turn-map").hidden = true;
    const grid = document.getElementById("turn-grid");
    grid.hidden = true;
    grid.removeAttribute("src");
  }
  for (const id of ["turn-scene", "turn-clocks", "turn-facts", "turn-threads"]) {
    const section = document.getElementById(id);
    if (!section) continue;
    section.hidden = true;
    const list = section.querySelector("[data-list]");
    if (list) list.replaceChildren();
  }
}

document.addEventListener("room:access-ended", endAccess);
// The timeline's note of the same too-late cancel went (the turn's answer came): so does this.
document.addEventListener("room:cancel-note-gone", (ev) => {
  if (jobsError === "cancel" && lateJob && ev.detail && ev.detail.job === lateJob) showJobsError("");
});
document.addEventListener("room:caught-up", () => {
  if (ended) return;
  // The replay is in: a list still empty has no rolls to show (said only now, not while loading).
  const empty = document.getElementById("turn-dice-empty");
  if (empty) empty.hidden = document.getElementById("turn-dice").children.length > 0;
  // State changes and job events sent before the socket joined the room were missed.
  refresh();
});

document.addEventListener("room:job", (ev) => {
  if (ended) return;
  // The viewer acts again: a note about cancelling an earlier turn no longer describes what
  // is happening (a cancel still under way says so again when its turn ends).
  if (jobsError === "cancel") showJobsError("");
  mergeJob(ev.detail);
  renderJobs();
  refresh();
});

if (root) refresh();
if (actingAs) {
  actingAs.addEventListener("change", () => {
    actingPicked = true; // the page sets the value without an event when it chooses
    refresh();
  });
}
