// Live session screens: follow the session's event stream and redraw when it changes.
// Without JavaScript the pages reload themselves instead (see the noscript refresh).
//
// When a question opens, a phone builds the answer form from the event's data and sends the
// answer in the background: the whole class answers within seconds, and none of them then
// needs to ask the server for a page. Other changes redraw the page from the server.
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

  function focusHeading(container) {
    var heading = container.querySelector("h1");
    if (heading) { heading.setAttribute("tabindex", "-1"); heading.focus({ preventScroll: true }); }
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
          bindAnswerForm();
          if (window.quizOrdering) { window.quizOrdering.enhance(next); }
        }
      });
  }

  function element(tag, attributes, text) {
    var node = document.createElement(tag);
    Object.keys(attributes || {}).forEach(function (name) { node.setAttribute(name, attributes[name]); });
    if (text !== undefined) { node.textContent = text; }
    return node;
  }

  function showStatus(root, heading, message) {
    var form = root.querySelector("form.question");
    var box = element("div");
    box.appendChild(element("h1", {}, heading));
    box.appendChild(element("p", { role: "status" }, message));
    (form || root).replaceWith(box);
    focusHeading(box);
  }

  // The same markup as templates/live/student.html renders for an open question.
  function renderQuestion(root, data) {
    var question = data.question;
    var token = document.querySelector('meta[name="csrf-token"]');
    var form = element("form", { method: "post", action: root.getAttribute("data-answer-url"), "class": "question", novalidate: "" });
    form.appendChild(element("input", { type: "hidden", name: "csrf_token", value: token ? token.getAttribute("content") : "" }));
    // The question answered, so that the server refuses this form once another question is open.
    form.appendChild(element("input", { type: "hidden", name: "position", value: String(data.position) }));
    var fieldset = element("fieldset");
    var legend = element("legend");
    legend.appendChild(element("h1", {}, question.prompt));
    fieldset.appendChild(legend);
    var timer = element("p", { "class": "countdown", "data-countdown": "", "data-seconds-left": String(question.seconds_left), role: "timer", "aria-live": "off" });
    timer.appendChild(element("span", { "data-countdown-value": "" }, String(Math.ceil(question.seconds_left))));
    timer.appendChild(document.createTextNode(" s left"));
    fieldset.appendChild(timer);
    fieldset.appendChild(element("p", { "class": "hint" }, question.instruction));
    var list = element("ol", { "class": "choices" });
    question.choices.forEach(function (text, index) {
      var number = String(index + 1);
      var item = element("li");
      item.appendChild(element("input", { type: question.multiple ? "checkbox" : "radio", name: "choice", id: "choice-" + number, value: number }));
      var label = element("label", { "for": "choice-" + number });
      label.appendChild(element("span", { "class": "number", "aria-hidden": "true" }, number));
      label.appendChild(document.createTextNode(" " + text));
      item.appendChild(label);
      list.appendChild(item);
    });
    fieldset.appendChild(list);
    form.appendChild(fieldset);
    form.appendChild(element("button", { type: "submit" }, "Submit answer"));
    form.addEventListener("submit", submitAnswer);

    var progress = element("p", { "class": "progress-label" }, "Question " + data.position + " of " + question.count);
    var meta = root.querySelector(".meta");
    root.textContent = "";
    if (meta) { root.appendChild(meta); }
    root.appendChild(progress);
    root.appendChild(form);
    root.setAttribute("data-state", data.state);
    root.setAttribute("data-position", String(data.position));
    startCountdown();
    focusHeading(root);
  }

  function submitAnswer(event) {
    var form = event.target;
    event.preventDefault();
    if (form.querySelector('input[name="choice"]') && !form.querySelector('input[name="choice"]:checked')) {
      var message = form.querySelector(".errors") || element("p", { "class": "errors", role: "alert" });
      message.textContent = "Choose an answer.";
      form.querySelector("fieldset").appendChild(message);
      form.querySelector('input[name="choice"]').focus();
      return;
    }
    var root = form.closest("[data-live-events]");
    fetch(form.action, { method: "POST", body: new FormData(form), credentials: "same-origin", redirect: "manual" })
      .then(function (response) {
        // A redirect (opaque here) means the answer was recorded; anything else, show the server's page.
        if (response.type === "opaqueredirect" || response.status === 303) {
          showStatus(root, "Answer received", "Waiting for the host to reveal the answer.");
        } else {
          redraw();
        }
      })
      .catch(function () { form.submit(); });
  }

  // A phone's answer form, as the server drew it, sends its answer in the background too.
  function bindAnswerForm() {
    var root = document.querySelector("[data-live-events]");
    var openForm = document.querySelector("form.question");
    if (openForm && root && root.hasAttribute("data-answer-url")) { openForm.addEventListener("submit", submitAnswer); }
  }

  document.addEventListener("DOMContentLoaded", function () {
    var root = document.querySelector("[data-live-events]");
    startCountdown();
    bindAnswerForm();
    if (!root || !window.EventSource) { return; }
    var source = new EventSource(root.getAttribute("data-live-events"));
    source.addEventListener("change", function (event) {
      var current = document.querySelector("[data-live-events]");
      var data = JSON.parse(event.data);
      // Students keep their page (and a half-chosen answer) unless the state really moved;
      // the host's page also shows arrivals in the lobby, so it redraws on every change.
      var moved = !current || current.getAttribute("data-state") !== data.state ||
        current.getAttribute("data-position") !== String(data.position);
      // Phones draw a question of choices themselves; other kinds' forms come from the server.
      if (moved && data.question && data.question.picks && current && current.hasAttribute("data-answer-url")) {
        renderQuestion(current, data);
      } else if (moved || (current && current.getAttribute("data-refresh") === "always")) {
        redraw();
      }
      if (data.state === "finished") { source.close(); }
    });
    source.addEventListener("answers", function (event) {
      var counter = document.querySelector("[data-answered]");
      if (counter) { counter.textContent = event.data; }
    });
  });
})();
