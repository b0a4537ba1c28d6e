// Live room: websocket with resume-by-sequence, exponential backoff + jitter, dedupe by
// sequence, optimistic "pending" bubbles for messages being posted.
import { language as pageLanguage, localMoment, writeMoment } from "./moments.js";
import { sentenceCase } from "./text.js";

const config = JSON.parse(document.getElementById("room-config").textContent);
const t = JSON.parse(document.getElementById("room-strings").textContent);
const timeline = document.getElementById("timeline");
const empty = document.getElementById("timeline-empty");
// Only in a room with entries for this viewer, until the socket's replay brings them.
const loading = document.getElementById("timeline-loading");
const statusEl = document.getElementById("room-status");
const roomEl = document.getElementById("room");
const presenceEl = document.getElementById("presence");
const form = document.getElementById("composer");

const seen = new Set(); // sequences already rendered
const pending = new Map(); // client message id -> {li, payload}
let lastSeq = 0; // highest sequence rendered (also from POST replies): the read marker
// Highest sequence the socket has covered: the ?after= resume point. Only socket frames move
// it; a POST reply may be ahead of entries others posted while the socket was down.
// The page opens on the newest entries (config.startAfter); older ones load on request.
let resumeAfter = config.startAfter || 0;
// A link to one entry ("#entry-<sequence>", as the usage page's ledger makes) opens the room
// there: older than the newest entries, the replay starts a few entries before it instead,
// and once caught up it is marked and scrolled into view.
const linked = /^#entry-(\d+)$/.exec(location.hash);
let target = linked ? Number(linked[1]) : 0;
const TARGET_CONTEXT = 5; // entries shown above the linked one
if (target && target <= resumeAfter) resumeAfter = Math.max(0, target - TARGET_CONTEXT - 1);
let oldestShown = resumeAfter + 1; // "Load earlier" asks for entries before this sequence
let maxRendered = 0; // highest sequence in the timeline: newer entries append without a scan
let live = false; // past the first catch-up: a replayed suggestion is held until then (held)
// Suggestions are for one turn (their event's `turn`: revision, phase, round, combatant). The
// panels' newest read of the turn (room:turn) says whether it has passed, and whether an
// action of the viewer's is still running (acting).
let lastTurn = null;
let offered = null; // {items, turn}: the suggestions for the viewer's turn, until it passes
// While the viewer's own action runs its answer may bring others: the turn's are hidden, and
// shown again if it brings none and the turn is still on.
let acting = false;
// Suggestions waiting for a read of their turn: the viewer's newest in a replay (a page opened
// during their turn), acted on since or not.
let held = null;
let socket = null;
let attempt = 0;
let stopped = false;
let watchdog = null;
let heartbeatMs = 20000;

// The campaign's name in the heading and the tab's title: a rename is announced to the room
// with its revision, so of two announcements that cross the newer one stays.
const titleEl = document.getElementById("room-title");
let nameRevision = Number(titleEl.dataset.nameRevision) || 0;
// While the tab is in the background its title counts what others wrote meanwhile, so a
// player waiting in another tab sees that something came.
let pageTitle = document.title;
let unseen = 0;
function showTitle() {
  document.title = unseen ? `(${unseen}) ${pageTitle}` : pageTitle;
}
function showCampaignName(name, revision) {
  if (typeof name !== "string" || !(revision > nameRevision)) return;
  nameRevision = revision;
  titleEl.textContent = name;
  pageTitle = fill(titleEl.dataset.documentTitle, { name });
  showTitle();
}

// Names listed as the page's language lists them ("A, B and C"), in its alphabetical order,
// the viewer ("you") first.
const listFormat = new Intl.ListFormat(pageLanguage, { style: "long", type: "conjunction" });
const collator = new Intl.Collator(pageLanguage);
const choiceFormat = new Intl.ListFormat(pageLanguage, { style: "long", type: "disjunction" }); // "A, B, or C"
function recipientNames(recipients, mine) {
  const others = recipients.filter((r) => r.id !== config.userId).map((r) => r.name).sort(collator.compare);
  return listFormat.format(mine ? [t.you, ...others] : others);
}

// A private message's badge, in sentence case as the mode badges are ("Private: Pat", "Private:
// you"). A translation may open it with the names instead: then the viewer's "you" leading
// them takes the capital, a member's name keeps the case its owner gave it.
function privateBadge(recipients) {
  const mine = recipients.some((r) => r.id === config.userId); // the viewer is a recipient
  const names = recipientNames(recipients, mine);
  if (!names) return sentenceCase(t.private);
  const opensWithNames = t.privateTo.startsWith("%(names)s");
  return fill(sentenceCase(t.privateTo), { names: mine && opensWithNames ? sentenceCase(names) : names });
}

// Access to this room ended (removed, another account, signed out): the panels stop asking for
// what this viewer may no longer see, and clear what they show.
function endAccess() {
  document.dispatchEvent(new CustomEvent("room:access-ended"));
}

function setState(state, text) {
  roomEl.dataset.state = state;
  // Shut out for good, the page loads nothing more: its opening notice would say otherwise.
  if (state === "closed" && loading) loading.hidden = true;
  // A live region: setting the same words again (each reconnect try) would say them again.
  if (statusEl.textContent !== text) statusEl.textContent = text;
}

function csrfToken() {
  const m = document.cookie.match(/(?:^|; )csrftoken=([^;]+)/);
  return m ? decodeURIComponent(m[1]) : "";
}

function newId() {
  if (crypto.randomUUID) return crypto.randomUUID();
  return "m-" + Date.now().toString(36) + "-" + Math.random().toString(36).slice(2, 12);
}

// A pattern from the view ("%(name)s (you)") filled in: translators choose the word order.
function fill(pattern, values) {
  return pattern.replace(/%\((\w+)\)s/g, (whole, key) => (key in values ? String(values[key]) : whole));
}

function badge(text, cls) {
  const b = document.createElement("span");
  b.className = "badge " + (cls || "");
  b.textContent = text;
  return b;
}

// Who runs the game, as the view names it: the roles that do, for an entry that says the role
// it was sent in; the members holding one as the page loaded, for an entry that does not (older
// ones, and the viewer's own while it is sending).
const gameMasterRoles = new Set(config.gameMasterRoles);
const gameMasters = new Set(config.gameMasters);

function saidAsGm(entry) {
  const role = entry.data && entry.data.sender_role;
  return role ? gameMasterRoles.has(role) : gameMasters.has(entry.sender.id);
}

const NARRATION_EVENT = "turn.narration";
const OUTCOME_EVENT = "turn.outcome";

// Actions whose turn is still in progress (message id -> its turn: status's name, job, and the
// Cancel a queued one offers), as the panels' "Turns in progress" lists them: marked beside the
// action, where its sender is looking (on a phone the panel is far below). Said by the panels'
// own announcer, not again with the entry.
let turnsInProgress = new Map();

function turnMark(label) {
  const mark = badge(label, "badge--turn");
  mark.classList.add("entry__turn");
  return mark;
}

// A queued turn's Cancel beside its mark: the panels send the request (as their own Cancel does)
// and say how it went. Gone once the turn runs: then only the panel's Cancel asks it to stop.
function drawTurnCancel(li, turn) {
  let button = li.querySelector(".entry__cancel");
  const cancel = turn && turn.cancel;
  if (!cancel) {
    if (button) {
      const hadFocus = button.contains(document.activeElement);
      button.remove();
      // Its turn ended or ran: the focus goes to where the next action is written, not to the
      // top of the page.
      const composerBody = document.getElementById("composer-body");
      if (hadFocus && composerBody && !composerBody.disabled) composerBody.focus();
    }
    return;
  }
  if (!button) {
    button = document.createElement("button");
    button.type = "button";
    button.className = "button button--small button--ghost entry__cancel";
    button.addEventListener("click", () => {
      const error = li.querySelector(".entry__cancel-error");
      if (error) error.remove();
      document.dispatchEvent(new CustomEvent("room:cancel-turn", { detail: { job: button.dataset.job, button } }));
    });
    li.querySelector(".entry__turn").after(button);
  }
  button.dataset.job = turn.job;
  if (cancel.busy) button.setAttribute("aria-disabled", "true");
  if (button.textContent !== cancel.text) button.textContent = cancel.text;
  button.setAttribute("aria-label", cancel.name);
}

// A too-late cancel's note stands until the turn's answer is in the timeline, which says what
// happened instead; with the answer there already, it stays long enough to be read.
const answeredJobs = new Set(); // turns whose narration or outcome this page has shown
const LATE_NOTE_MS = 8000;

function lateNotesAnswered(entry) {
  const job = entry.kind === "event" && entry.data && entry.data.job_id;
  if (!job || (entry.event_type !== NARRATION_EVENT && entry.event_type !== OUTCOME_EVENT)) return;
  answeredJobs.add(String(job));
  for (const note of timeline.querySelectorAll(`.entry__cancel-error[data-job="${CSS.escape(String(job))}"]`)) lateNoteGone(note);
}

function lateNoteGone(note) {
  note.remove();
  // "Turns in progress" said the same: it goes there too.
  document.dispatchEvent(new CustomEvent("room:cancel-note-gone", { detail: { job: note.dataset.job } }));
}

// A cancel refused, or too late (the turn ended first): said beside the action as well.
document.addEventListener("room:cancel-failed", (ev) => {
  const { message, job, text } = ev.detail || {};
  const li = message
    ? timeline.querySelector(`li[data-message="${CSS.escape(message)}"]`)
    : ev.target.closest && ev.target.closest("li[data-message]");
  if (!li || !text) return;
  let error = li.querySelector(".entry__cancel-error");
  if (!error) {
    error = document.createElement("p");
    error.className = "entry__cancel-error form-error small";
    error.setAttribute("role", "alert");
    li.appendChild(error);
  }
  error.textContent = text;
  if (!job) {
    delete error.dataset.job;
    return;
  }
  error.dataset.job = job;
  if (answeredJobs.has(String(job))) {
    setTimeout(() => { if (error.isConnected && error.dataset.job === String(job)) lateNoteGone(error); }, LATE_NOTE_MS);
  }
});

document.addEventListener("room:turns", (ev) => {
  const now = new Map((ev.detail || []).map((turn) => [turn.message, turn]));
  for (const li of timeline.querySelectorAll("li[data-message]")) {
    const turn = now.get(li.dataset.message);
    const mark = li.querySelector(".entry__turn");
    if (!turn) {
      if (!mark) continue;
      drawTurnCancel(li, null);
      mark.remove();
      // Its turn ended: a refused cancel's words no longer hold (a too-late one comes after).
      const error = li.querySelector(".entry__cancel-error");
      if (error) error.remove();
      continue;
    }
    if (!mark) li.querySelector(".entry__head").insertBefore(turnMark(turn.label), li.querySelector(".entry__time"));
    else if (mark.textContent !== turn.label) mark.textContent = turn.label;
    drawTurnCancel(li, turn);
  }
  turnsInProgress = now;
});

// An entry's words, drawn as written but for one structure: a run of lines starting with "- ",
// "* " or "• " is a bulleted list (as a game master's help, or a model's answer, sets out its
// points), and a line ending with ":" just before it is its caption. The same for everyone's
// words, a player's too, so what one types is what the table reads. Text nodes only: a body is
// anyone's words, never markup. Words without such a line stay one paragraph, breaks kept.
const LIST_ITEM = /^[ \t]*[-*•] +(\S.*)$/;
// A bullet with no words: inside a list, a blank line of it (as a model leaves one), not words.
const BARE_ITEM = /^[ \t]*[-*•][ \t]*$/;

function entryBody(text) {
  const written = text == null ? "" : String(text);
  const lines = written.split(/\r?\n/);
  if (!lines.some((line) => LIST_ITEM.test(line))) {
    const body = document.createElement("p");
    body.className = "entry__body";
    body.textContent = written;
    return body;
  }
  const body = document.createElement("div");
  body.className = "entry__body entry__body--blocks";
  const block = (tag, cls, words) => {
    const el = document.createElement(tag);
    el.className = cls;
    el.textContent = words;
    body.append(el);
    return el;
  };
  let prose = [];
  let list = null;
  // The words between lists: a paragraph for each run of lines between blank ones.
  const flushProse = () => {
    for (const para of prose.join("\n").split(/\n[ \t]*(?:\n[ \t]*)+/)) {
      const words = para.replace(/^(?:[ \t]*\n)+/, "").replace(/(?:\n[ \t]*)+$/, "");
      if (words.trim()) block("p", "entry__para", words);
    }
    prose = [];
  };
  for (const line of lines) {
    const item = LIST_ITEM.exec(line);
    if (!item) {
      const inList = list && !prose.some((l) => l.trim());
      prose.push(inList && BARE_ITEM.test(line) ? "" : line);
      continue;
    }
    // Items apart only by blank lines stay one list; any words between them end it.
    if (!list || prose.some((l) => l.trim())) {
      const last = prose.length ? prose[prose.length - 1].trim() : "";
      const caption = last.endsWith(":") ? prose.pop().trim() : "";
      flushProse();
      if (caption) block("p", "entry__caption", caption);
      list = block("ul", "entry__list", "");
    }
    prose = [];
    const li = document.createElement("li");
    li.textContent = item[1];
    list.append(li);
  }
  flushProse();
  return body;
}

// A sentence of ours after an entry's words (a failure's recovery): it ends the last paragraph,
// or is a paragraph of its own after a list, not words of the list's last item.
function addSentence(body, sentence) {
  const last = body.classList.contains("entry__body--blocks") ? body.lastElementChild : body;
  if (last && last.tagName === "P") {
    last.textContent = [last.textContent.trimEnd(), sentence].filter(Boolean).join(" ");
    return;
  }
  const para = document.createElement("p");
  para.className = "entry__para";
  para.textContent = sentence;
  body.append(para);
}

// An entry's words as a screen reader hears them in one announcement: a list's items one
// after another, ended as a sentence, so they are not run into the words after it.
function spokenBody(body) {
  if (!body.classList.contains("entry__body--blocks")) return body.textContent;
  return [...body.children].map((block) => {
    if (block.tagName !== "UL") return block.textContent;
    const said = [...block.children].map((li) => li.textContent).join("; ");
    return /[.!?…:;]$/.test(said) ? said : `${said}.`;
  }).join(" ");
}

function buildItem(entry, isPending) {
  const li = document.createElement("li");
  li.className = "entry entry--" + (entry.kind === "event" ? "event" : entry.mode);
  // The turn's narration is the game master's words; other events are the room's notices.
  const narration = entry.kind === "event" && entry.event_type === NARRATION_EVENT;
  // What the table plays for: framed as words, not a notice.
  if (narration) li.classList.add("entry--game-master");
  const head = document.createElement("div");
  head.className = "entry__head";
  const who = document.createElement("strong");
  who.className = "entry__sender";
  if (narration) who.textContent = t.gameMaster;
  else if (entry.kind === "event") who.textContent = t.system;
  else if (!entry.sender) who.textContent = t.formerMember;  // their account was deleted
  else who.textContent = entry.sender.id === config.userId ? fill(t.youName, { name: entry.sender.name }) : entry.sender.name;
  head.appendChild(who);
  // A game master's own words (table talk too) are told from a player's, seen and heard.
  if (entry.kind !== "event" && entry.sender && saidAsGm(entry)) head.appendChild(badge(t.senderGm, "badge--sender-gm entry__role"));
  if (entry.kind !== "event" && entry.mode !== "chat") head.appendChild(badge(sentenceCase(t["mode_" + entry.mode] || entry.mode), "badge--mode"));
  // Which of the sender's characters an action is made as (sent when they have several).
  const actedAs = entry.mode === "action" && entry.data && entry.data.character_name;
  // Sentence case for the pattern's own words only: a character's name stays as written.
  if (actedAs) head.appendChild(badge(fill(sentenceCase(t.actedAs), { name: actedAs }), "badge--character"));
  if (entry.audience === "gm") head.appendChild(badge(t.gm, "badge--gm"));
  if (entry.audience === "private") head.appendChild(badge(privateBadge(entry.recipients || []), "badge--private"));
  if (!isPending && entry.id) li.dataset.message = entry.id;
  const turn = !isPending && entry.id && turnsInProgress.get(entry.id);
  if (turn) head.appendChild(turnMark(turn.label));
  const time = document.createElement("time");
  time.className = "entry__time muted small";
  const when = entry.created_at ? new Date(entry.created_at) : new Date();
  time.dateTime = when.toISOString();
  // As every page writes a time (the page's language, the reader's zone): the time alone for
  // today; an older entry says its day too (history spans days).
  writeMoment(time, when, "time");
  time.title = localMoment(when, "full");
  head.appendChild(time);
  if (isPending) {
    const p = document.createElement("span");
    p.className = "entry__pending muted small";
    p.textContent = t.sending;
    head.appendChild(p);
    li.classList.add("entry--pending");
    li.setAttribute("aria-busy", "true");
  }
  let text = entry.kind === "event" ? entry.body || entry.event_type : entry.body;
  // A note of something the reader did themselves is addressed to them ("You cancelled …").
  const byMe = entry.kind === "event" && entry.data && entry.data.cancelled_by === config.userId;
  if (byMe && entry.data.cancelled_by_body) text = entry.data.cancelled_by_body;
  // The requester's own turn that ended failed: marked as a failure, not a passing notice, and
  // for the requester what to do about it (its error's recovery), as the composer's errors say it.
  const failure = entry.event_type === OUTCOME_EVENT && entry.data && entry.data.status === "failed" && entry.data.error;
  if (failure) {
    li.classList.add("entry--failed");
    head.insertBefore(badge(timeline.dataset.failedLabel, "badge--failed"), time);
  }
  const body = entryBody(text);
  // The recovery speaks to the player who acted; a GM reading the private entry is not told to act again.
  if (failure && failure.recovery && forMe(entry)) addSentence(body, failure.recovery);
  li.append(head, body);
  if (turn) drawTurnCancel(li, turn);
  return li;
}

// An entry is shown: neither "No messages yet" nor the opening's "Loading messages…" stays.
function listed() {
  empty.hidden = true;
  if (loading) loading.hidden = true;
}

// Data-only events (suggestions, job bookkeeping) feed the panels, not the timeline; nor does
// the room's note that an action was answered privately, for those who read the answer: the
// one who acted (or a note of their own when it went to the game master only) and a GM, who
// reads every answer. It is for the others who saw the action.
function inTimeline(entry) {
  if (entry.kind !== "event") return true;
  const answered = entry.data && entry.data.answered_privately;
  return Boolean(entry.body) && !(answered && (answered === config.userId || config.isManager));
}

// Where the reader left off: the first entry of another's written since they last read the
// room is marked "New" as the page opens (once; what comes while they are here is not). Not
// in a room never read, nor when that entry is older than the opening window (it would mark
// the window's top, not where they left off).
const openedRead = config.lastRead;
let unreadPlaced = !(openedRead > 0 && openedRead >= config.startAfter);
function markUnread(entry, li) {
  if (unreadPlaced || entry.sequence <= openedRead) return;
  if (entry.sender && entry.sender.id === config.userId) return;
  unreadPlaced = true;
  li.classList.add("entry--first-unread");
  li.dataset.unreadLabel = t.unread;
}

function render(entry) {
  if (seen.has(entry.sequence)) return; // at-least-once delivery: drop duplicates
  seen.add(entry.sequence);
  if (!inTimeline(entry)) {
    lastSeq = Math.max(lastSeq, entry.sequence);
    return;
  }
  const li = buildItem(entry, false);
  li.dataset.sequence = String(entry.sequence);
  markUnread(entry, li);
  const mine = entry.client_message_id && pending.get(entry.client_message_id);
  if (mine) {
    mine.li.replaceWith(li);
    pending.delete(entry.client_message_id);
  }
  // Keep sequence order even if a replay batch interleaves with a pending bubble. The usual
  // entry is the newest and goes last without looking at the others (a long replay stays
  // linear).
  let after = null;
  if (entry.sequence < maxRendered) {
    for (const node of timeline.querySelectorAll("li[data-sequence]")) {
      if (Number(node.dataset.sequence) > entry.sequence) { after = node; break; }
    }
  }
  if (!mine || after) timeline.insertBefore(li, after || firstPending());
  maxRendered = Math.max(maxRendered, entry.sequence);
  lastSeq = Math.max(lastSeq, entry.sequence);
  listed();
  const others = !(entry.sender && entry.sender.id === config.userId);
  // A reader up in the history is told something new came, and where it is.
  if (!stuck && live && others) showJump(true);
  if (live && others) announce(li);
  if (live && others && document.hidden) { unseen += 1; showTitle(); }
  followTail();
  scheduleRead();
}

// Screen readers hear entries as they arrive through their own polite region, never the
// history replayed on opening or loaded on request (the list itself is not a live region).
const announcer = document.getElementById("timeline-announcer");
function announce(li) {
  if (!announcer) return;
  const said = document.createElement("p");
  const who = li.querySelector(".entry__sender");
  const body = li.querySelector(".entry__body");
  // What the badges beside the sender show (a whisper, GM only, an action, a failure) is said
  // with the name: without it a whisper is heard as words to the whole table.
  const marks = [...li.querySelectorAll(".entry__head .badge:not(.entry__turn)")].map((b) => b.textContent).filter(Boolean);
  const name = who && who.textContent ? who.textContent + (marks.length ? ` (${marks.join(", ")})` : "") : "";
  said.textContent = [name, body && spokenBody(body)].filter(Boolean).join(": ");
  announcer.append(said);
  while (announcer.childElementCount > 5) announcer.firstElementChild.remove();
}

const scroller = timeline.closest(".room__timeline");
// Whether the list follows the newest entry. Only the reader changes it: scrolling up leaves
// the tail, coming back near the bottom rejoins it. Deciding from each scroll event's position
// alone failed: entries arriving between our scroll and its event read as "scrolled up".
let stuck = !target; // a linked entry holds the reader where it is
const STICK_PX = 48; // this close to the bottom still counts as at the bottom
let ownTop = -1; // where our last scroll put the list: its scroll event is not the reader's
let lastTop = 0;
let tailFrame = 0;

function distanceFromBottom() {
  return scroller.scrollHeight - scroller.scrollTop - scroller.clientHeight;
}

function toBottom() {
  // Instant: a smooth scroll's steps would arrive as scroll events over several frames.
  scroller.scrollTo({ top: scroller.scrollHeight, behavior: "instant" });
  ownTop = lastTop = scroller.scrollTop;
}

function followTail() {
  // Once per frame: reading the layout for every replayed entry made long rooms slow to open.
  if (tailFrame) return;
  tailFrame = requestAnimationFrame(() => {
    tailFrame = 0;
    if (stuck) toBottom();
  });
}

function showTarget() {
  // Once, after the first catch-up: a reconnect's replay leaves the reader where they are.
  if (!target) return;
  const li = timeline.querySelector(`li[data-sequence="${target}"]`);
  target = 0;
  if (!li) {
    // Not one this viewer may see (or no such entry): the newest, as any other opening.
    stuck = true;
    toBottom();
    return;
  }
  li.classList.add("entry--target");
  li.setAttribute("aria-current", "true");
  li.tabIndex = -1; // focused, so a screen reader starts reading there
  // The list alone scrolls, the entry to its middle: scrollIntoView would move the page as well
  // wherever centring it in the window needs that (a short window), taking the room's head away.
  const box = scroller.getBoundingClientRect();
  const at = li.getBoundingClientRect();
  const top = scroller.scrollTop + at.top - box.top - (scroller.clientHeight - at.height) / 2;
  scroller.scrollTo({ top: Math.max(0, top), behavior: "instant" });
  li.focus({ preventScroll: true });
  ownTop = lastTop = scroller.scrollTop;
}

// "New messages": shown while the reader is up in the history and newer entries arrived.
const jump = document.getElementById("timeline-jump");
function showJump(on) {
  if (jump) jump.hidden = !on;
}
if (jump) {
  jump.addEventListener("click", () => {
    stuck = true;
    toBottom();
    // Hidden with the focus it had, it would drop the focus to the top of the page: the list
    // it brought the reader down has it instead.
    const hadFocus = document.activeElement === jump;
    showJump(false);
    if (hadFocus) timeline.focus({ preventScroll: true });
    scheduleRead();
  });
}

// "First new message": the room opens at the newest entry, and the one marked New (where the
// reader left off) may be far above; shown while that entry is above the view, it goes there.
const unreadJump = document.getElementById("timeline-unread");
let unreadWatched = false; // once: a reconnect's caught-up marks nothing new
function watchUnread() {
  const li = timeline.querySelector("li.entry--first-unread");
  if (!unreadJump || !li || !window.IntersectionObserver) return;
  new IntersectionObserver(([seen]) => {
    const above = !seen.isIntersecting && seen.rootBounds && seen.boundingClientRect.bottom <= seen.rootBounds.top;
    if (!above && unreadJump.contains(document.activeElement)) timeline.focus({ preventScroll: true });
    unreadJump.hidden = !above;
  }, { root: scroller }).observe(li);
  unreadJump.addEventListener("click", () => {
    // Reading from there on: the newest entry no longer pulls the list down.
    stuck = false;
    li.tabIndex = -1; // focused, so a screen reader reads on from there
    // The list alone scrolls (scrollIntoView would move the page as well, taking the entry up
    // out of the window), to the entry with its "New" line above it in view.
    const room = parseFloat(getComputedStyle(li).marginTop) + parseFloat(getComputedStyle(scroller).paddingTop);
    const top = scroller.scrollTop + li.getBoundingClientRect().top - scroller.getBoundingClientRect().top - room;
    scroller.scrollTo({ top, behavior: "instant" });
    li.focus({ preventScroll: true });
    ownTop = lastTop = scroller.scrollTop;
  });
}

scroller.addEventListener("scroll", () => {
  const top = scroller.scrollTop;
  if (distanceFromBottom() <= STICK_PX) {
    // Back at the newest entry: it has been seen now.
    if (!stuck || (jump && !jump.hidden)) { showJump(false); scheduleRead(); }
    stuck = true;
  }
  // Only a move up that we did not make leaves the tail (new entries below move nothing).
  else if (top !== ownTop && top < lastTop - 1) stuck = false;
  lastTop = top;
}, { passive: true });

// Growth the render path does not see (a pending bubble, wrapped text, a taller list box)
// keeps the newest entry in view too.
if (window.ResizeObserver) {
  const grown = new ResizeObserver(() => { if (stuck) toBottom(); });
  grown.observe(timeline);
  grown.observe(scroller);
}

// --- older history -------------------------------------------------------------------------

const earlier = document.getElementById("timeline-earlier");
if (earlier) {
  earlier.hidden = oldestShown <= 1;
  earlier.addEventListener("click", loadEarlier);
}

let loadingEarlier = false;
async function loadEarlier() {
  // Busy, not disabled: disabling the button would throw its keyboard focus to the page's top.
  if (loadingEarlier) return;
  loadingEarlier = true;
  earlier.setAttribute("aria-disabled", "true");
  earlier.textContent = t.loadingEarlier;
  // Asking for older entries is reading history: the newest one no longer pulls the list down.
  stuck = false;
  try {
    const r = await fetch(`${config.messagesUrl}?before=${oldestShown}&limit=100`, { credentials: "same-origin" });
    if (!r.ok) throw new Error(String(r.status));
    const page = await r.json();
    // Prepend keeping the reader's place: the entries shown stay where they were.
    const height = scroller.scrollHeight;
    const top = timeline.firstElementChild;
    for (const entry of page.results) {
      if (seen.has(entry.sequence)) continue;
      seen.add(entry.sequence);
      if (!inTimeline(entry)) continue;
      const li = buildItem(entry, false);
      li.dataset.sequence = String(entry.sequence);
      timeline.insertBefore(li, top);
      listed();
    }
    if (page.results.length) oldestShown = page.results[0].sequence;
    // The button's row goes (or stays) before measuring, and the jump is instant: what was on
    // screen stays exactly where it was.
    const hadFocus = document.activeElement === earlier;
    earlier.hidden = !page.has_more;
    // Its focus would fall back to the top of the page: the list the entries came into has it.
    if (earlier.hidden && hadFocus) timeline.focus({ preventScroll: true });
    earlier.textContent = t.earlier;
    scroller.scrollTo({ top: scroller.scrollTop + scroller.scrollHeight - height, behavior: "instant" });
    ownTop = lastTop = scroller.scrollTop;
  } catch (e) {
    earlier.textContent = t.earlierFailed;
  } finally {
    loadingEarlier = false;
    earlier.removeAttribute("aria-disabled");
    // Still following only if everything fits (no scroll event would say so otherwise);
    // then the newest entry is in view, so it has been seen.
    stuck = distanceFromBottom() <= STICK_PX;
    if (stuck) { showJump(false); scheduleRead(); }
  }
}

// The message box grows with what is written, so a message of several lines can be read over
// before it is sent; past 12 rem it scrolls (Send stays in a phone's window); emptied, it is
// back to its rows. It only grows: a box the reader dragged taller stays so.
function fitComposer(box) {
  if (!box.value) { box.style.height = ""; return; }
  if (box.scrollHeight <= box.clientHeight) return;
  const rem = parseFloat(getComputedStyle(document.documentElement).fontSize);
  const needed = box.scrollHeight + box.offsetHeight - box.clientHeight;
  box.style.height = `${Math.max(box.offsetHeight, Math.min(needed, 12 * rem))}px`;
}

function firstPending() {
  return timeline.querySelector("li.entry--pending");
}

let readTimer = null;
function scheduleRead() {
  clearTimeout(readTimer);
  readTimer = setTimeout(() => {
    // Read means seen: not while the tab is hidden or the reader is up in the history (the
    // page asks again when it comes back into view or the list back to its newest entry).
    if (lastSeq <= config.lastRead || document.hidden || !stuck) return;
    const seq = lastSeq;
    fetch(config.readUrl, {
      method: "POST", credentials: "same-origin",
      headers: { "Content-Type": "application/json", "X-CSRFToken": csrfToken() },
      body: JSON.stringify({ sequence: seq }),
    }).then((r) => { if (r.ok) config.lastRead = seq; }).catch(() => {});
  }, 800);
}

document.addEventListener("visibilitychange", () => {
  if (document.hidden) return;
  unseen = 0;
  showTitle();
  scheduleRead();
});

// The badge shows the bare number; what it counts is said with it (the badge itself is
// hidden from screen readers, which would read "Here now 3").
function showPresenceCount(n) {
  const count = document.getElementById("presence-count");
  const name = document.getElementById("presence-count-name");
  if (count) { count.textContent = String(n); count.hidden = !n; }
  if (name) name.textContent = n ? (n === 1 ? t.peopleOne : t.peopleMany).replace("%(n)s", String(n)) : "";
}

function renderPresence(users) {
  presenceEl.replaceChildren();
  showPresenceCount(users.length);
  if (!users.length) {
    const li = document.createElement("li");
    li.className = "muted small";
    li.textContent = t.nobody;
    presenceEl.appendChild(li);
  }
  for (const u of users) {
    const li = document.createElement("li");
    li.textContent = u.id === config.userId ? fill(t.youName, { name: u.name }) : u.name;
    presenceEl.appendChild(li);
  }
}

function armWatchdog() {
  clearTimeout(watchdog);
  // No frame for two heartbeats: the connection is dead even if the browser has not noticed.
  watchdog = setTimeout(() => socket && socket.close(), heartbeatMs * 2 + 5000);
}

function connect() {
  if (stopped) return;
  const scheme = location.protocol === "https:" ? "wss:" : "ws:";
  socket = new WebSocket(`${scheme}//${location.host}${config.socketPath}?after=${resumeAfter}`);
  const ws = socket;
  ws.onopen = () => { armWatchdog(); };
  ws.onmessage = (ev) => {
    armWatchdog();
    const msg = JSON.parse(ev.data);
    switch (msg.type) {
      case "hello":
        if (msg.user_id !== config.userId) {
          // The browser now holds another account's session: this page was made for the first.
          stopped = true; ws.close(); setState("closed", t.signin); disableComposer(); endAccess(); return;
        }
        heartbeatMs = msg.heartbeat_seconds * 1000;
        // Renamed while this page had no socket: the name it was loaded with is old.
        if (msg.campaign) showCampaignName(msg.campaign.name, msg.campaign.name_revision);
        break;
      case "entry":
        resumeAfter = Math.max(resumeAfter, msg.entry.sequence);
        render(msg.entry);
        lateNotesAnswered(msg.entry);
        // Offered to the requester alone: a GM reads every private entry, and a click on
        // another's "end turn" would end that player's turn.
        if (msg.entry.event_type === "turn.suggestions" && forMe(msg.entry)) {
          offer(msg.entry.data || {});
        } else if (msg.entry.mode === "action" && msg.entry.sender && msg.entry.sender.id === config.userId) {
          actedAgain();
        }
        // Turn panels (dice, job progress) listen for room frames too.
        document.dispatchEvent(new CustomEvent("room:event", { detail: msg }));
        break;
      case "caught_up":
        live = true;
        unreadPlaced = true; // the opening's replay is over: later entries are read as they come
        if (held && lastTurn) turnRead(lastTurn); // else the panels' read after this decides
        resumeAfter = Math.max(resumeAfter, msg.sequence);
        attempt = 0;
        reauthTried = false;
        setState("live", t.live);
        flushPending();
        showTarget();
        if (!unreadWatched) { unreadWatched = true; watchUnread(); }
        // The replay is in: with none of its entries for the timeline, the room is empty to
        // this reader after all.
        if (loading && !loading.hidden) {
          loading.hidden = true;
          if (!timeline.querySelector("li")) empty.hidden = false;
        }
        // The panels know now what the replay held (the dice it rolled, or none), and read
        // their state again: the replay holds no state changes, and what changed before the
        // socket joined the room (a drop, or a first connection made after the page's own
        // read) reached no one here.
        document.dispatchEvent(new CustomEvent("room:caught-up"));
        break;
      case "presence":
        renderPresence(msg.users);
        break;
      case "campaign":
        showCampaignName(msg.name, msg.name_revision);
        break;
      case "access.revoked":
        stopped = true;
        endAccess();
        break;
      case "access.changed":
        // A new role or an archived campaign changes what this page may show and offer:
        // load it again, keeping what was being typed.
        stopped = true;
        setState("closed", t.accessChanged);
        reloadWhenSent();
        break;
      case "event":
        if (msg.event_type === "campaign.renamed") {
          showCampaignName(msg.payload.name, msg.payload.name_revision);
        }
        document.dispatchEvent(new CustomEvent("room:event", { detail: msg }));
        break;
      default:
        break;
    }
  };
  ws.onclose = (ev) => {
    // A socket already replaced (dropped offline) leaves the current one's watchdog alone.
    if (ws !== socket) return;
    clearTimeout(watchdog);
    if (ev.code === 4403 || ev.code === 4404) {
      stopped = true; setState("closed", t.revoked); disableComposer(); endAccess();
      forgetPresence(); // who is here is no longer this viewer's to see
      return;
    }
    if (ev.code === 4412) {
      // Newer terms to accept: the page, loaded again, asks for them (the draft is kept).
      stopped = true; setState("closed", t.terms); reloadWhenSent(); return;
    }
    if (ev.code === 4401) {
      // The session the socket opened with has ended. The cookie may hold a newer one (a
      // password change rotates it), so try once more before asking to sign in.
      if (!reauthTried) { reauthTried = true; clearTimeout(retryTimer); retryTimer = setTimeout(connect, 250); return; }
      stopped = true; setState("closed", t.signin); disableComposer(); endAccess();
      forgetPresence(); // signed out, the page no longer sees who is here
      return;
    }
    if (stopped) return;
    if (refusedForGood(ev.code)) {
      // Asked again, the server gives the same answer: retrying would only spin. A reload
      // builds the request afresh (the draft is kept).
      stopped = true; setState("closed", roomEl.dataset.refusedLabel); forgetPresence();
      return;
    }
    reconnectLater();
  };
}

// A close the server chose (4000-4999: its own refusals) or a protocol-level rejection of what
// this page sent. Drops (1006), restarts (1001, 1012), overload (1013) and server errors (1011)
// are passing and are retried.
function refusedForGood(code) {
  return (code >= 4000 && code <= 4999) || [1002, 1003, 1007, 1008, 1009, 1010].includes(code);
}

// Cut off, the page does not know who is here (nor is its viewer "here" to the others): the list
// says so, as before the first connection, until the socket's next presence frame. Shut out for
// good, it lists nothing.
function forgetPresence(connecting = false) {
  presenceEl.replaceChildren();
  if (connecting) {
    const li = document.createElement("li");
    li.className = "muted small";
    li.textContent = t.connecting;
    presenceEl.append(li);
  }
  showPresenceCount(0);
}

function reconnectLater() {
  // Until caught up again, a replayed suggestion waits to be checked (held).
  live = false;
  setState("reconnecting", t.reconnecting);
  forgetPresence(true);
  const base = Math.min(30000, 500 * 2 ** attempt);
  attempt += 1;
  clearTimeout(retryTimer);
  retryTimer = setTimeout(connect, base / 2 + Math.random() * (base / 2));
}

let retryTimer = null;
let reauthTried = false;
// Offline: the socket may stay open without a network for up to two heartbeats, with the page
// still saying "Live". Drop it now: the page says it is reconnecting, and resumes when back.
window.addEventListener("offline", () => {
  if (stopped || !socket || socket.readyState > WebSocket.OPEN) return;
  // Detached first: its close, whenever the browser gets to it, changes nothing here.
  const ws = socket;
  socket = null;
  clearTimeout(watchdog);
  ws.close();
  reconnectLater();
});
// Back online: retry now instead of waiting out the backoff.
window.addEventListener("online", () => {
  if (stopped || (socket && socket.readyState <= WebSocket.OPEN)) return;
  clearTimeout(retryTimer);
  connect();
});

// Per viewer and room: another account signed in on this tab never gets it.
const draftKey = `sagasmith:draft:${config.userId}:${config.campaignId || location.pathname}`;

function saveDraft() {
  // A page without a composer (observer, archived) leaves a kept draft as it is.
  const bodyEl = form && form.querySelector("textarea");
  if (!bodyEl) return;
  try {
    // How it was to be sent goes with the text: an action draft must not come back as chat.
    // With no text, a mode other than chat is kept too: mid-fight, a reload must not turn the
    // next "attack goblin" into chat.
    const checked = (name) => form.querySelector(`input[name=${name}]:checked`);
    const mode = checked("mode") ? checked("mode").value : "";
    if (!bodyEl.value.trim() && (!mode || mode === "chat")) { sessionStorage.removeItem(draftKey); return; }
    const actingAs = document.getElementById("composer-character");
    sessionStorage.setItem(draftKey, JSON.stringify({
      body: bodyEl.value.trim() ? bodyEl.value : "",
      mode,
      audience: checked("audience") ? checked("audience").value : "",
      recipients: [...form.querySelectorAll("input[name=recipients]:checked")].map((c) => c.value),
      character: actingAs ? actingAs.value : "",
    }));
  } catch (e) { /* storage may be off: the draft is lost, not the page */ }
}
// A reload or a visit elsewhere keeps what was being typed.
window.addEventListener("pagehide", saveDraft);
// Messages not yet accepted by the server (held back by the rate limit, offline) would be lost
// by leaving: the browser asks first. One already posted is safe and asks nothing.
window.addEventListener("beforeunload", (ev) => {
  if (![...pending.values()].some((item) => !item.posted)) return;
  ev.preventDefault();
  ev.returnValue = ""; // older browsers ask only when this is set
});

function reloadWhenSent(deadline = Date.now() + 5000) {
  // Messages still being sent (or retried) finish first: a reload would drop them.
  if (pending.size && Date.now() < deadline) {
    setTimeout(() => reloadWhenSent(deadline), 200);
    return;
  }
  saveDraft(); // after the sends: a refused one puts its text back in the composer
  // Marked as the page's own reload: the server leaves the session's notices to the page that
  // caused the change (the settings page archiving the campaign loads at the same time).
  const url = new URL(window.location.href);
  url.searchParams.set("reload", "auto");
  window.location.replace(url.toString());
}

function restoreDraft() {
  // Kept until a page with a composer takes it: a reload as an observer (or of an archived
  // room) shows none, and the text must still be there if posting comes back.
  const bodyEl = form && form.querySelector("textarea");
  if (!bodyEl) return;
  let draft = null;
  try {
    const raw = sessionStorage.getItem(draftKey);
    sessionStorage.removeItem(draftKey);
    if (!raw) return;
    try { draft = JSON.parse(raw); } catch (e) { draft = null; }
    // A draft kept by an older page is the bare text.
    if (!draft || typeof draft.body !== "string") draft = { body: raw };
  } catch (e) { return; /* nothing to restore */ }
  if (bodyEl.value) return; // something newer is there
  bodyEl.value = draft.body;
  // Only choices this page still offers: a player demoted from GM has no audience picker.
  const pick = (name, value) => {
    const input = value && form.querySelector(`input[name=${name}][value="${CSS.escape(value)}"]`);
    if (input && !input.disabled) input.checked = true;
  };
  pick("mode", draft.mode);
  form.dispatchEvent(new Event("change")); // the mode decides which audiences are open
  pick("audience", draft.audience);
  for (const id of Array.isArray(draft.recipients) ? draft.recipients : []) pick("recipients", id);
  const actingAs = document.getElementById("composer-character");
  if (actingAs && actingAs.value !== draft.character && [...actingAs.options].some((o) => o.value === draft.character)) {
    actingAs.value = draft.character;
    actingAs.dispatchEvent(new Event("change")); // the side panel shows that character's card
  }
  form.dispatchEvent(new Event("change"));
  bodyEl.dispatchEvent(new Event("input")); // the counter, for a long draft
}

function disableComposer() {
  if (!form) return;
  for (const el of form.elements) el.disabled = true;
}

// Exposed for tests and debugging: drop the socket as a network failure would.
window.sagasmithRoom = {
  dropSocket: () => socket && socket.close(),
  lastSeq: () => lastSeq,
  resumeAfter: () => resumeAfter,
};

// Posts go out one at a time, in the order they were written: a retried one (throttled,
// offline) holds the later ones back instead of being overtaken by them.
let sending = false;
let sendTimer = null;
let sendAfter = 0; // no post before this time: a backoff, or the server's Retry-After
let throttledUntil = 0; // the Retry-After part, which coming back online does not cut short

async function pump() {
  if (sending || Date.now() < Math.max(sendAfter, throttledUntil)) return;
  const next = [...pending.entries()].find(([, item]) => !item.posted);
  if (!next) return;
  sending = true;
  clearTimeout(sendTimer);
  const [cmid, item] = next;
  let wait = { ms: 0, throttled: false };
  try {
    wait = await send(cmid, item);
  } finally {
    sending = false;
  }
  if (!wait.ms) { pump(); return; }
  sendAfter = Date.now() + wait.ms;
  if (wait.throttled) throttledUntil = sendAfter;
  sendTimer = setTimeout(pump, wait.ms);
}

function startsTurn(payload) {
  // An action, or a GM's narration to the room or the GMs, which the game master applies
  // (a long rest, a monster's Hide); narration to chosen members stays words.
  return payload.mode === "action" || (payload.mode === "narration" && payload.audience !== "private");
}

async function send(cmid, item) {
  // How long to wait before retrying it ({ms: 0} when done: sent or refused), and whether the
  // server asked for the wait (throttled).
  // Actions start a turn: the job endpoint answers with the job, and the action message
  // itself arrives over the socket (its client id is "turn:<key>", the pending key).
  const isAction = item.payload.mode === "action";
  const turn = startsTurn(item.payload);
  const url = turn ? config.actionsUrl : config.messagesUrl;
  const body = turn
    ? { body: item.payload.body, audience: item.payload.audience, character_id: item.payload.character_id || "", task: item.payload.mode }
    : item.payload;
  let retryAfter = 0;
  try {
    const r = await fetch(url, {
      method: "POST", credentials: "same-origin",
      headers: { "Content-Type": "application/json", "X-CSRFToken": csrfToken(), "Idempotency-Key": item.key || cmid },
      body: JSON.stringify(body),
    });
    const data = await r.json().catch(() => ({}));
    if (r.ok) {
      item.posted = true;
      if (turn) document.dispatchEvent(new CustomEvent("room:job", { detail: data }));
      else render(data);
      return { ms: 0, throttled: false };
    }
    if (r.status >= 400 && r.status < 500 && !(data.error && data.error.retryable)) {
      item.li.remove();
      pending.delete(cmid);
      if (!timeline.querySelector("li")) empty.hidden = false;  // it was the only line
      const error = data.error || {};
      // Out of credits: what to do next matters as much as why.
      const quota = error.code === "quota_exceeded";
      const recovery = quota && error.recovery ? ` ${error.recovery}` : "";
      showError((error.message || r.statusText) + recovery, quota ? config.usageUrl : "");
      // No turn started, so no panel read will come to say it ended: the options come back.
      if (isAction) { acting = false; drawSuggestions(); }
      // Refused, not lost: the text goes back to the composer unless something new is there.
      const bodyEl = form && form.querySelector("textarea");
      if (bodyEl && !bodyEl.value.trim()) { bodyEl.value = item.payload.body; fitComposer(bodyEl); }
      return { ms: 0, throttled: false };
    }
    if (r.status === 429) retryAfter = Number(r.headers.get("Retry-After")) || 0;
    throw new Error("retryable");
  } catch (e) {
    // Same Idempotency-Key on retry, so a request that did land is not posted twice.
    const label = item.li.querySelector(".entry__pending");
    if (label) label.textContent = retryAfter ? t.throttled.replace("%(n)s", String(retryAfter)) : t.failed;
    item.retry = (item.retry || 0) + 1;
    if (retryAfter) return { ms: retryAfter * 1000, throttled: true };
    return { ms: Math.min(15000, 1000 * 2 ** item.retry), throttled: false };
  }
}

function flushPending() {
  // Back online or reconnected: retry now instead of waiting out the backoff (a wait the
  // server asked for still holds).
  sendAfter = 0;
  clearTimeout(sendTimer);
  const throttled = throttledUntil - Date.now();
  if (throttled > 0) sendTimer = setTimeout(pump, throttled);
  else pump();
}

// A hint about the message being written ("empty", "recipients"): it goes once the message is
// put right, as a server's refusal does not (that one says why the text came back).
let composerHint = "";

function clearError() {
  const el = document.getElementById("composer-error");
  el.hidden = true;
  composerHint = "";
  const bodyEl = form && form.querySelector("textarea");
  if (bodyEl) { bodyEl.removeAttribute("aria-invalid"); bodyEl.removeAttribute("aria-describedby"); }
  markRecipients();
}

// The recipients' box, while nobody chosen in it is what is wrong: described by the hint as a
// group, and each of its choices marked invalid (a group itself takes no invalid state).
function markRecipients() {
  const picker = document.getElementById("recipients");
  if (!picker) return;
  const wrong = composerHint === "recipients";
  if (wrong) picker.setAttribute("aria-describedby", "composer-error");
  else picker.removeAttribute("aria-describedby");
  for (const box of picker.querySelectorAll("input[name=recipients]")) {
    if (wrong) box.setAttribute("aria-invalid", "true");
    else box.removeAttribute("aria-invalid");
  }
}

function showError(text, usageUrl = "", hint = "") {
  const el = document.getElementById("composer-error");
  el.textContent = text;
  composerHint = hint;
  // The message box is described by what is wrong while it shows (and marked invalid when
  // the box itself is what is wrong).
  const bodyEl = form && form.querySelector("textarea");
  if (bodyEl) {
    bodyEl.setAttribute("aria-describedby", el.id);
    if (hint === "empty") bodyEl.setAttribute("aria-invalid", "true");
    else bodyEl.removeAttribute("aria-invalid");
  }
  markRecipients();
  if (usageUrl) {
    const link = document.createElement("a");
    link.href = usageUrl;
    // The server's recovery names the usage page by its path: the link takes the path's place
    // rather than sitting after it.
    const at = text.indexOf(usageUrl);
    if (at >= 0) {
      link.textContent = t.usagePage;
      el.replaceChildren(text.slice(0, at), link, text.slice(at + usageUrl.length));
    } else {
      link.textContent = t.openUsage;
      el.append(" ", link);
    }
  }
  el.hidden = false;
  // Under the composer, it can start below the fold of a short window: bring it into view.
  el.scrollIntoView({ block: "nearest" });
}

// The members as they are now: who joined or left since the page loaded. On failure the list
// as loaded stays.
async function refreshRecipients(picker) {
  let members;
  try {
    const r = await fetch(config.membersUrl, { credentials: "same-origin" });
    if (!r.ok) return;
    members = await r.json();
  } catch (e) {
    return;
  }
  // Read after the wait: a box ticked meanwhile stays ticked.
  const ticked = new Set([...picker.querySelectorAll("input[name=recipients]:checked")].map((c) => c.value));
  const rows = members.filter((m) => m.user_id !== config.userId).map((m) => {
    const label = document.createElement("label");
    const box = document.createElement("input");
    box.type = "checkbox";
    box.name = "recipients";
    box.value = m.user_id;
    box.checked = ticked.has(m.user_id);
    label.append(box, " " + m.label);
    return label;
  });
  if (!rows.length) {
    const none = document.createElement("p");
    none.className = "muted small";
    none.textContent = t.noOthers;
    rows.push(none);
  }
  // The box the reader is on is drawn anew: its new one takes the focus (removed, it would
  // drop the focus to the top of the page).
  const focused = picker.contains(document.activeElement) ? document.activeElement.value : null;
  picker.querySelectorAll("label, p").forEach((el) => el.remove());
  picker.append(...rows);
  markRecipients(); // the boxes drawn anew while the hint shows are marked as the old ones were
  if (focused !== null) {
    const again = [...picker.querySelectorAll("input[name=recipients]")];
    const next = again.find((box) => box.value === focused) || again[0];
    if (next) next.focus();
    else form.querySelector("input[name=audience]:checked").focus();
  }
}

if (form) {
  const bodyEl = form.querySelector("textarea");
  const picker = document.getElementById("recipients");
  const counter = document.getElementById("composer-count");
  const counterSaid = document.getElementById("composer-count-announcer");
  const privateOption = form.querySelector("input[name=audience][value=private]");
  const privateHint = document.getElementById("audience-private-hint");
  const narrationHint = document.getElementById("narration-private-hint");
  // Private narrowed to GM only by Action, not by the reader: back in another mode it returns.
  let narrowed = false;
  form.addEventListener("change", (ev) => {
    // An action goes to everyone or to the GM alone: private words are chat. A chosen Private
    // narrows to GM only, never widens to everyone.
    const action = form.querySelector("input[name=mode]:checked").value === "action";
    if (ev.target.name === "audience") narrowed = false; // the reader's own choice stands
    if (privateOption && !action && narrowed && ev.target.name === "mode") privateOption.checked = true;
    if (!action) narrowed = false;
    if (privateOption) {
      privateOption.disabled = action;
      // Why it is unavailable, on the page (a tooltip reaches neither touch nor keyboard) and
      // as its description; only while it is (a hidden element referenced is still read).
      if (privateHint) {
        privateHint.hidden = !action;
        if (action) privateOption.setAttribute("aria-describedby", privateHint.id);
        else privateOption.removeAttribute("aria-describedby");
      }
      if (action && privateOption.checked) {
        form.querySelector("input[name=audience][value=gm]").checked = true;
        narrowed = true;
      }
    }
    // Narration to chosen members is shown, never applied (startsTurn): said while chosen.
    if (narrationHint && privateOption) {
      const mode = form.querySelector("input[name=mode]:checked").value;
      narrationHint.hidden = !(mode === "narration" && privateOption.checked);
      if (!narrationHint.hidden) privateOption.setAttribute("aria-describedby", narrationHint.id);
      else if (privateOption.getAttribute("aria-describedby") === narrationHint.id) privateOption.removeAttribute("aria-describedby");
    }
    if (picker) {
      const wasHidden = picker.hidden;
      picker.hidden = form.querySelector("input[name=audience]:checked").value !== "private";
      if (wasHidden && !picker.hidden) refreshRecipients(picker);
    }
    // Someone chosen, or no longer private: "choose who receives" no longer applies.
    const audience = form.querySelector("input[name=audience]:checked");
    if (composerHint === "recipients" && (!audience || audience.value !== "private" || form.querySelector("input[name=recipients]:checked"))) clearError();
  });
  // An empty box this soon after a send, untouched since, is Enter pressed twice, not a
  // message forgotten.
  const REPEAT_MS = 1000;
  let sentAt = 0;
  // The length a paste or drop would give without the limit: maxlength cuts it silently, so
  // the input that follows says how much was left out.
  let expected = -1;
  const measure = (data) => {
    const added = ((data && data.getData("text/plain")) || "").replace(/\r\n?/g, "\n").length;
    expected = bodyEl.value.length - (bodyEl.selectionEnd - bodyEl.selectionStart) + added;
  };
  bodyEl.addEventListener("paste", (ev) => measure(ev.clipboardData));
  bodyEl.addEventListener("drop", (ev) => measure(ev.dataTransfer));
  bodyEl.addEventListener("input", () => {
    fitComposer(bodyEl);
    sentAt = 0; // written in since the send: an empty Enter now is no repeat of it
    if (composerHint === "empty" && bodyEl.value.trim()) clearError();
    // Said before the limit stops the typing, not after the text is cut.
    const left = bodyEl.maxLength - bodyEl.value.length;
    const cut = expected - bodyEl.value.length;
    expected = -1;
    counter.hidden = left >= 400 && cut <= 0;
    counter.classList.toggle("composer__count--cut", cut > 0);
    counter.textContent = t.charsLeft.replace("%(n)s", String(left));
    if (cut > 0) counter.textContent += " — " + t.pasteCut.replace("%(max)s", String(bodyEl.maxLength)).replace("%(n)s", String(cut));
    sayCount(left, cut);
  });
  // The counter changes with every key, so it is no live region: a screen reader hears the
  // count as it appears and as 100, 20 and 0 are reached (each once, until the text is short
  // enough to hide the counter again), and a paste the limit cut.
  const COUNT_STEPS = [399, 100, 20, 0];
  let countStepSaid = 0;
  function sayCount(left, cut) {
    const step = COUNT_STEPS.filter((n) => left <= n).length;
    if (!step) countStepSaid = 0;
    let words = "";
    if (cut > 0) words = counter.textContent;
    else if (step > countStepSaid) words = left ? counter.textContent : t.charsLimit.replace("%(max)s", String(bodyEl.maxLength));
    countStepSaid = Math.max(countStepSaid, step);
    if (!words || !counterSaid) return;
    // A new node each time: the same words said again (another cut paste) are still heard.
    const said = document.createElement("span");
    said.textContent = words;
    counterSaid.replaceChildren(said);
  }
  // On a phone the on-screen keyboard's Enter starts a new line, as elsewhere there, and the
  // Send button (or Ctrl+Enter, from a keyboard attached) sends; a desktop's Enter sends,
  // Shift+Enter starts a new line.
  const phone = matchMedia("(pointer: coarse) and (max-width: 899px)");
  const deskPlaceholder = bodyEl.placeholder;
  const placeEnter = () => { bodyEl.placeholder = phone.matches ? bodyEl.dataset.phonePlaceholder : deskPlaceholder; };
  placeEnter();
  phone.addEventListener("change", placeEnter);
  bodyEl.addEventListener("keydown", (ev) => {
    if (ev.key !== "Enter" || ev.shiftKey || ev.isComposing) return;
    if (phone.matches && !ev.ctrlKey && !ev.metaKey) return;
    ev.preventDefault();
    form.requestSubmit();
  });
  form.addEventListener("submit", (ev) => {
    ev.preventDefault();
    const text = bodyEl.value.trim();
    if (!text) {
      bodyEl.value = "";
      if (Date.now() - sentAt < REPEAT_MS) return;
      showError(t.emptyMessage, "", "empty");
      bodyEl.focus();
      return;
    }
    clearError();
    const audienceEl = form.querySelector("input[name=audience]:checked");
    const payload = {
      body: text,
      mode: form.querySelector("input[name=mode]:checked").value,
      audience: audienceEl ? audienceEl.value : "public",
      recipients: [],
    };
    // A player with more than one character says which one acts.
    const actingAs = document.getElementById("composer-character");
    if (actingAs && payload.mode === "action") payload.character_id = actingAs.value;
    if (payload.audience === "private") {
      payload.recipients = [...form.querySelectorAll("input[name=recipients]:checked")].map((c) => c.value);
      if (!payload.recipients.length) { showError(t.pickRecipients, "", "recipients"); return; }
    }
    const key = newId();
    const cmid = startsTurn(payload) ? "turn:" + key : key;
    payload.client_message_id = cmid;
    // Under the sender's own name, as it will be once sent.
    const li = buildItem({ ...payload, kind: "message", sender: { id: config.userId, name: config.userName }, recipients: [] }, true);
    timeline.appendChild(li);
    listed();
    // Writing is taking part: the list goes back to the newest entry, the reader's own.
    stuck = true;
    showJump(false);
    followTail();
    pending.set(cmid, { li, payload, key });
    sentAt = Date.now();
    dropUndo(); // sent: the draft an option replaced is no longer offered back
    bodyEl.value = "";
    fitComposer(bodyEl);
    counter.hidden = true;
    counter.classList.remove("composer__count--cut");
    sayCount(bodyEl.maxLength, 0); // the next long message is counted afresh
    // A chat message leaves the turn's options; an action hides them while it runs.
    if (payload.mode === "action") { acting = true; drawSuggestions(); }
    showActionHint(text, payload.mode === "chat" ? chatHint(text) : "");
    // Sent with the Send button: the cursor goes back to the box, ready for the next message.
    bodyEl.focus();
    pump();
  });
}

// A chat message that reads like a game command (its words begin with one of the system's
// openers), or that only asks for help ("help", "?"), which the GM answers in an action alone:
// only the sender is told that Action mode has the GM answer it, and can send it so. The hint's
// kind ("help" or "command"), or "" for talk.
function chatHint(text) {
  const words = text.toLowerCase().replace(/^\//, "").split(/\s+/).filter(Boolean).join(" ");
  // "help!" and "help?" ask as "help" does; "?" alone is itself.
  if ((config.helpWords || []).includes(words.replace(/(\S)[.!?…]+$/u, "$1"))) return "help";
  // The opener ends where the words do, or at a space or punctuation ("ask the oracle: …",
  // "End scene."), not inside a longer word ("rolling").
  const command = (config.actionOpeners || []).some((opener) => words.startsWith(opener) && !/^[\p{L}\p{N}]/u.test(words.slice(opener.length)));
  return command ? "command" : "";
}

// The hint of `kind` (chatHint's) beside the composer, offering to send `text` as an action;
// none for "".
function showActionHint(text, kind) {
  const box = document.getElementById("composer-action-hint");
  if (!box || !form) return;
  if (!kind) { box.replaceChildren(); return; }
  const bodyEl = form.querySelector("textarea");
  const said = document.createElement("span");
  said.className = "composer__action-hint-text small";
  said.textContent = kind === "help" ? t.helpHint : t.actionHint;
  const resend = document.createElement("button");
  resend.type = "button";
  resend.className = "button button--small button--primary";
  resend.textContent = t.sendAsAction;
  resend.addEventListener("click", () => {
    // The button says "Send": it sends, once (it is gone before the send).
    box.replaceChildren();
    const mode = form.querySelector("input[name=mode]:checked");
    form.querySelector("input[name=mode][value=action]").checked = true;
    form.dispatchEvent(new Event("change"));
    // Whatever is being written meanwhile stays in the box.
    const draft = bodyEl.value;
    bodyEl.value = text;
    form.requestSubmit();
    bodyEl.value = draft;
    // Asking for help is once: the talk goes on in the mode it was in. A command sent as chat
    // leaves Action mode on, for the commands that follow it.
    if (kind === "help" && mode) {
      mode.checked = true;
      form.dispatchEvent(new Event("change"));
    }
    bodyEl.dispatchEvent(new Event("input"));
    bodyEl.focus();
  });
  const dismiss = document.createElement("button");
  dismiss.type = "button";
  dismiss.className = "button button--small button--ghost";
  dismiss.textContent = t.dismissHint;
  dismiss.addEventListener("click", () => { box.replaceChildren(); bodyEl.focus(); });
  box.replaceChildren(said, resend, dismiss);
}

function forMe(entry) {
  return (entry.recipients || []).some((person) => person.id === config.userId);
}

// The turn an event's suggestions are for; one without (published before events named it)
// is never taken as current, so never dropped by a read, nor offered again on opening.
function turnOf(data) {
  const turn = data.turn;
  return turn && typeof turn.revision === "number" ? turn : { revision: Infinity, known: false };
}

function sameTurn(turn, read) {
  // Not known (no read of combat was stored for it): the phase alone.
  if (turn.phase !== read.phase) return false;
  return !turn.known || (turn.round === read.round && turn.combatant === read.combatant);
}

// A read at or past the revision the suggestions were offered at says whether their turn is
// still on: options for a turn that has passed go ("end turn" would end some later one), and
// ones arriving after their turn passed are never shown.
function offer(data) {
  const turn = turnOf(data);
  if (!live) { held = Number.isFinite(turn.revision) ? { items: data.suggestions, turn } : null; return; }
  if (lastTurn && lastTurn.revision >= turn.revision && !sameTurn(turn, lastTurn)) return;
  offered = { items: data.suggestions, turn };
  drawSuggestions();
}

// Outside combat an option answers the viewer's last action (a command asked back): their next
// action, sent from here or another page, answered it. A combat turn's options ("end turn")
// last the turn, and its own reads drop them.
function actedAgain() {
  const outside = (o) => o && o.turn.known && o.turn.combatant == null;
  if (outside(held)) held = null;
  if (outside(offered)) { offered = null; drawSuggestions(); }
}

function turnRead(read) {
  // A read older than one already had (a slow reply) says nothing of the turn now.
  if (typeof read.revision !== "number" || (lastTurn && read.revision < lastTurn.revision)) return;
  lastTurn = read;
  acting = Boolean(read.acting);
  if (offered && read.revision >= offered.turn.revision && !sameTurn(offered.turn, read)) offered = null;
  if (held && live && read.revision >= held.turn.revision) {
    if (sameTurn(held.turn, read)) offered = held;
    held = null;
  }
  drawSuggestions();
}

document.addEventListener("room:turn", (ev) => turnRead(ev.detail || {}));

function drawSuggestions() {
  showSuggestions(offered && !acting ? offered.items : [], offered && offered.turn);
}

// Said politely, each time in a new node (the same words said again are still heard).
function sayAboutSuggestions(words) {
  const region = document.getElementById("composer-suggestions-announcer");
  if (!region) return;
  const said = document.createElement("span");
  said.textContent = words;
  region.replaceChildren(said);
}

// The options last said, by the turn they were offered for: redrawn by another read of the
// turn, or replayed after a reconnect, they are not said again.
let suggestionsSaid = "";

function showSuggestions(items, turn) {
  // What the game master suggests next, as actions one click puts in the composer.
  const box = document.getElementById("composer-suggestions");
  if (!box || !form) return;
  const list = (Array.isArray(items) ? items : []).filter((x) => typeof x === "string" && x).slice(0, 5);
  const key = list.length ? JSON.stringify([turn ? turn.revision : null, list]) : "";
  if (key && key !== suggestionsSaid) sayAboutSuggestions(`${t.suggestions} ${choiceFormat.format(list)}`);
  if (key) suggestionsSaid = key;
  // The same options drawn again (another read of the turn) are left as they are: a button
  // the reader is on keeps its focus.
  const drawn = [...box.querySelectorAll("button")].map((b) => b.textContent);
  if (drawn.length === list.length && drawn.every((text, i) => text === list[i])) return;
  // An option the reader is on that goes (its turn passed, an action runs) would drop the
  // focus to the top of the page: it goes where the next action is written.
  const hadFocus = box.contains(document.activeElement);
  box.replaceChildren();
  if (hadFocus) {
    const bodyEl = form.querySelector("textarea");
    if (!bodyEl.disabled) bodyEl.focus();
  }
  box.hidden = !list.length;
  if (!list.length) return;
  const label = document.createElement("span");
  label.className = "muted small";
  label.id = "composer-suggestions-label"; // names the group
  label.textContent = t.suggestions;
  box.append(label);
  for (const text of list) {
    const b = document.createElement("button");
    b.type = "button";
    b.className = "button button--small";
    b.textContent = text;
    b.addEventListener("click", () => {
      keepDraft(text);
      const action = form.querySelector("input[name=mode][value=action]");
      if (!action.checked) {
        action.checked = true;
        form.dispatchEvent(new Event("change"));
        // The focus goes to the message box, away from the mode: a screen reader hears the
        // switch as "Mode: Action", in the page's own words for them.
        const legend = form.querySelector(".composer__modes legend");
        sayAboutSuggestions(`${legend.textContent.trim()}: ${action.parentElement.textContent.trim()}`);
      }
      const bodyEl = form.querySelector("textarea");
      bodyEl.value = text;
      // As typing would: the count and an "empty" error describe the new text.
      bodyEl.dispatchEvent(new Event("input"));
      bodyEl.focus();
      offerUndo();
    });
    box.append(b);
  }
}

// What an option replaced: the reader's own draft with its mode and audience, until it is
// taken back or a message is sent.
let replaced = null;

function keepDraft(option) {
  const draft = form.querySelector("textarea").value;
  // Another option taken over the last one keeps the draft from before the first.
  const own = draft.trim() && draft.trim() !== option && !(replaced && draft === replaced.option);
  if (own) {
    const audience = form.querySelector("input[name=audience]:checked");
    replaced = { body: draft, mode: form.querySelector("input[name=mode]:checked").value, audience: audience && audience.value };
  } else if (!(replaced && draft === replaced.option)) {
    replaced = null;
  }
  if (replaced) replaced.option = option;
}

function offerUndo() {
  const box = document.getElementById("composer-undo");
  if (!box) return;
  if (!replaced) { box.replaceChildren(); return; }
  const said = document.createElement("span");
  said.className = "composer__undo-text small";
  said.textContent = t.draftReplaced;
  const undo = document.createElement("button");
  undo.type = "button";
  undo.className = "button button--small";
  undo.textContent = t.undo;
  undo.addEventListener("click", () => {
    const draft = replaced;
    dropUndo();
    form.querySelector(`input[name=mode][value="${draft.mode}"]`).checked = true;
    const audience = draft.audience && form.querySelector(`input[name=audience][value="${draft.audience}"]`);
    if (audience) audience.checked = true;
    form.dispatchEvent(new Event("change"));
    const bodyEl = form.querySelector("textarea");
    bodyEl.value = draft.body;
    bodyEl.dispatchEvent(new Event("input"));
    bodyEl.focus();
  });
  box.replaceChildren(said, " ", undo);
}

function dropUndo() {
  replaced = null;
  const box = document.getElementById("composer-undo");
  if (box) box.replaceChildren();
}

// The timeline's height leaves room for the composer at rest (--room-chrome); what the
// composer grows by (the GM's recipients, a note, options) it gives up too, so the message box
// and Send stay in the window. The list keeps its newest entry in view (the observer above).
if (form && window.ResizeObserver) {
  const rest = form.getBoundingClientRect().height;
  new ResizeObserver(() => {
    const grown = Math.max(0, Math.round(form.getBoundingClientRect().height - rest));
    roomEl.style.setProperty("--room-composer-grown", `${grown}px`);
  }).observe(form);
}

setState("connecting", t.connecting);
// The mark of the page's own reload goes from the address bar: a later reload is the reader's.
if (new URLSearchParams(window.location.search).get("reload") === "auto") {
  const url = new URL(window.location.href);
  url.searchParams.delete("reload");
  history.replaceState(history.state, "", url.toString());
}
restoreDraft();
connect();
