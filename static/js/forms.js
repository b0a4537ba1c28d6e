// Page-wide form behaviour, kept out of the markup (the pages allow no inline scripts):
// - form[data-confirm]: ask before a submit that cannot be undone; cancelling sends nothing.
// - form[data-progress]: a form that calls a rules server may take a second, so its button
//   is disabled and its [data-progress-text] shown once it is sent.
// - a refused form comes back as a new page: take the reader to what to fix, not the top.
(function () {
  "use strict";
  // Capture: the question comes before any other submit handler of the form.
  document.addEventListener("submit", function (event) {
    var form = event.target;
    if (form.matches("form[data-confirm]") && !window.confirm(form.dataset.confirm)) {
      event.preventDefault();
      event.stopImmediatePropagation();
    }
  }, true);

  document.addEventListener("submit", function (event) {
    var form = event.target;
    if (event.defaultPrevented || !form.matches("form[data-progress]")) { return; }
    var button = form.querySelector("button[type=submit]");
    var text = form.querySelector("[data-progress-text]");
    if (button) { setTimeout(function () { button.disabled = true; }, 0); }
    if (text) { text.hidden = false; }
  });

  var target = document.querySelector(
    "main form[data-focus-error] [aria-invalid=true], main form[data-focus-error] .errorlist.nonfield"
  );
  if (target) {
    if (!target.matches("input, select, textarea")) { target.tabIndex = -1; }
    target.focus();
  }
})();
