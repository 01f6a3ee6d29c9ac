// errgen error catalogue: search over codes, descriptions and categories, and copy buttons.
// Plain script, no build step, no requests: the index is search-index.js (window.ERRGEN_SEARCH),
// so it works from a folder (file://) as from a server. "/" focuses the search; arrows move
// through the results; Enter opens one; Escape closes them.
(function () {
  "use strict";
  var MAX = 20;
  var root = document.body.getAttribute("data-root") || "";
  var input = document.getElementById("search");
  var list = document.getElementById("results");
  // The combobox's roles and states are set here: without this script there is no search.
  var status = document.createElement("p");
  status.className = "visually-hidden";
  status.setAttribute("role", "status");
  status.setAttribute("aria-live", "polite");
  input.parentNode.appendChild(status);
  [["role", "combobox"], ["autocomplete", "off"], ["spellcheck", "false"], ["aria-controls", "results"],
   ["aria-expanded", "false"], ["aria-autocomplete", "list"]].forEach(function (a) { input.setAttribute(a[0], a[1]); });
  list.setAttribute("role", "listbox");
  list.setAttribute("aria-label", "Matching codes");
  var rows = window.ERRGEN_SEARCH || [];
  var lower = rows.map(function (r) { return [r[0].toLowerCase(), r[1].toLowerCase(), r[2].toLowerCase()]; });
  var active = -1;

  // Exact code first, then codes starting with the query, then codes containing it, then
  // categories and descriptions containing every word.
  function search(query) {
    var q = query.trim().toLowerCase();
    if (!q) return [];
    var words = q.split(/\s+/);
    var ranked = [[], [], [], []];
    for (var i = 0; i < rows.length; i++) {
      var code = lower[i][0];
      var rank = code === q ? 0 : code.indexOf(q) === 0 ? 1 : code.indexOf(q) >= 0 ? 2 : -1;
      if (rank < 0) {
        var text = code + " " + lower[i][1] + " " + lower[i][2];
        rank = words.every(function (w) { return text.indexOf(w) >= 0; }) ? 3 : -1;
      }
      if (rank >= 0) ranked[rank].push(i);
    }
    return ranked[0].concat(ranked[1], ranked[2], ranked[3]);
  }

  function option(i, n) {
    var r = rows[i];
    var li = document.createElement("li");
    li.id = "result-" + n;
    li.setAttribute("role", "option");
    li.setAttribute("aria-selected", "false");
    var a = document.createElement("a");
    a.href = root + r[3];
    a.tabIndex = -1;
    var code = document.createElement("code");
    code.textContent = r[0];
    var small = document.createElement("small");
    small.textContent = r[1] + (r[4] ? " · deprecated" : "") + " · " + r[2];
    a.appendChild(code);
    a.appendChild(small);
    li.appendChild(a);
    return li;
  }

  function show() {
    var found = search(input.value);
    list.textContent = "";
    active = -1;
    if (!input.value.trim()) { close(); return; }
    found.slice(0, MAX).forEach(function (i, n) { list.appendChild(option(i, n)); });
    if (!found.length) {
      var li = document.createElement("li");
      li.className = "empty";
      li.textContent = "No code matches.";
      list.appendChild(li);
    }
    list.hidden = false;
    input.setAttribute("aria-expanded", "true");
    status.textContent = found.length + (found.length === 1 ? " code matches" : " codes match") +
      (found.length > MAX ? "; showing " + MAX : "");
    if (found.length) select(0);
  }

  function close() {
    list.hidden = true;
    input.setAttribute("aria-expanded", "false");
    input.removeAttribute("aria-activedescendant");
  }

  function select(n) {
    var options = list.querySelectorAll("[role=option]");
    if (!options.length) return;
    n = (n + options.length) % options.length;
    if (active >= 0 && options[active]) options[active].setAttribute("aria-selected", "false");
    active = n;
    options[n].setAttribute("aria-selected", "true");
    input.setAttribute("aria-activedescendant", options[n].id);
    options[n].scrollIntoView({ block: "nearest" });
  }

  input.addEventListener("input", show);
  input.addEventListener("keydown", function (e) {
    if (e.key === "ArrowDown") { e.preventDefault(); if (list.hidden) show(); else select(active + 1); }
    else if (e.key === "ArrowUp") { e.preventDefault(); select(active - 1); }
    else if (e.key === "Enter") {
      var chosen = list.querySelector("[aria-selected=true] a");
      if (chosen) { e.preventDefault(); window.location.href = chosen.href; }
    } else if (e.key === "Escape") { close(); }
  });
  // Closed a moment after the field loses focus (a click on a result lands first), unless it
  // came back meanwhile.
  input.addEventListener("blur", function () {
    setTimeout(function () { if (document.activeElement !== input) close(); }, 150);
  });
  input.addEventListener("focus", function () { if (input.value.trim()) show(); });
  document.addEventListener("keydown", function (e) {
    var t = e.target;
    var typing = t && (t.tagName === "INPUT" || t.tagName === "TEXTAREA" || t.isContentEditable);
    if (e.key === "/" && !typing && !e.ctrlKey && !e.metaKey && !e.altKey) {
      e.preventDefault();
      input.focus();
      input.select();
    }
  });

  // A copy button on every snippet; from file:// the clipboard API may be missing, so the
  // text is selected and copied the old way.
  Array.prototype.forEach.call(document.querySelectorAll("main pre"), function (pre) {
    var button = document.createElement("button");
    button.type = "button";
    button.className = "copy";
    button.textContent = "Copy";
    button.setAttribute("aria-label", "Copy " + (pre.previousElementSibling ? pre.previousElementSibling.textContent : "snippet"));
    button.addEventListener("click", function () {
      var text = pre.querySelector("code").textContent;
      var done = function () { button.textContent = "Copied"; setTimeout(function () { button.textContent = "Copy"; }, 1500); };
      if (navigator.clipboard && window.isSecureContext) {
        navigator.clipboard.writeText(text).then(done, function () { legacy(pre, done); });
      } else { legacy(pre, done); }
    });
    pre.appendChild(button);
  });

  function legacy(pre, done) {
    var range = document.createRange();
    range.selectNodeContents(pre.querySelector("code"));
    var selection = window.getSelection();
    selection.removeAllRanges();
    selection.addRange(range);
    try { if (document.execCommand("copy")) done(); } catch (err) { /* the text stays selected */ }
  }
})();
