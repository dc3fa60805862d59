// Digno Studio's script, written by hand (no framework): the counters of limited texts, the
// check of a form as it is typed (its problems shown at their fields), the overview's filter
// as the name is typed, and Ctrl+S to save. Without it every page still works: forms are
// posted and answered with pages.
(function () {
  "use strict";
  var token = document.body.getAttribute("data-token") || "";

  function debounce(work, ms) {
    var timer = null;
    return function () { clearTimeout(timer); timer = setTimeout(work, ms); };
  }

  // Counters: "12 / 60", marked when over the limit.
  function count(field) {
    var limit = parseInt(field.getAttribute("data-limit"), 10);
    var counter = document.getElementById("c" + field.id.slice(1));
    if (!limit || !counter) return;
    var length = Array.from(field.value).length;
    counter.textContent = length + " / " + limit;
    counter.classList.toggle("over", length > limit);
  }

  var form = document.getElementById("entity-form");
  if (form) {
    var fields = form.querySelectorAll("[data-limit]");
    fields.forEach(count);
    var check = debounce(function () {
      var body = new URLSearchParams(new FormData(form));
      fetch(form.getAttribute("data-check"), {
        method: "POST", body: body, headers: { "X-Studio-Token": token }, credentials: "same-origin"
      }).then(function (response) { return response.ok ? response.json() : null; }).then(function (answer) {
        if (answer) show(answer);
      }).catch(function () {});
    }, 150);
    form.addEventListener("input", function (event) {
      if (event.target.hasAttribute("data-limit")) count(event.target);
      check();
    });
    document.addEventListener("keydown", function (event) {
      if ((event.ctrlKey || event.metaKey) && event.key === "s") { event.preventDefault(); form.requestSubmit(); }
    });
  }

  // Lists of lines (ingredients, pictures, products sold): added, removed and moved by their
  // buttons (the keyboard's way, the focus kept on the line moved) or by dragging a line.
  var added = 0;
  function rowChanged() { if (form) form.dispatchEvent(new Event("input", { bubbles: true })); }
  document.querySelectorAll("fieldset.list").forEach(function (list) {
    var rows = list.querySelector("ol.rows");
    var template = list.querySelector("template.new-row");
    list.querySelector("button.add").addEventListener("click", function () {
      added += 1;
      var row = template.content.firstElementChild.cloneNode(true);
      row.querySelectorAll("[id]").forEach(function (element) { element.id = element.id.replace(/-0(-|$)/, "-n" + added + "$1"); });
      row.querySelectorAll("label[for]").forEach(function (label) { label.htmlFor = label.htmlFor.replace(/-0(-|$)/, "-n" + added + "$1"); });
      rows.appendChild(row);
      var first = row.querySelector("input:not([type=hidden])");
      if (first) first.focus();
      rowChanged();
    });
    rows.addEventListener("click", function (event) {
      var button = event.target.closest("button");
      if (!button) return;
      var row = button.closest("li.row");
      if (button.classList.contains("remove")) {
        var next = row.nextElementSibling || row.previousElementSibling;
        row.remove();
        (next ? next.querySelector("button.remove") : list.querySelector("button.add")).focus();
      } else if (button.classList.contains("up") && row.previousElementSibling) {
        rows.insertBefore(row, row.previousElementSibling);
        button.focus();
      } else if (button.classList.contains("down") && row.nextElementSibling) {
        rows.insertBefore(row.nextElementSibling, row);
        button.focus();
      } else {
        return;
      }
      rowChanged();
    });
    var dragged = null;
    rows.addEventListener("dragstart", function (event) {
      dragged = event.target.closest("li.row");
      if (event.dataTransfer) { event.dataTransfer.effectAllowed = "move"; event.dataTransfer.setData("text/plain", ""); }
    });
    rows.addEventListener("dragover", function (event) { if (dragged) event.preventDefault(); });
    rows.addEventListener("drop", function (event) {
      var target = event.target.closest("li.row");
      event.preventDefault();
      if (!dragged || !target || target === dragged) return;
      var before = event.clientY < target.getBoundingClientRect().top + target.offsetHeight / 2;
      rows.insertBefore(dragged, before ? target : target.nextElementSibling);
      dragged = null;
      rowChanged();
    });
  });

  // The answer of a check: each field's problems, the entity's, and whether it can be released.
  function show(answer) {
    form.querySelectorAll(".field, fieldset.list").forEach(function (field) {
      var list = field.querySelector(".field-problems");
      var control = field.querySelector("input:not([type]), input[type=number], input[type=date], input[type=text], textarea");
      var problems = answer.fields[field.getAttribute("data-key") || field.getAttribute("data-list")] || [];
      fill(list, problems);
      if (control) {
        if (problems.some(function (p) { return p.severity === "error"; })) control.setAttribute("aria-invalid", "true");
        else control.removeAttribute("aria-invalid");
      }
    });
    fill(document.getElementById("entity-problems"), answer.entity);
    var release = document.getElementById("release");
    if (release) { release.textContent = answer.release; release.classList.toggle("errors", answer.errors > 0); }
  }

  function fill(list, problems) {
    if (!list) return;
    list.textContent = "";
    problems.forEach(function (problem) {
      var item = document.createElement("li");
      item.className = problem.severity;
      item.textContent = problem.message;
      list.appendChild(item);
    });
  }

  // The overview's filter: the lists for the name typed so far, from the studio.
  var filter = document.getElementById("filter");
  var results = document.getElementById("results");
  if (filter && results) {
    var asked = 0;
    filter.addEventListener("input", debounce(function () {
      var number = ++asked;
      fetch("/_studio/results?q=" + encodeURIComponent(filter.value), { credentials: "same-origin" })
        .then(function (response) { return response.ok ? response.text() : null; })
        .then(function (html) {
          if (html === null || number !== asked) return;
          results.innerHTML = html;
          history.replaceState(null, "", filter.value ? "?q=" + encodeURIComponent(filter.value) : "/_studio/");
        }).catch(function () {});
    }, 50));
  }
})();
