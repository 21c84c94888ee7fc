// Ordering questions: move items with buttons, the keyboard (Alt+Up, Alt+Down) or by dragging,
// instead of choosing each item's place in a select. The selects stay in the form, kept in
// step with the list, so the server reads the same fields with or without this file.
(function () {
  "use strict";

  function items(list) {
    return Array.prototype.filter.call(list.children, function (node) { return node.hasAttribute("data-item"); });
  }

  function textOf(item) {
    return item.querySelector(".item-text").textContent;
  }

  // A text of the list's data-text-<name> attribute, in the page's language, with its {item},
  // {place} and {count} filled in; the English one when the page gives none.
  function say(list, name, english, values) {
    var text = list.getAttribute("data-text-" + name) || english;
    return text.replace(/\{(\w+)\}/g, function (whole, key) {
      return Object.prototype.hasOwnProperty.call(values, key) ? String(values[key]) : whole;
    });
  }

  // Each select takes the place its item now has; buttons at the ends are disabled.
  function renumber(list) {
    var all = items(list);
    all.forEach(function (item, index) {
      item.querySelector("select").value = String(index + 1);
      item.querySelector(".place").textContent = String(index + 1);
      item.querySelector("[data-move='up']").disabled = index === 0;
      item.querySelector("[data-move='down']").disabled = index === all.length - 1;
    });
  }

  function announce(list, item) {
    var status = list.parentNode.querySelector("[data-ordering-status]");
    var all = items(list);
    if (status) {
      status.textContent = say(list, "moved", "“{item}” is now {place} of {count}.",
        { item: textOf(item), place: all.indexOf(item) + 1, count: all.length });
    }
  }

  function move(list, item, step) {
    var all = items(list);
    var target = all.indexOf(item) + step;
    if (target < 0 || target >= all.length) { return; }
    if (step < 0) { list.insertBefore(item, all[target]); } else { list.insertBefore(item, all[target].nextSibling); }
    renumber(list);
    announce(list, item);
  }

  function button(direction, label) {
    var node = document.createElement("button");
    node.type = "button";
    node.className = "move";
    node.setAttribute("data-move", direction);
    node.setAttribute("aria-label", label);
    node.textContent = direction === "up" ? "↑" : "↓";
    return node;
  }

  // Dragging by pointer (mouse, pen or finger) from the item's handle.
  function enableDragging(list) {
    var dragged = null;
    list.addEventListener("pointerdown", function (event) {
      var handle = event.target.closest(".handle");
      if (!handle) { return; }
      dragged = handle.closest("[data-item]");
      dragged.classList.add("dragging");
      handle.setPointerCapture(event.pointerId);
      event.preventDefault();
    });
    list.addEventListener("pointermove", function (event) {
      if (!dragged) { return; }
      var over = document.elementFromPoint(event.clientX, event.clientY);
      var target = over && over.closest("[data-item]");
      if (!target || target === dragged || target.parentNode !== list) { return; }
      var box = target.getBoundingClientRect();
      list.insertBefore(dragged, event.clientY < box.top + box.height / 2 ? target : target.nextSibling);
      renumber(list);
    });
    function drop() {
      if (!dragged) { return; }
      dragged.classList.remove("dragging");
      announce(list, dragged);
      dragged = null;
    }
    list.addEventListener("pointerup", drop);
    list.addEventListener("pointercancel", drop);
  }

  function enhance(list) {
    // Start from the places the selects hold (the form may come back with an error).
    items(list)
      .sort(function (a, b) { return a.querySelector("select").value - b.querySelector("select").value; })
      .forEach(function (item) { list.appendChild(item); });
    items(list).forEach(function (item) {
      var text = textOf(item);
      var handle = document.createElement("span");
      handle.className = "handle";
      handle.setAttribute("aria-hidden", "true");
      handle.textContent = "⠿";
      var place = document.createElement("span");
      place.className = "place number";
      place.setAttribute("aria-hidden", "true");
      var controls = document.createElement("span");
      controls.className = "moves";
      controls.appendChild(button("up", say(list, "up", "Move “{item}” up", { item: text })));
      controls.appendChild(button("down", say(list, "down", "Move “{item}” down", { item: text })));
      item.insertBefore(place, item.firstChild);
      item.insertBefore(handle, item.firstChild);
      item.appendChild(controls);
    });
    list.classList.add("enhanced");
    list.addEventListener("click", function (event) {
      var control = event.target.closest("[data-move]");
      if (!control) { return; }
      var item = control.closest("[data-item]");
      move(list, item, control.getAttribute("data-move") === "up" ? -1 : 1);
      // Keep the focus on the button that was pressed, or its twin once at an end.
      var again = item.querySelector("[data-move='" + control.getAttribute("data-move") + "']");
      (again.disabled ? item.querySelector(".move:not([disabled])") : again).focus();
    });
    list.addEventListener("keydown", function (event) {
      if (!event.altKey || (event.key !== "ArrowUp" && event.key !== "ArrowDown")) { return; }
      var item = event.target.closest("[data-item]");
      if (!item) { return; }
      event.preventDefault();
      move(list, item, event.key === "ArrowUp" ? -1 : 1);
      event.target.focus();
    });
    enableDragging(list);
    renumber(list);
  }

  function enhanceAll(root) {
    Array.prototype.forEach.call((root || document).querySelectorAll("[data-ordering]:not(.enhanced)"), enhance);
  }

  document.addEventListener("DOMContentLoaded", function () { enhanceAll(document); });
  // Live pages redraw their question without reloading: they ask for this again.
  window.quizOrdering = { enhance: enhanceAll };
})();
