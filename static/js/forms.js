// Page-wide form behaviour, kept out of the markup (the pages allow no inline scripts):
// - form[data-confirm]: ask before a submit that cannot be undone; cancelling sends nothing.
//   A question that names a moment carries it as an ISO stamp in [data-confirm-moment] and in
//   its text where the moment stands; it is said in the reader's own zone, as the page's
//   <time>s are (moments.js), not in the page's.
// - form[data-progress]: a form that calls a rules server may take a second, so its button
//   is disabled and its [data-progress-text] shown once it is sent.
// - a refused form comes back as a new page: take the reader to what to fix, not the top.
// - a form whose <form> tag the page cannot write (the admin's) takes these attributes from a
//   [data-marks-form] element at its top.
// - button[data-copy]: copies the value of the field whose id it names and says so in that
//   field's [data-copy-status]; where the clipboard refuses, the text is left selected.
(function () {
  "use strict";
  document.querySelectorAll("form > [data-marks-form]").forEach(function (marker) {
    Array.prototype.forEach.call(marker.attributes, function (attr) {
      if (attr.name !== "data-marks-form" && attr.name.indexOf("data-") === 0) {
        marker.parentElement.setAttribute(attr.name, attr.value);
      }
    });
  });

  // moments.js is a module, which this classic script can only load by import(): only on a
  // page whose questions name a moment. If it fails to load, the stamp stays as written.
  var localMoment = null;
  var momentsReady = !document.querySelector("form[data-confirm-moment]");
  var momentsLoaded = momentsReady ? Promise.resolve() : import("./moments.js").then(
    function (moments) { localMoment = moments.localMoment; },
    function () {}
  ).then(function () { momentsReady = true; });

  function question(form) {
    var stamp = form.dataset.confirmMoment;
    if (!stamp || !localMoment) { return form.dataset.confirm; }
    return form.dataset.confirm.split(stamp).join(localMoment(new Date(stamp)));
  }

  // Capture: the question comes before any other submit handler of the form.
  document.addEventListener("submit", function (event) {
    var form = event.target;
    if (!form.matches("form[data-confirm]")) { return; }
    if (!momentsReady && form.dataset.confirmMoment) {
      // Sent before moments.js came: asked (and sent, by the same button) once it has.
      event.preventDefault();
      event.stopImmediatePropagation();
      momentsLoaded.then(function () { form.requestSubmit(event.submitter); });
      return;
    }
    if (!window.confirm(question(form))) {
      event.preventDefault();
      event.stopImmediatePropagation();
    }
  }, true);

  document.addEventListener("submit", function (event) {
    var form = event.target;
    if (event.defaultPrevented || !form.matches("form[data-progress]")) { return; }
    // Sent once: a second send (a double click, Enter pressed again) would do it twice.
    if (form.dataset.sent) { event.preventDefault(); return; }
    form.dataset.sent = "true";
    var buttons = form.querySelectorAll("button[type=submit], input[type=submit]");
    var text = form.querySelector("[data-progress-text]");
    // After this event: the clicked button's name and value still go with the form.
    setTimeout(function () {
      Array.prototype.forEach.call(buttons, function (button) { button.disabled = true; });
    }, 0);
    if (text) { text.hidden = false; }
  });

  // Back to a sent form from the browser's cache: it can be sent again.
  window.addEventListener("pageshow", function (event) {
    if (!event.persisted) { return; }
    document.querySelectorAll("form[data-sent]").forEach(function (form) {
      delete form.dataset.sent;
      form.querySelectorAll("button[type=submit], input[type=submit]").forEach(function (button) {
        button.disabled = false;
      });
      var text = form.querySelector("[data-progress-text]");
      if (text) { text.hidden = true; }
    });
  });

  document.addEventListener("click", function (event) {
    var button = event.target.closest("button[data-copy]");
    if (!button) { return; }
    var field = document.getElementById(button.dataset.copy);
    if (!field) { return; }
    var status = document.querySelector("[data-copy-status=\"" + button.dataset.copy + "\"]");
    function said(copied) {
      if (status) { status.textContent = copied ? button.dataset.copied : button.dataset.copyFailed; }
    }
    function selectedCopy() {
      field.focus();
      field.select();
      try { return document.execCommand("copy"); } catch (error) { return false; }
    }
    if (status) { status.textContent = ""; }
    if (navigator.clipboard && window.isSecureContext) {
      navigator.clipboard.writeText(field.value).then(
        function () { said(true); },
        function () { said(selectedCopy()); }
      );
    } else {
      said(selectedCopy());
    }
  });

  var target = document.querySelector(
    "main form[data-focus-error] [aria-invalid=true], main form[data-focus-error] .errorlist.nonfield"
  );
  if (target) {
    if (!target.matches("input, select, textarea")) { target.tabIndex = -1; }
    target.focus();
  }
})();
