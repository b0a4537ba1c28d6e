// A moment as the pages write it for their reader: in the page's language and the reader's
// own zone, with the zone's name ("5:26 AM EST", "Dec 7, 2026, 5:26 AM EST"). One rule for
// the server-written times (local_time.js) and the room's timeline, whatever language the
// browser itself is set to: the words around a time are the page's.

// The page's language, for every word a script writes on it.
export const language = document.documentElement.lang || undefined;
const day = { year: "numeric", month: "short", day: "numeric" };
const clock = { hour: "numeric", minute: "2-digit", timeZoneName: "short" };
const forms = {
  time: new Intl.DateTimeFormat(language, clock),
  datetime: new Intl.DateTimeFormat(language, { ...day, ...clock }),
  // On hover: the weekday and the month in words, the zone still named.
  full: new Intl.DateTimeFormat(language, { ...day, weekday: "long", month: "long", ...clock }),
};

// The zone's name as the reader's own variant of the page's language says it: plain "en" calls
// London's summer "GMT+1", where en-GB says "BST". A reader of another language keeps the
// page's words, as for everything else written around a time.
const reader = navigator.language;
const sameLanguage = (a, b) => Boolean(a && b) && a.split("-")[0] === b.split("-")[0];
const zoneWords = new Intl.DateTimeFormat(sameLanguage(reader, language) ? reader : language, {
  timeZoneName: "short",
});

// `when` in `format`'s parts, its zone named as above.
function partsOf(format, when) {
  const zone = zoneWords.formatToParts(when).find((part) => part.type === "timeZoneName");
  return format
    .formatToParts(when)
    .map((part) => (part.type === "timeZoneName" && zone ? { ...part, value: zone.value } : part));
}

const dateFields = new Set(["era", "year", "month", "day", "weekday"]);
const joined = (parts) => parts.map((part) => part.value).join("");

// The forms a page may ask for (a <time data-local> names one).
export function isMomentForm(form) {
  return Object.hasOwn(forms, form);
}

// The formatter for `when` in `form`: "time" gives the date too when the reader's day is not
// the day it falls on.
function formatFor(when, form) {
  const sameDay = when.toDateString() === new Date().toDateString();
  return forms[form === "time" && !sameDay ? "datetime" : form];
}

// `when` (a Date) in form "datetime", "full", or "time": the time alone, with its date too
// when the reader's day is not the day it falls on.
export function localMoment(when, form = "datetime") {
  return joined(partsOf(formatFor(when, form), when));
}

// `when` written in `format` (formatFor's), in the pieces a line may break between, which join
// back into its words: the date with the words that follow it ("Dec 7, 2026, "), then the time
// ("5:26 AM EST"). One piece for the time alone, or a style that does not write the whole date
// first.
function momentParts(format, when) {
  const parts = partsOf(format, when);
  const last = parts.findLastIndex((part) => dateFields.has(part.type));
  const cut = last + 2; // past the literal after the date
  const whole = [joined(parts)];
  if (last < 0 || parts[last + 1]?.type !== "literal" || cut >= parts.length) return whole;
  const dateFirst = parts.slice(0, cut).every((part) => part.type === "literal" || dateFields.has(part.type));
  return dateFirst ? [joined(parts.slice(0, cut)), joined(parts.slice(cut))] : whole;
}

function nowrap(words) {
  const span = document.createElement("span");
  span.className = "nowrap";
  span.textContent = words;
  return span;
}

// Writes `when` into `element` (a <time>) as the server does (apps/core/moments.py): the date
// and the time each in a span.nowrap, the space after the date between them, and a time alone
// in one, so a narrow place breaks the moment there alone; a style momentParts cannot split is
// left as it is. Its text is localMoment's.
export function writeMoment(element, when, form = "datetime") {
  // One choice of format for both the pieces and their spans (the reader's day is read once).
  const format = formatFor(when, form);
  const pieces = momentParts(format, when);
  if (pieces.length === 1) {
    element.replaceChildren(format === forms.time ? nowrap(pieces[0]) : pieces[0]);
    return;
  }
  const [day, clock] = pieces;
  const kept = day.trimEnd();
  element.replaceChildren(nowrap(kept), day.slice(kept.length), nowrap(clock));
}
