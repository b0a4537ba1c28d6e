// Turn panels: job progress with cancel, dice, character card, initiative with HP bars and the
// rendered grid. Data comes per viewer from the panel API; room.js dispatches every websocket
// frame of type "event" (and "entry") as a `room:event` CustomEvent on document.
const root = document.getElementById("turn-panels");
const card = document.getElementById("turn-character");
const t = JSON.parse(document.getElementById("turn-strings").textContent);

function csrfToken() {
  const m = document.cookie.match(/(?:^|; )csrftoken=([^;]+)/);
  return m ? decodeURIComponent(m[1]) : "";
}

function el(tag, attrs = {}, text = "") {
  const node = document.createElement(tag);
  for (const [k, v] of Object.entries(attrs)) node.setAttribute(k, v);
  if (text !== "") node.textContent = text;
  return node;
}

const campaign = root ? root.dataset.campaign : null;
const api = `/api/campaigns/${campaign}/room`;
let loading = null;
let again = false;

async function refresh() {
  // Coalesce bursts of state.changed into one request at a time, plus one trailing refresh.
  if (loading) { again = true; return; }
  loading = fetch(`${api}/panel`, { credentials: "same-origin" });
  try {
    const res = await loading;
    if (res.ok) render(await res.json());
  } finally {
    loading = null;
    if (again) { again = false; refresh(); }
  }
}

function hpBar(character) {
  const wrap = el("span", { class: "turn-hp" });
  if (character.hp) {
    const meter = el("meter", { min: "0", max: String(character.hp.max), value: String(character.hp.current),
      "aria-label": `${character.hp.current}/${character.hp.max}` });
    wrap.append(meter, el("span", { class: "turn-hp__text", "data-hp": "" }, ` ${character.hp.current}/${character.hp.max}`));
  } else {
    // Players never get monster HP numbers: the domain sends only a status word.
    wrap.append(el("span", { class: "badge", "data-status": "" }, character.status || ""));
  }
  return wrap;
}

function renderCombat(panels) {
  const section = document.getElementById("turn-combat");
  const data = panels.combat && panels.combat.data && panels.combat.data.combat;
  if (!data) { section.hidden = true; return; }
  section.hidden = false;
  section.querySelector('[data-field="round"]').textContent = `(${t.round} ${data.round})`;
  const list = document.getElementById("turn-order");
  list.replaceChildren();
  for (const entry of data.order) {
    const c = entry.character;
    const item = el("li", { "data-id": entry.id, class: entry.id === data.current ? "is-current" : "" });
    item.append(el("span", { class: "turn-init" }, String(entry.initiative)), " ",
      el("span", { class: "turn-name" }, c.name || entry.id), " ", hpBar(c));
    if (entry.id === data.current) item.setAttribute("aria-current", "step");
    list.append(item);
  }
  const grid = document.getElementById("turn-grid");
  const images = panels.grid && panels.grid.data && panels.grid.data.images;
  if (images && images.length) { grid.src = images[0].url; grid.hidden = false; } else { grid.hidden = true; }
}

function renderCharacter(character) {
  if (!card) return;
  const stats = card.querySelector("dl");
  const empty = card.querySelector("[data-empty]");
  if (!character || character.error) { stats.hidden = true; empty.hidden = false; return; }
  stats.hidden = false; empty.hidden = true;
  stats.querySelector('[data-field="name"]').textContent = character.name || character.id;
  if (character.hp) {
    const meter = stats.querySelector('[data-field="hp"]');
    meter.max = character.hp.max; meter.value = character.hp.current;
    stats.querySelector('[data-field="hp-text"]').textContent = `${character.hp.current}/${character.hp.max}`;
  }
  stats.querySelector('[data-field="ac"]').textContent = character.ac ?? "";
  stats.querySelector('[data-field="conditions"]').textContent = (character.conditions || []).join(", ");
}

function renderJobs(jobs) {
  const list = document.getElementById("turn-jobs");
  list.replaceChildren();
  for (const job of jobs) {
    if (!["queued", "running", "waiting"].includes(job.status)) continue;
    const item = el("li", { "data-job": job.id, "data-status": job.status });
    item.append(el("span", { class: "badge" }, t[job.status] || job.status), " ");
    if (job.status === "running") item.append(el("progress", { "aria-label": t.running }));
    const cancel = el("button", { type: "button", class: "btn btn--small" }, t.cancel);
    cancel.disabled = job.cancel_requested;
    cancel.addEventListener("click", async () => {
      cancel.disabled = true;
      await fetch(`${api}/jobs/${job.id}/cancel`, { method: "POST", credentials: "same-origin",
        headers: { "X-CSRFToken": csrfToken() } });
      refresh();
    });
    item.append(" ", cancel);
    list.append(item);
  }
}

function render(panel) {
  renderCombat(panel.panels || {});
  renderCharacter(panel.character);
  renderJobs(panel.jobs || []);
}

function renderDice(dice) {
  const list = document.getElementById("turn-dice");
  for (const roll of dice) {
    let text = "";
    if (roll.tool === "attack") {
      text = `${roll.label}: d20 ${roll.natural} → ${roll.total} (${roll.hit ? t.hit : t.miss})`;
      if (roll.damage !== null && roll.damage !== undefined) text += `, ${roll.damage} ${roll.damage_type || ""}`;
    } else if (roll.detail) {
      text = `${roll.label ? roll.label + ": " : ""}${roll.detail}`;
    } else {
      text = `${roll.label}: ${roll.total}${roll.dc ? ` / DC ${roll.dc}` : ""}`;
    }
    list.prepend(el("li", { "data-dice": roll.tool }, text));
  }
  while (list.children.length > 10) list.lastElementChild.remove();
}

document.addEventListener("room:event", (ev) => {
  const frame = ev.detail || {};
  if (frame.type === "event" && (frame.event_type === "state.changed" || frame.event_type === "turn.job")) {
    refresh();
  } else if (frame.type === "entry" && frame.entry.event_type === "turn.narration") {
    const dice = (frame.entry.data && frame.entry.data.dice) || [];
    if (dice.length) renderDice(dice);
  }
});

if (root) refresh();
