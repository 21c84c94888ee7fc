// Live session screens: follow the session's event stream and redraw when it changes.
// Without JavaScript the pages reload themselves instead (see the noscript refresh).
(function () {
  "use strict";

  var countdownTimer = null;

  function startCountdown() {
    if (countdownTimer) { clearInterval(countdownTimer); countdownTimer = null; }
    var element = document.querySelector("[data-countdown]");
    if (!element) { return; }
    var endsAt = Date.now() + parseFloat(element.getAttribute("data-seconds-left")) * 1000;
    var value = element.querySelector("[data-countdown-value]");
    countdownTimer = setInterval(function () {
      var left = Math.max(0, Math.ceil((endsAt - Date.now()) / 1000));
      value.textContent = String(left);
      if (left === 0) { clearInterval(countdownTimer); countdownTimer = null; }
    }, 250);
  }

  function redraw() {
    fetch(window.location.href, { headers: { Accept: "text/html" }, credentials: "same-origin" })
      .then(function (response) { return response.text(); })
      .then(function (html) {
        var next = new DOMParser().parseFromString(html, "text/html").querySelector("main");
        var main = document.querySelector("main");
        if (next && main) {
          main.replaceWith(next);
          startCountdown();
          var heading = next.querySelector("h1");
          if (heading) { heading.setAttribute("tabindex", "-1"); heading.focus({ preventScroll: true }); }
        }
      });
  }

  document.addEventListener("DOMContentLoaded", function () {
    var root = document.querySelector("[data-live-events]");
    startCountdown();
    if (!root || !window.EventSource) { return; }
    var source = new EventSource(root.getAttribute("data-live-events"));
    source.addEventListener("change", function (event) {
      var current = document.querySelector("[data-live-events]");
      var data = JSON.parse(event.data);
      // Students keep their page (and a half-chosen answer) unless the state really moved;
      // the host's page also shows arrivals in the lobby, so it redraws on every change.
      var moved = !current || current.getAttribute("data-state") !== data.state ||
        current.getAttribute("data-position") !== String(data.position);
      if (moved || (current && current.getAttribute("data-refresh") === "always")) { redraw(); }
      if (data.state === "finished") { source.close(); }
    });
    source.addEventListener("answers", function (event) {
      var element = document.querySelector("[data-answered]");
      if (element) { element.textContent = event.data; }
    });
  });
})();
