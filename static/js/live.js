// Live session screens: follow the session's event stream and redraw when it changes.
// Without JavaScript the pages reload themselves instead (see the noscript refresh).
//
// When a question opens, a phone builds the answer form from the event's data and sends the
// answer in the background: the whole class answers within seconds, and none of them then
// needs to ask the server for a page. Other changes redraw the page from the server.
//
// On the host's screen, keys press the host's buttons (see hostKeys), and a question that
// closed by itself goes on to its reveal. Both press the buttons a host would click, so that
// without JavaScript the same buttons do the same.
(function () {
  "use strict";

  // The words of what this script draws, in English; the page gives them in its own language
  // (data-text-* on the session's root, see templates/live/), "{name}" standing for a value.
  var ENGLISH = {
    progress: "Question {number} of {count}",
    "seconds-left-one": "{n} s left",
    "seconds-left-other": "{n} s left",
    submit: "Submit answer",
    choose: "Choose an answer.",
    received: "Answer received",
    waiting: "Waiting for the host to reveal the answer."
  };

  function text(name, values) {
    var root = document.querySelector("[data-live-events]");
    var template = (root && root.getAttribute("data-text-" + name)) || ENGLISH[name] || "";
    return template.replace(/\{(\w+)\}/g, function (marker, key) {
      return values && key in values ? String(values[key]) : marker;
    });
  }

  // The page's words for ``count`` of a count ``name``: its "-one" or its "-other" text, as the
  // page's language chooses (with English's rule where the browser knows no other).
  function countText(name, count) {
    var rules = window.Intl && Intl.PluralRules ? new Intl.PluralRules(document.documentElement.lang || "en") : null;
    var one = rules ? rules.select(count) === "one" : count === 1;
    return text(name + (one ? "-one" : "-other"));
  }

  // Put ``count`` in ``container``'s sentence: the number in ``value`` (an element of it), the
  // words around it from the page's texts. Without those, the number alone changes.
  function showCount(container, value, name, count) {
    value.textContent = String(count);
    var template = countText(name, count);
    if (!template || template.indexOf("{n}") === -1) { return; }
    var around = template.split("{n}");
    container.textContent = "";
    container.appendChild(document.createTextNode(around[0]));
    container.appendChild(value);
    container.appendChild(document.createTextNode(around.slice(1).join("{n}")));
  }

  var countdownTimer = null;

  function startCountdown() {
    if (countdownTimer) { clearInterval(countdownTimer); countdownTimer = null; }
    var element = document.querySelector("[data-countdown]");
    if (!element) { return; }
    var endsAt = Date.now() + parseFloat(element.getAttribute("data-seconds-left")) * 1000;
    var words = element.querySelector("[data-countdown-text]");
    var value = element.querySelector("[data-countdown-value]");
    var shown = null;
    // The projector's bar shrinks smoothly; the seconds alone need only a few updates a second.
    var bar = element.querySelector("[data-countdown-bar]");
    function tick() {
      var exact = Math.max(0, (endsAt - Date.now()) / 1000);
      var left = Math.ceil(exact);
      if (left !== shown) {
        shown = left;
        showCount(words, value, "seconds-left", left);
      }
      if (bar) {
        bar.value = exact;
        element.classList.toggle("urgent", left <= 5);
      }
      if (left === 0 && countdownTimer) { clearInterval(countdownTimer); countdownTimer = null; }
    }
    countdownTimer = setInterval(tick, bar ? 100 : 250);
    tick();
  }

  // The host's screen ---------------------------------------------------------------------------

  // Whether a button was pressed on this page: the next page is on its way, and a second key
  // pressed meanwhile would skip a step (Next on the reveal, then Next on the leaderboard).
  var pressed = false;
  var pressedTimer = null;

  function press(button) {
    if (pressed) { return; }
    pressed = true;
    // Should the next page never come (the network failed), the keys work again.
    pressedTimer = setTimeout(function () { pressed = false; }, 5000);
    button.click();
  }

  function isTyping(target) {
    return Boolean(target) && (target.isContentEditable || /^(INPUT|TEXTAREA|SELECT)$/.test(target.tagName));
  }

  // The host's button whose aria-keyshortcuts lists ``key`` ("N", "ArrowRight"), if any.
  function buttonForKey(key) {
    var name = key.length === 1 ? key.toUpperCase() : key;
    var buttons = document.querySelectorAll("[data-live-events] button[aria-keyshortcuts]");
    for (var i = 0; i < buttons.length; i++) {
      if (buttons[i].getAttribute("aria-keyshortcuts").split(" ").indexOf(name) !== -1) { return buttons[i]; }
    }
    return null;
  }

  function hostKeys(event) {
    if (event.defaultPrevented || event.repeat || event.altKey || event.ctrlKey || event.metaKey || isTyping(event.target)) {
      return;
    }
    var button = buttonForKey(event.key);
    if (button) {
      event.preventDefault();
      press(button);
    }
  }

  // Once per question and tab, so that a reveal the server refused never repeats itself.
  function firstTry(key) {
    try {
      if (window.sessionStorage.getItem(key)) { return false; }
      window.sessionStorage.setItem(key, "1");
    } catch (error) { /* no storage: try anyway */ }
    return true;
  }

  // How long the screen says why a question closed ("Everyone answered") before it reveals
  // the answer by itself: a beat for the room to see it, and for a host about to press Reveal.
  var REVEAL_PAUSE = 2000;
  var revealTimer = null;

  function revealNow() {
    revealTimer = null;
    // The page as it is now: a redraw may have replaced it (or the question) meanwhile.
    var root = document.querySelector("[data-live-events][data-auto-reveal]");
    var reveal = root && root.querySelector('input[name="action"][value="reveal"]');
    if (reveal && firstTry("reveal:" + root.getAttribute("data-live-events") + ":" + root.getAttribute("data-position"))) {
      press(reveal.form.querySelector("button"));
    }
  }

  // What the host's screen does beyond the server's page: show the keys' hint and what is
  // coming, and reveal a question that closed by itself.
  function enhanceHost() {
    var root = document.querySelector("[data-live-events]");
    if (!root || root.hasAttribute("data-answer-url")) { return; }
    pressed = false;
    if (pressedTimer) { clearTimeout(pressedTimer); pressedTimer = null; }
    root.querySelectorAll("[data-shortcuts], [data-auto-reveal-note]").forEach(function (element) { element.hidden = false; });
    if (revealTimer) { clearTimeout(revealTimer); revealTimer = null; }
    if (root.hasAttribute("data-auto-reveal")) { revealTimer = setTimeout(revealNow, REVEAL_PAUSE); }
  }

  function focusHeading(container) {
    var heading = container.querySelector("h1");
    if (heading) { heading.setAttribute("tabindex", "-1"); heading.focus({ preventScroll: true }); }
  }

  // Whether the page in ``next`` shows an older version of the session than ``main`` does:
  // changes that come close together redraw twice, and the answers may come back in either order.
  function older(next, main) {
    var coming = next.querySelector("[data-version]");
    var shown = main.querySelector("[data-version]");
    return Boolean(coming && shown) && Number(coming.getAttribute("data-version")) < Number(shown.getAttribute("data-version"));
  }

  function redraw() {
    fetch(window.location.href, { headers: { Accept: "text/html" }, credentials: "same-origin" })
      .then(function (response) { return response.text(); })
      .then(function (html) {
        var next = new DOMParser().parseFromString(html, "text/html").querySelector("main");
        var main = document.querySelector("main");
        if (next && main && !older(next, main)) {
          main.replaceWith(next);
          startCountdown();
          bindAnswerForm();
          enhanceHost();
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
    var words = element("span", { "class": "countdown-text", "data-countdown-text": "" });
    showCount(words, element("span", { "data-countdown-value": "" }), "seconds-left", Math.ceil(question.seconds_left));
    timer.appendChild(words);
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
    form.appendChild(element("button", { type: "submit" }, text("submit")));
    form.addEventListener("submit", submitAnswer);

    var progress = element("p", { "class": "progress-label" }, text("progress", { number: data.position, count: question.count }));
    var meta = root.querySelector(".meta");
    root.textContent = "";
    if (meta) { root.appendChild(meta); }
    root.appendChild(progress);
    root.appendChild(form);
    root.setAttribute("data-state", data.state);
    root.setAttribute("data-position", String(data.position));
    root.setAttribute("data-version", String(data.version));
    startCountdown();
    focusHeading(root);
  }

  function submitAnswer(event) {
    var form = event.target;
    event.preventDefault();
    if (form.querySelector('input[name="choice"]') && !form.querySelector('input[name="choice"]:checked')) {
      var message = form.querySelector(".errors") || element("p", { "class": "errors", role: "alert" });
      message.textContent = text("choose");
      form.querySelector("fieldset").appendChild(message);
      form.querySelector('input[name="choice"]').focus();
      return;
    }
    var root = form.closest("[data-live-events]");
    fetch(form.action, { method: "POST", body: new FormData(form), credentials: "same-origin", redirect: "manual" })
      .then(function (response) {
        // A redirect (opaque here) means the answer was recorded; anything else, show the server's page.
        if (response.type === "opaqueredirect" || response.status === 303) {
          showStatus(root, text("received"), text("waiting"));
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
    if (root && !root.hasAttribute("data-answer-url")) {
      document.addEventListener("keydown", hostKeys);
      enhanceHost();
    }
    if (!root || !window.EventSource) { return; }
    var source = new EventSource(root.getAttribute("data-live-events"));
    source.addEventListener("change", function (event) {
      var current = document.querySelector("[data-live-events]");
      var data = JSON.parse(event.data);
      if (data.state === "finished") { source.close(); }
      // The page names the version it shows: the stream's first event, on connecting, is
      // usually that one, and redrawing it would only flicker.
      if (current && current.getAttribute("data-version") === String(data.version)) { return; }
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
    });
    source.addEventListener("answers", function (event) {
      var counter = document.querySelector("[data-answered]");
      if (counter) { showCount(counter.parentNode, counter, "answered", parseInt(event.data, 10)); }
    });
  });
})();
