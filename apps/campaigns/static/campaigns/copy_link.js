// "Copy link" buttons: [data-copy-target] names the element whose text is copied and
// [data-copy-status] the polite live region that says what happened. Where the clipboard
// API is missing or refused (older phones, plain http), the text is selected instead so
// the reader can copy it from the browser's own menu.
(function () {
  "use strict";

  function selectText(element) {
    var range = document.createRange();
    range.selectNodeContents(element);
    var selection = window.getSelection();
    selection.removeAllRanges();
    selection.addRange(range);
  }

  function announce(status, text) {
    // Cleared first so a second copy is announced again.
    status.textContent = "";
    window.setTimeout(function () { status.textContent = text; }, 50);
  }

  function fallback(button, source, status) {
    selectText(source);
    var copied = false;
    try {
      copied = document.execCommand("copy");
    } catch (e) {
      copied = false;
    }
    announce(status, copied ? button.dataset.copiedText : button.dataset.selectedText);
  }

  document.querySelectorAll("button[data-copy-target]").forEach(function (button) {
    var source = document.getElementById(button.dataset.copyTarget);
    var status = document.getElementById(button.dataset.copyStatus);
    if (!source || !status) { return; }
    button.hidden = false;
    button.addEventListener("click", function () {
      var text = source.textContent.trim();
      if (navigator.clipboard && navigator.clipboard.writeText) {
        navigator.clipboard.writeText(text).then(
          function () { announce(status, button.dataset.copiedText); },
          function () { fallback(button, source, status); }
        );
      } else {
        fallback(button, source, status);
      }
    });
  });
})();
