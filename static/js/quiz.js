// Keyboard play: number keys pick a choice, Enter submits, and Enter on feedback goes on; times
// shown in the reader's own time zone. Everything works without this file.
(function () {
  "use strict";

  function isTyping(target) {
    return target && (target.tagName === "INPUT" && target.type === "text" || target.tagName === "TEXTAREA" || target.tagName === "SELECT");
  }

  document.addEventListener("DOMContentLoaded", function () {
    var form = document.querySelector("form[data-keyboard-choices]");
    if (form) {
      var hint = form.querySelector(".keyboard-hint");
      if (hint) { hint.hidden = false; }
      var inputs = form.querySelectorAll('input[name="choice"]');
      document.addEventListener("keydown", function (event) {
        if (event.altKey || event.ctrlKey || event.metaKey || isTyping(event.target)) { return; }
        var number = parseInt(event.key, 10);
        if (number >= 1 && number <= inputs.length) {
          var input = inputs[number - 1];
          input.checked = input.type === "checkbox" ? !input.checked : true;
          input.focus();
          event.preventDefault();
        } else if (event.key === "Enter" && event.target.tagName !== "BUTTON" && event.target.tagName !== "A") {
          event.preventDefault();
          form.requestSubmit();
        }
      });
    }
    // Times in the reader's own time zone, written the way the page's language writes them; the
    // page gives them in UTC.
    var language = document.documentElement.lang || undefined;
    document.querySelectorAll("time[data-local-time]").forEach(function (time) {
      var when = new Date(time.getAttribute("datetime"));
      if (!isNaN(when)) {
        time.textContent = when.toLocaleString(language, { dateStyle: "medium", timeStyle: "short", timeZoneName: "short" });
      }
    });
    // A deadline is entered in the browser's own time zone unless the host picks another.
    var zones = document.querySelector("select[data-browser-time-zone]");
    var browserZone = window.Intl && Intl.DateTimeFormat().resolvedOptions().timeZone;
    if (zones && browserZone) {
      for (var i = 0; i < zones.options.length; i++) {
        if (zones.options[i].value === browserZone) { zones.value = browserZone; break; }
      }
    }
    var next = document.querySelector("a[data-next]");
    if (next) {
      document.addEventListener("keydown", function (event) {
        if (event.key === "Enter" && !isTyping(event.target) && event.target.tagName !== "A" && event.target.tagName !== "BUTTON") {
          event.preventDefault();
          next.click();
        }
      });
    }
  });
})();
