// Server-written times (<time datetime data-local>) in the reader's own zone, in the style the
// room's timeline uses: "5:26 AM EST", "Dec 7, 2026, 5:26 AM EST". The page says them in its
// zone (UTC), which stays as the text without scripts and as the tooltip here. data-local names
// the form: "datetime", or "time", which gives the date too when the reader's day differs from
// the day it falls on (the page chose "time" for the server's today). There is no date-alone
// form: an instant's day depends on the zone, and a reader west of UTC would read a midnight
// UTC boundary as the day before with nothing to say why.
import { isMomentForm, writeMoment } from "./moments.js";

document.querySelectorAll("time[datetime][data-local]").forEach((element) => {
  const when = new Date(element.getAttribute("datetime"));
  const form = element.dataset.local;
  if (isNaN(when.getTime()) || !isMomentForm(form)) return;
  element.title = element.textContent.trim();
  writeMoment(element, when, form);
});
