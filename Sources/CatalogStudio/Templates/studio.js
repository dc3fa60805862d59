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
    // Drafts: the form as typed is kept by the studio (a second after the last change, and as
    // the page is left), so that a closed tab or a crashed browser loses nothing; a save ends it.
    var kept = new URLSearchParams(new FormData(form)).toString(), saving = false;
    function keepDraft(beacon) {
      var body = new URLSearchParams(new FormData(form));
      if (saving || body.toString() === kept) return;
      kept = body.toString();
      if (beacon) { navigator.sendBeacon(form.getAttribute("data-draft"), body); return; }
      fetch(form.getAttribute("data-draft"), {
        method: "POST", body: body, headers: { "X-Studio-Token": token }, credentials: "same-origin", keepalive: true
      }).catch(function () {});
    }
    var keep = debounce(function () { keepDraft(false); }, 1000);
    form.addEventListener("submit", function () { saving = true; });
    window.addEventListener("pagehide", function () { keepDraft(true); });
    form.addEventListener("input", function (event) {
      if (event.target.hasAttribute("data-limit")) count(event.target);
      // What the app shows in a missing translation's place, until one is written.
      var holder = event.target.closest && event.target.closest(".field");
      var fallback = holder && holder.querySelector(".fallback");
      if (fallback) fallback.hidden = (event.target.value || event.target.textContent || "").trim() !== "";
      check();
      keep();
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
    var adding = list.querySelector("button.add");
    if (adding) adding.addEventListener("click", function () {
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
        var focus = next ? next.querySelector("button.remove") : list.querySelector("button.add, legend");
        if (focus) focus.focus();
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

  // Formatted text, edited as such: paragraphs, headings, lists, bold, italics and links to a
  // product or recipe, never tags. What it holds is written into its hidden field as the
  // content's markup at each change; a paste keeps only what the content allows.
  function escapeText(text) { return text.replace(/&/g, "&amp;").replace(/</g, "&lt;").replace(/>/g, "&gt;"); }
  function escapeAttribute(text) { return escapeText(text).replace(/"/g, "&quot;"); }

  // The content's markup of an editor's nodes (or a paste's), as the compiler reads it.
  function markup(root) {
    var out = "";
    function inline(node) {
      var text = "";
      node.childNodes.forEach(function (child) {
        if (child.nodeType === 3) { text += escapeText(child.nodeValue); return; }
        if (child.nodeType !== 1) return;
        var name = child.nodeName.toLowerCase();
        var inner = inline(child);
        if (name === "strong" || name === "b") text += inner ? "<strong>" + inner + "</strong>" : "";
        else if (name === "em" || name === "i") text += inner ? "<em>" + inner + "</em>" : "";
        else if (name === "br") text += " ";
        else if (child.getAttribute && child.getAttribute("data-link")) {
          var target = child.getAttribute("data-link").split(":");
          text += (target.length === 2 && (target[0] === "product" || target[0] === "recipe"))
            ? "<link " + target[0] + "=\"" + escapeAttribute(target[1]) + "\">" + inner + "</link>" : inner;
        } else text += inner;
      });
      return text;
    }
    var loose = "";
    function flush() { if (loose.trim()) out += "<p>" + loose + "</p>"; loose = ""; }
    function block(node) {
      node.childNodes.forEach(function (child) {
        var name = child.nodeType === 1 ? child.nodeName.toLowerCase() : "";
        if (child.nodeType === 3) { loose += escapeText(child.nodeValue); return; }
        if (child.nodeType !== 1) return;
        if (name === "p" || name === "div" || name === "blockquote" || name === "pre") {
          if (child.querySelector("p, div, ul, ol, h1, h2, h3, h4, h5, h6")) { flush(); block(child); return; }
          flush(); var words = inline(child); if (words.trim()) out += "<p>" + words + "</p>";
        } else if (name === "h1" || name === "h2") { flush(); out += "<h2>" + inline(child) + "</h2>"; }
        else if (/^h[3-6]$/.test(name)) { flush(); out += "<h3>" + inline(child) + "</h3>"; }
        else if (name === "ul" || name === "ol") {
          flush();
          var items = "";
          child.querySelectorAll(":scope > li").forEach(function (item) { items += "<li>" + inline(item) + "</li>"; });
          if (items) out += "<" + name + ">" + items + "</" + name + ">";
        } else if (/^(table|thead|tbody|tfoot|tr|td|th|section|article|main|body|header|footer|aside|nav|figure)$/.test(name)) { flush(); block(child); flush(); }
        else if (name === "br") { flush(); }
        else if (name === "script" || name === "style" || name === "head" || name === "title" || name === "meta") { /* nothing of it */ }
        else { var wrapper = document.createElement("span"); wrapper.appendChild(child.cloneNode(true)); loose += inline(wrapper); }
      });
    }
    block(root);
    flush();
    return out;
  }

  // Markup as the editor's nodes: the same elements, a link as marked words.
  function nodes(markupText) {
    var template = document.createElement("template");
    template.innerHTML = markupText.replace(/<link (product|recipe)="([^"]*)">/g, '<span class="link" data-link="$1:$2">').replace(/<\/link>/g, "</span>");
    return template.content;
  }

  document.querySelectorAll(".rich[contenteditable]").forEach(function (editor) {
    var field = editor.closest(".field");
    var hidden = field.querySelector("input.rich-value");
    var toolbar = field.querySelector(".toolbar");
    // The editor's last selection, kept while the toolbar has the focus.
    var kept = null;
    function store() { hidden.value = markup(editor); }
    function changed() { store(); editor.dispatchEvent(new Event("input", { bubbles: true })); }
    document.addEventListener("selectionchange", function () {
      var selection = window.getSelection();
      if (selection.rangeCount && editor.contains(selection.getRangeAt(0).commonAncestorContainer)) kept = selection.getRangeAt(0).cloneRange();
    });
    function restore() {
      editor.focus();
      if (!kept) return null;
      var selection = window.getSelection();
      selection.removeAllRanges();
      selection.addRange(kept);
      return kept;
    }
    editor.addEventListener("input", store);
    toolbar.addEventListener("click", function (event) {
      var button = event.target.closest("button[data-command]");
      if (!button) return;
      var command = button.getAttribute("data-command");
      var range = restore();
      if (command === "p" || command === "h2" || command === "h3") document.execCommand("formatBlock", false, command);
      else if (command === "ul") document.execCommand("insertUnorderedList");
      else if (command === "ol") document.execCommand("insertOrderedList");
      else if (command === "strong") document.execCommand("bold");
      else if (command === "em") document.execCommand("italic");
      else if (command === "link") {
        var target = toolbar.querySelector(".link-target").value.trim();
        if (!/^(product|recipe):[a-z0-9-]+$/.test(target) || !range || range.collapsed) return;
        var link = document.createElement("span");
        link.className = "link";
        link.setAttribute("data-link", target);
        link.appendChild(range.extractContents());
        range.insertNode(link);
      }
      changed();
    });
    editor.addEventListener("paste", function (event) {
      var data = event.clipboardData;
      if (!data) return;
      event.preventDefault();
      var html = data.getData("text/html");
      var cleaned = html ? markup(new DOMParser().parseFromString(html, "text/html").body)
        : data.getData("text/plain").split(/\r?\n\s*\r?\n/).map(function (part) {
          return part.trim() ? "<p>" + escapeText(part.trim().replace(/\s+/g, " ")) + "</p>" : "";
        }).join("");
      var pasted = nodes(cleaned);
      var selection = window.getSelection();
      if (!selection.rangeCount) return;
      var range = selection.getRangeAt(0);
      range.deleteContents();
      var last;
      if (pasted.childNodes.length === 1 && pasted.firstChild.nodeName === "P") {
        // One paragraph: its words where the caret is.
        var words = document.createDocumentFragment();
        while (pasted.firstChild.firstChild) words.appendChild(pasted.firstChild.firstChild);
        last = words.lastChild;
        range.insertNode(words);
      } else {
        // Blocks: after the block the caret is in.
        var block = range.startContainer;
        while (block && block.parentNode !== editor) block = block.parentNode;
        last = pasted.lastChild;
        if (block && block !== editor) editor.insertBefore(pasted, block.nextSibling); else editor.appendChild(pasted);
      }
      if (last) { range.setStartAfter(last); range.collapse(true); selection.removeAllRanges(); selection.addRange(range); }
      changed();
    });
  });
  window.dignoMarkup = markup;

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

  // Pickers (a product, a picture, a link's target): their suggestions are those matching what
  // is typed, asked of the studio, so that a form at 10,000 entities carries only the first few.
  var suggested = 0;
  var suggest = debounce(function () {
    var input = document.activeElement;
    var list = input && input.getAttribute && input.getAttribute("list");
    if (!list) return;
    var number = ++suggested;
    fetch("/_studio/suggest?list=" + encodeURIComponent(list) + "&q=" + encodeURIComponent(input.value), { credentials: "same-origin" })
      .then(function (response) { return response.ok ? response.text() : null; })
      .then(function (html) {
        var datalist = document.getElementById(list);
        if (html !== null && datalist && number === suggested) datalist.innerHTML = html;
      }).catch(function () {});
  }, 60);
  document.addEventListener("input", function (event) { if (event.target.getAttribute && event.target.getAttribute("list")) suggest(); });

  // A chosen reference's picture beside it: a picture's, or a product's icon.
  document.addEventListener("change", function (event) {
    var input = event.target;
    var list = input.getAttribute && input.getAttribute("list");
    if (list !== "pictures-list" && list !== "products-list") return;
    var holder = input.closest(".row, .choice");
    if (!holder) return;
    var image = holder.querySelector("img.thumb");
    if (!image) {
      image = document.createElement("img");
      image.className = "thumb";
      image.alt = "";
      image.width = 48;
      image.height = 48;
      image.hidden = true;
      holder.insertBefore(image, holder.querySelector(".cell") || input);
    }
    if (!input.value) { image.hidden = true; return; }
    image.onerror = function () { image.hidden = true; };
    image.onload = function () { image.hidden = false; };
    image.src = "/_studio/thumbnail?list=" + encodeURIComponent(list) + "&value=" + encodeURIComponent(input.value);
  });

  // Photos dropped on a picture field, or chosen: uploaded one after another (the file as the
  // request's body), then named in the field as the studio placed them under images/, shown at
  // once by their stand-in, with the metadata the app's copies leave out and the bytes they add.
  function element(tag, className, text) {
    var made = document.createElement(tag);
    if (className) made.className = className;
    if (text !== undefined) made.textContent = text;
    return made;
  }
  // `row`: a line of pictures the photo was dropped on, whose picture it replaces.
  function take(drop, file, row) {
    var status = drop.querySelector(".taken");
    status.textContent = drop.getAttribute("data-taking");
    status.classList.remove("error");
    var address = drop.getAttribute("data-upload") + "&name=" + encodeURIComponent(file.name);
    // One photo at a time is taken in or measured: while another is (503), asked again a
    // second later.
    function send(tries) {
      return fetch(address, {
        method: "POST", body: file, credentials: "same-origin",
        headers: { "X-Studio-Token": token, "Content-Type": file.type || "application/octet-stream" }
      }).then(function (response) {
        if (response.status === 503 && tries > 0) {
          return new Promise(function (resolve) { setTimeout(resolve, 1000); }).then(function () { return send(tries - 1); });
        }
        return response.json().then(function (answer) { return { ok: response.ok, answer: answer }; });
      });
    }
    return send(30).then(function (result) {
      var answer = result.answer;
      if (!result.ok) {
        status.textContent = answer.refusal || "";
        status.classList.add("error");
        return;
      }
      var holder, input;
      if (row) {
        holder = row;
        input = row.querySelector("input.reference");
      } else if (drop.hasAttribute("data-adds-row")) {
        var list = drop.closest("fieldset.list");
        list.querySelector("button.add").click();
        holder = list.querySelectorAll("li.row")[list.querySelectorAll("li.row").length - 1];
        input = holder.querySelector("input.reference");
      } else {
        holder = drop.closest(".choice");
        input = holder.querySelector("input[list]");
      }
      input.value = answer.path;
      var image = holder.querySelector("img.thumb");
      if (!image) {
        image = element("img", "thumb");
        image.alt = "";
        image.width = 48;
        image.height = 48;
        holder.insertBefore(image, holder.querySelector(".cell") || input);
      }
      image.src = answer.standIn;
      image.hidden = false;
      status.textContent = "";
      status.appendChild(element("p", "", answer.taken));
      status.appendChild(element("p", "", answer.removedNote));
      if (answer.removed.length) {
        var removed = element("ul", "removed");
        answer.removed.forEach(function (item) { removed.appendChild(element("li", "", item.label + ": " + item.value)); });
        status.appendChild(removed);
      }
      var adds = status.appendChild(element("p", "adds"));
      // Measured one photo at a time: asked again a second later while another is (503).
      function measure(tries) {
        fetch(answer.bytesHref, { credentials: "same-origin" }).then(function (response) {
          if (response.status === 503 && tries > 0) { setTimeout(function () { measure(tries - 1); }, 1000); return null; }
          return response.ok ? response.json() : null;
        }).then(function (measured) { if (measured) adds.textContent = measured.words; }).catch(function () {});
      }
      measure(10);
      input.dispatchEvent(new Event("input", { bubbles: true }));
      if (answer.alt) {
        holder.appendChild(element("p", "alt-note", answer.alt));
        var words = holder.querySelector("input[lang]");
        if (words) words.focus();
      }
    }).catch(function () {
      status.textContent = "";
      status.classList.add("error");
    });
  }
  function takeAll(drop, files, row) {
    Array.prototype.reduce.call(files, function (previous, file) {
      return previous.then(function () { return take(drop, file, row); });
    }, Promise.resolve());
  }
  function carriesFiles(event) {
    return event.dataTransfer && Array.prototype.indexOf.call(event.dataTransfer.types, "Files") >= 0;
  }
  document.querySelectorAll(".drop[data-upload]").forEach(function (drop) {
    drop.hidden = false;
    var chooser = drop.querySelector("input[type=file]");
    chooser.addEventListener("change", function () { takeAll(drop, chooser.files); chooser.value = ""; });
    drop.addEventListener("dragover", function (event) {
      if (carriesFiles(event)) {
        event.preventDefault();
        drop.classList.add("over");
      }
    });
    drop.addEventListener("dragleave", function () { drop.classList.remove("over"); });
    drop.addEventListener("drop", function (event) {
      if (!event.dataTransfer || !event.dataTransfer.files.length) return;
      event.preventDefault();
      drop.classList.remove("over");
      takeAll(drop, event.dataTransfer.files);
    });
    // A photo dropped on a line of pictures replaces that line's picture.
    var rows = drop.hasAttribute("data-adds-row") && drop.closest("fieldset.list").querySelector("ol.rows");
    if (!rows) return;
    rows.addEventListener("dragover", function (event) { if (carriesFiles(event)) event.preventDefault(); });
    rows.addEventListener("drop", function (event) {
      var row = event.target.closest && event.target.closest("li.row");
      if (!row || !event.dataTransfer || !event.dataTransfer.files.length) return;
      takeAll(drop, [event.dataTransfer.files[0]], row);
    });
  });

  // The translations page: a translator's XLIFF file brought in (the file as the request's body);
  // the page again with what was written, or the refusal's problems.
  var importer = document.querySelector(".xliff-import[data-import]");
  if (importer) {
    importer.hidden = false;
    var xliff = importer.querySelector("input[type=file]");
    var said = importer.querySelector(".imported");
    xliff.addEventListener("change", function () {
      var file = xliff.files[0];
      if (!file) return;
      said.textContent = "";
      said.classList.remove("error");
      fetch(importer.getAttribute("data-import"), {
        method: "POST", body: file, credentials: "same-origin",
        headers: { "X-Studio-Token": token, "Content-Type": file.type || "application/octet-stream" }
      }).then(function (response) {
        return response.json().then(function (answer) { return { ok: response.ok, answer: answer }; });
      }).then(function (result) {
        if (result.ok) { location.href = result.answer.next; return; }
        said.classList.add("error");
        said.textContent = result.answer.refusal + (result.answer.problems ? "\n" + result.answer.problems : "");
      }).catch(function () { said.classList.add("error"); });
      xliff.value = "";
    });
  }

  // A form opened at a field (`#field-summary@sv`, from the translations page): its text focused,
  // once the page (its preview's frame too) has loaded, which would otherwise take the focus back.
  if (location.hash.indexOf("#field-") === 0) {
    window.addEventListener("load", function () {
      var opened = document.getElementById(decodeURIComponent(location.hash.slice(1)));
      var control = opened && opened.querySelector("input, textarea, [contenteditable]");
      if (control) control.focus();
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
