// The SPARQL console, enhanced: the textarea becomes the CodeMirror editor of vendor/console-editor.js, queries
// run on /sparql with fetch() (no reload; Cancel aborts, and the server stops a query whose client went away), results are sorted and paged here, the browser keeps a
// history, and the code to run the query elsewhere is shown. Without this script the form runs the query on the
// server (/console?query=) and the page shows the same table.
(function () {
  "use strict";
  const form = document.getElementById("console-form");
  const area = document.getElementById("query");
  const output = document.getElementById("console-output");
  if (!form || !area || !output || !window.FolioEditor) { return; }
  const ENDPOINT = new URL(form.dataset.endpoint, location.href).href;
  const BASE = form.dataset.entityBase;
  const PAGE = 50;
  const HISTORY_KEY = "folio.console.history";
  const HISTORY_SIZE = 30;
  const MAC = /Mac|iPhone|iPad/.test(navigator.platform || "");

  let vocabulary = null;
  fetch(form.dataset.vocabulary, { headers: { Accept: "application/json" } })
    .then((r) => (r.ok ? r.json() : null)).then((v) => { vocabulary = v; }).catch(() => {});
  const prefixes = JSON.parse(form.dataset.prefixes || "{}");  // for short forms in the table
  const short = (iri) => {
    const known = prefixes;
    let best = "";
    for (const [p, ns] of Object.entries(known)) {
      if (iri.startsWith(ns) && iri.length > ns.length && ns.length > (known[best] || "").length) { best = p; }
    }
    return best ? best + ":" + iri.slice(known[best].length) : iri;
  };

  const editor = window.FolioEditor.create(area, {
    onRun: () => run(),
    onChange: () => { scheduleSnippets(); },
    vocabulary: () => vocabulary,
    label: "SPARQL query",
    filledLines: (area.dataset.filledLines || "").split(",").filter(Boolean).map(Number),
  });

  // --- buttons: Run shows its shortcut, Format, Cancel --------------------------------------------------------
  const runButton = document.getElementById("run");
  const shortcut = runButton.querySelector(".shortcut");
  if (shortcut) { shortcut.textContent = MAC ? "⌘+Enter" : "Ctrl+Enter"; }
  runButton.setAttribute("aria-keyshortcuts", MAC ? "Meta+Enter" : "Control+Enter");
  const actions = form.querySelector(".console-actions");
  const formatButton = button("Format", "secondary", () => { editor.format(); editor.focus(); });
  formatButton.title = "Indent by braces, one triple pattern per line (Shift+Alt+F)";
  const cancelButton = button("Cancel", "secondary cancel", () => { if (running) { running.abort(); } });
  cancelButton.hidden = true;
  const status = el("span", { className: "run-status", id: "run-status", role: "status" });
  const elapsed = el("span", { className: "run-status elapsed", "aria-hidden": "true" });  // not read out 10 times a second
  actions.append(formatButton, cancelButton, status, elapsed);

  // an element with properties (attributes for role and aria-*) and children
  function el(tag, props, ...children) {
    const e = document.createElement(tag);
    for (const [k, v] of Object.entries(props || {})) {
      if (k === "role" || k.includes("-")) { e.setAttribute(k, v); } else { e[k] = v; }
    }
    e.append(...children);
    return e;
  }

  function button(text, cls, onClick) {
    const b = el("button", { type: "button", className: cls, textContent: text });
    b.addEventListener("click", onClick);
    return b;
  }

  form.addEventListener("submit", (e) => { e.preventDefault(); run(); });

  // --- running -------------------------------------------------------------------------------------------------
  let running = null;
  let ticker = 0;

  async function run() {
    const query = editor.value;
    if (!query.trim()) { return; }
    if (running) { running.abort(); }
    const controller = new AbortController();
    running = controller;
    const started = performance.now();
    runButton.disabled = true;
    cancelButton.hidden = false;
    form.classList.add("running");
    const tick = () => { elapsed.textContent = ((performance.now() - started) / 1000).toFixed(1) + " s"; };
    status.textContent = "Running…";
    tick();
    clearInterval(ticker);
    ticker = setInterval(tick, 100);
    try {
      const response = await fetch(ENDPOINT, {
        method: "POST",
        headers: { "Content-Type": "application/x-www-form-urlencoded",
                   Accept: "application/sparql-results+json, text/turtle;q=0.9" },
        body: new URLSearchParams({ query }),
        signal: controller.signal,
      });
      const ms = performance.now() - started;
      const type = response.headers.get("content-type") || "";
      if (!response.ok) {
        const body = type.includes("json") ? await response.json() : { error: { message: await response.text() } };
        showError(body.error || {}, response.status);
        remember(query, "error");
        status.textContent = "";
        return;
      }
      const rowsHeader = response.headers.get("x-sparql-rows");
      const truncated = response.headers.get("x-sparql-truncated");
      const took = " · " + ms.toFixed(1) + " ms" + (response.headers.get("x-sparql-cache") === "hit" ? " (kept from an earlier run)" : "");
      if (type.includes("sparql-results+json")) {
        const doc = await response.json();
        showResult(query, doc, took, truncated);
        remember(query, doc.boolean !== undefined ? String(doc.boolean) : doc.results.bindings.length + " rows");
      } else {
        showGraph(query, await response.text(), took, rowsHeader, truncated);
        remember(query, (rowsHeader || "?") + " triples");
      }
      status.textContent = "Done in " + (ms / 1000).toFixed(2) + " s";
      if (query.length < 4000) { history.replaceState(null, "", "/console?query=" + encodeURIComponent(query)); }
    } catch (err) {
      if (err.name === "AbortError") {
        status.textContent = "Cancelled.";
        output.replaceChildren(note("The query was cancelled: the server stopped it, and nothing is shown."));
      } else {
        status.textContent = "";
        showError({ message: "The endpoint could not be reached: " + err.message }, 0);
      }
    } finally {
      if (running === controller) {
        running = null;
        clearInterval(ticker);
        elapsed.textContent = "";
        runButton.disabled = false;
        cancelButton.hidden = true;
        form.classList.remove("running");
      }
    }
  }

  function note(text) {
    return el("p", { className: "note", textContent: text });
  }

  function showError(error, httpStatus) {
    const where = error.line ? " at line " + error.line + ", column " + error.column : "";
    const message = (error.message || ("HTTP " + httpStatus)).replace(/ \(line \d+, column \d+\)$/, "");
    output.replaceChildren(el("div", { className: "console-error", id: "console-error", role: "alert" },
                              el("strong", { textContent: "Error" + where + ":" }), " " + message));
    if (error.line) { editor.markError(error.line, error.column || 1, message); }
  }

  // --- results -------------------------------------------------------------------------------------------------
  function heading(text) {
    return el("h2", { id: "result-heading", textContent: text });
  }

  function downloads(query, formats) {
    const p = el("p", { className: "downloads" }, "Download: ");
    formats.forEach((f, i) => {
      p.append(el("a", { href: "/sparql?query=" + encodeURIComponent(query) + "&format=" + f, textContent: f }));
      if (i < formats.length - 1) { p.append(" · "); }
    });
    return p;
  }

  function section(...children) {
    output.replaceChildren(el("section", { className: "console-result", "aria-labelledby": "result-heading" }, ...children));
  }

  function showGraph(query, text, took, rows, truncated) {
    const pre = el("pre", { className: "turtle", tabIndex: 0 }, el("code", { textContent: text }));
    section(heading((rows || "?") + " triples" + (truncated ? " (truncated)" : "") + took),
            downloads(query, ["ttl", "nt", "jsonld"]), pre);
  }

  function showResult(query, doc, took, truncated) {
    if (doc.boolean !== undefined) {
      const p = el("p", { className: "boolean", textContent: String(doc.boolean) });
      section(heading("ASK" + took), downloads(query, ["json", "xml", "csv", "tsv"]), p);
      return;
    }
    const vars = doc.head.vars;
    const rows = doc.results.bindings;
    const title = rows.length + " result" + (rows.length === 1 ? "" : "s") + (truncated ? " (truncated: " + truncated.replace(/^true; /, "") + ")" : "") + took;
    const table = new ResultTable(vars, rows);
    const views = [{ name: "Table", panel: [filterBox(table), table.pager, table.wrap] }];
    const chart = ChartView.of(vars, rows, table);
    if (chart) { views.push({ name: "Chart", panel: [chart.box], shown: () => chart.draw() }); }
    const map = MapView.of(vars, rows, table);
    if (map) { views.push({ name: "Map", panel: [map.box], shown: () => map.draw() }); }
    section(heading(title), downloads(query, ["json", "xml", "csv", "tsv"]), ...tabs(views));
  }

  // --- views of a result: tabs (the ARIA pattern: arrow keys move between them) --------------------------------
  function tabs(views) {
    if (views.length === 1) { return views[0].panel; }
    const list = el("div", { role: "tablist", className: "view-tabs", "aria-label": "Result views" });
    const panels = [];
    const buttons = views.map((v, i) => {
      const id = "view-" + v.name.toLowerCase();
      const b = el("button", { type: "button", role: "tab", id: id + "-tab", className: "view-tab", textContent: v.name,
                               "aria-controls": id, "aria-selected": String(i === 0), tabIndex: i === 0 ? 0 : -1 });
      const panel = el("div", { role: "tabpanel", id: id, className: "view", "aria-labelledby": id + "-tab" }, ...v.panel);
      panel.hidden = i !== 0;
      panels.push(panel);
      b.addEventListener("click", () => select(i));
      b.addEventListener("keydown", (e) => {
        const step = { ArrowRight: 1, ArrowLeft: -1 }[e.key];
        if (step) { e.preventDefault(); select((i + step + views.length) % views.length, true); }
      });
      return b;
    });
    function select(n, focus) {
      buttons.forEach((b, i) => { b.setAttribute("aria-selected", String(i === n)); b.tabIndex = i === n ? 0 : -1; });
      panels.forEach((p, i) => { p.hidden = i !== n; });
      if (focus) { buttons[n].focus(); }
      if (views[n].shown) { views[n].shown(); }
    }
    list.append(...buttons);
    return [list, ...panels];
  }

  // --- filter: the rows holding the words typed (in any value, or its short form) -----------------------------
  function filterBox(table) {
    const id = "result-filter";
    const input = el("input", { type: "search", id: id, className: "result-filter", autocomplete: "off",
                                placeholder: "Filter rows" });
    let timer = 0;
    input.addEventListener("input", () => { clearTimeout(timer); timer = setTimeout(() => table.filter(input.value), 120); });
    return el("p", { className: "filter" }, el("label", { htmlFor: id, textContent: "Filter rows " }), input);
  }

  const NUMERIC = /#(integer|decimal|double|float|int|long|short|byte|nonNegativeInteger|positiveInteger|negativeInteger|nonPositiveInteger|unsignedInt|unsignedLong)$/;

  function sortKey(term) {
    if (!term) { return [0, ""]; }
    if (term.type === "literal" && NUMERIC.test(term.datatype || "")) { return [1, Number(term.value)]; }
    return [2, term.value];
  }

  function compare(a, b) {
    if (a[0] !== b[0]) { return a[0] - b[0]; }
    if (a[0] === 1) { return a[1] - b[1]; }
    return String(a[1]).localeCompare(String(b[1]), undefined, { numeric: true, sensitivity: "base" });
  }

  function ResultTable(vars, rows) {
    this.vars = vars;
    this.all = rows.slice();
    this.rows = this.all;
    this.listeners = [];
    this.page = 0;
    this.sortBy = null;
    this.descending = false;
    this.table = el("table", { className: "results" });
    // a region that may scroll sideways: reachable by keyboard, with a name
    this.wrap = el("div", { className: "table-wrap", tabIndex: 0, role: "region", "aria-label": "Results" }, this.table);
    this.pager = el("nav", { className: "pager", "aria-label": "Result pages" });
    this.render();
  }

  ResultTable.prototype.render = function () {
    const thead = document.createElement("thead");
    const tr = document.createElement("tr");
    for (const v of this.vars) {
      const th = document.createElement("th");
      th.scope = "col";
      const sorted = this.sortBy === v;
      th.setAttribute("aria-sort", sorted ? (this.descending ? "descending" : "ascending") : "none");
      const b = document.createElement("button");
      b.type = "button";
      b.className = "sort";
      b.textContent = v + (sorted ? (this.descending ? " ▼" : " ▲") : "");
      b.setAttribute("aria-label", "Sort by " + v);
      b.addEventListener("click", () => this.sort(v));
      th.append(b);
      tr.append(th);
    }
    thead.append(tr);
    const tbody = document.createElement("tbody");
    const first = this.page * PAGE;
    for (const row of this.rows.slice(first, first + PAGE)) {
      const r = document.createElement("tr");
      for (const v of this.vars) {
        const td = document.createElement("td");
        if (row[v]) { td.append(...cell(row[v])); }
        r.append(td);
      }
      tbody.append(r);
    }
    this.table.replaceChildren(thead, tbody);
    this.renderPager();
  };

  ResultTable.prototype.filter = function (text) {
    const words = text.toLowerCase().split(/\s+/).filter(Boolean);
    const holds = (row) => words.every((w) => this.vars.some((v) => row[v] &&
      (row[v].value.toLowerCase().includes(w) || (row[v].type === "uri" && short(row[v].value).toLowerCase().includes(w)))));
    this.rows = words.length ? this.all.filter(holds) : this.all.slice();
    if (this.sortBy) { this.order(); }
    this.page = 0;
    this.render();
    this.listeners.forEach((f) => f());  // the chart and the map follow the rows
  };

  ResultTable.prototype.changed = function (listener) { this.listeners.push(listener); };

  ResultTable.prototype.renderPager = function () {
    const total = this.rows.length;
    const pages = Math.max(1, Math.ceil(total / PAGE));
    const first = total ? this.page * PAGE + 1 : 0;
    const last = Math.min(total, (this.page + 1) * PAGE);
    const span = document.createElement("span");
    span.className = "page-status";
    const of = this.rows.length < this.all.length ? " (filtered from " + this.all.length + ")" : "";
    span.textContent = (total ? "Rows " + first + "–" + last + " of " + total : "No rows") + of;
    const prev = button("Previous", "secondary", () => { this.page -= 1; this.render(); });
    prev.disabled = this.page === 0;
    const next = button("Next", "secondary", () => { this.page += 1; this.render(); });
    next.disabled = this.page >= pages - 1;
    this.pager.replaceChildren(span);
    if (pages > 1) { this.pager.append(" ", prev, " ", next); }
  };

  ResultTable.prototype.sort = function (v) {
    this.descending = this.sortBy === v ? !this.descending : false;
    this.sortBy = v;
    this.order();
    this.page = 0;
    this.render();
    this.listeners.forEach((f) => f());
  };

  ResultTable.prototype.order = function () {
    const v = this.sortBy, sign = this.descending ? -1 : 1;
    this.rows = this.rows.slice().sort((a, b) => sign * compare(sortKey(a[v]), sortKey(b[v])));
  };

  // A bundle of the vendor folder (its script, and its stylesheet when it has one), loaded once, on first use.
  const bundles = {};
  function bundle(name, css) {
    if (!bundles[name]) {
      bundles[name] = new Promise((done, failed) => {
        if (css) { document.head.append(el("link", { rel: "stylesheet", href: "/static/vendor/" + name + ".css" })); }
        const script = el("script", { src: "/static/vendor/" + name + ".js" });
        script.addEventListener("load", done);
        script.addEventListener("error", failed);
        document.head.append(script);
      });
    }
    return bundles[name];
  }

  // --- map: rows with a latitude and a longitude column (any names such as ?lat ?long), as points on a world map
  // (Leaflet over a world map in the bundle: no tile server is asked); it follows the table's filter -------------
  const LAT = /^(lat|latitude)$/i, LONG = /^(lon|long|lng|longitude)$/i;

  function MapView(table, lat, long, names) {
    this.table = table; this.lat = lat; this.long = long; this.names = names;
    this.map = null;
    this.area = el("div", { className: "map-box", role: "region", "aria-label": "Map of the rows" });
    this.note = el("p", { className: "note map-note" });
    this.box = el("div", { className: "map-view" }, this.area, this.note);
    table.changed(() => { if (this.map) { this.draw(); } });
  }

  MapView.of = function (vars, rows, table) {
    const numeric = (v) => rows.some((r) => r[v]) && rows.every((r) => !r[v] || (r[v].type === "literal" && NUMERIC.test(r[v].datatype || "")));
    const lat = vars.find((v) => LAT.test(v) && numeric(v)), long = vars.find((v) => LONG.test(v) && numeric(v));
    const names = vars.filter((v) => v !== lat && v !== long);
    return lat && long ? new MapView(table, lat, long, names) : null;
  };

  MapView.prototype.draw = function () {
    bundle("console-map", true).then(() => {
      const name = this.names.find((v) => v.endsWith("Label")) || this.names[0];
      const points = this.table.rows.filter((r) => r[this.lat] && r[this.long]).map((r) => ({
        lat: Number(r[this.lat].value), lng: Number(r[this.long].value),
        label: name && r[name] ? (r[name].type === "uri" ? short(r[name].value) : r[name].value) : r[this.lat].value + ", " + r[this.long].value,
      }));
      if (this.map) { this.map.remove(); }
      this.map = window.FolioMap.draw(this.area, points);
      this.area.setAttribute("aria-label", "Map of " + points.length + " place" + (points.length === 1 ? "" : "s") +
        (name ? " by " + name : "") + " (the table has the same rows)");
      this.note.textContent = points.length < this.table.rows.length ? (this.table.rows.length - points.length) + " rows have no coordinates." : "";
    }, () => { this.note.textContent = "The map library could not be loaded."; });
  };

  // --- chart: a bar, line or pie chart of a numeric column by a column of names or dates (Chart.js, loaded on
  // first use); it follows the table's filter and order ----------------------------------------------------------
  const DATE = /^-?\d{4}(-\d{2}){0,2}(T|$)/;
  const MAX_POINTS = 200;

  function ChartView(table, numeric, names) {
    this.table = table;
    this.numeric = numeric;
    this.names = names;
    this.chart = null;
    const pick = (label, options, chosen) => {
      const select = el("select", { className: "chart-choice" }, ...options.map((o) => el("option", { value: o, textContent: o })));
      select.value = chosen;
      select.addEventListener("change", () => this.draw());
      return [el("label", { textContent: label + " " }, select), select];
    };
    const dated = (v) => table.all.every((row) => !row[v] || DATE.test(row[v].value));
    const firstName = names.find((v) => v.endsWith("Label")) || names.find(dated) || names[0];
    const [typeLabel, type] = pick("Chart type", ["bar", "line", "pie"], dated(firstName) ? "line" : "bar");
    const [nameLabel, name] = pick("Names", names, firstName);
    const [valueLabel, value] = pick("Values", numeric, numeric[0]);
    this.type = type; this.name = name; this.value = value;
    this.canvas = el("canvas", { role: "img" });
    this.note = el("p", { className: "note chart-note" });
    this.box = el("div", { className: "chart-view" }, el("p", { className: "chart-controls" }, typeLabel, " ", nameLabel, " ", valueLabel),
                  el("div", { className: "chart-box" }, this.canvas), this.note);
    table.changed(() => { if (this.chart) { this.draw(); } });
  }

  // A chart for results with a column of numbers (every value numeric) and a column of anything else.
  ChartView.of = function (vars, rows, table) {
    const bound = (v) => rows.filter((r) => r[v]);
    const numeric = vars.filter((v) => bound(v).length && bound(v).every((r) => r[v].type === "literal" && NUMERIC.test(r[v].datatype || "")));
    const names = vars.filter((v) => !numeric.includes(v) && bound(v).length);
    return rows.length && numeric.length && names.length ? new ChartView(table, numeric, names) : null;
  };

  ChartView.prototype.draw = function () {
    if (!window.FolioCharts) {
      bundle("console-charts", false).then(() => this.draw(), () => { this.note.textContent = "The chart library could not be loaded."; });
      return;
    }
    const type = this.type.value, name = this.name.value, value = this.value.value;
    let rows = this.table.rows.filter((r) => r[name] && r[value]);
    if (type === "line" && rows.every((r) => DATE.test(r[name].value))) {
      rows = rows.slice().sort((a, b) => a[name].value.localeCompare(b[name].value));  // over time
    }
    const shown = rows.slice(0, MAX_POINTS);
    const labels = shown.map((r) => (r[name].type === "uri" ? short(r[name].value) : r[name].value));
    const values = shown.map((r) => Number(r[value].value));
    if (this.chart) { this.chart.destroy(); }
    this.chart = window.FolioCharts.draw(this.canvas, { type, labels, series: [{ name: value, values }] });
    this.canvas.setAttribute("aria-label", type + " chart of " + value + " by " + name + ", " + shown.length + " " +
      (type === "pie" ? "slices" : type === "line" ? "points" : "bars") + " (the table has the same rows)");
    this.note.textContent = rows.length > MAX_POINTS ? "The first " + MAX_POINTS + " of " + rows.length + " rows are drawn." : "";
  };

  // An IRI with a line-break opportunity after each separator: a narrow column wraps it between its parts.
  function breakable(text) {
    const parts = [];
    for (const piece of text.split(/(?<=[\/#:?&=.])/)) {
      parts.push(piece);
      if (/[\/#:?&=.]$/.test(piece)) { parts.push(document.createElement("wbr")); }
    }
    return parts;
  }

  function cell(term) {
    if (term.type === "uri") {
      const a = document.createElement("a");
      a.title = term.value;
      a.append(...breakable(short(term.value)));
      if (BASE && term.value.startsWith(BASE) && term.value.length > BASE.length) {
        a.href = "/id/" + term.value.slice(BASE.length).split("/").map(encodeURIComponent).join("/");
        a.className = "term entity";
      } else if (/^https?:\/\//i.test(term.value)) {
        a.href = term.value;
        a.rel = "noopener external";
        a.className = "term external";
      } else {  // not a web address (urn:, mailto: ...): shown, never a link
        return [el("span", { className: "term external", title: term.value, textContent: term.value })];
      }
      return [a];
    }
    if (term.type === "bnode") { return [el("span", { className: "term bnode", textContent: "_:" + term.value })]; }
    const value = el("span", { className: "literal", textContent: term.value });
    const tag = term["xml:lang"] ? "@" + term["xml:lang"] : term.datatype ? short(term.datatype) : "";
    if (!tag) { return [value]; }
    return [value, " ", el("span", { className: "dtype", title: term.datatype || "language tag", textContent: tag })];
  }

  // --- history (this browser's localStorage) ------------------------------------------------------------------
  const tools = document.getElementById("console-tools");
  const historyList = tools.querySelector(".history-list");
  const historyBox = document.getElementById("history");

  function loadHistory() {
    try {
      const kept = JSON.parse(localStorage.getItem(HISTORY_KEY) || "[]");
      return Array.isArray(kept) ? kept.filter((h) => h && typeof h.query === "string") : [];
    } catch (e) {
      return [];
    }
  }

  function remember(query, outcome) {
    const kept = loadHistory().filter((h) => h.query !== query);
    kept.unshift({ query, outcome, at: new Date().toISOString() });
    try { localStorage.setItem(HISTORY_KEY, JSON.stringify(kept.slice(0, HISTORY_SIZE))); } catch (e) { /* full */ }
    renderHistory();
  }

  function renderHistory() {
    const kept = loadHistory();
    historyBox.querySelector("summary").textContent = "History (" + kept.length + ")";
    historyList.replaceChildren(...kept.map((h, i) => {
      const li = document.createElement("li");
      const open = button("Open", "secondary", () => { editor.value = h.query; editor.focus(); window.scrollTo(0, form.offsetTop); });
      open.setAttribute("aria-label", "Open query " + (i + 1));
      const code = document.createElement("code");
      code.textContent = h.query.replace(/^(PREFIX[^\n]*\n|#[^\n]*\n|\s*\n)*/i, "").replace(/\s+/g, " ").slice(0, 110);
      const when = document.createElement("span");
      when.className = "note";
      when.textContent = " " + new Date(h.at).toLocaleString() + " · " + h.outcome;
      li.append(open, " ", code, when);
      return li;
    }));
    if (!kept.length) { historyList.replaceChildren(note("No query run yet.")); }
  }

  document.getElementById("history-clear").addEventListener("click", () => {
    try { localStorage.removeItem(HISTORY_KEY); } catch (e) { /* nothing kept */ }
    renderHistory();
  });

  // --- code snippets for the current query --------------------------------------------------------------------
  const shell = (s) => "'" + s.replace(/'/g, "'\\''") + "'";
  const pyString = (s) => (!s.includes('"""') && !s.includes("\\") && !s.endsWith('"') ? '"""' + s + '"""' : JSON.stringify(s));
  let snippetTimer = 0;

  function scheduleSnippets() {
    clearTimeout(snippetTimer);
    snippetTimer = setTimeout(renderSnippets, 250);
  }

  // The query's form (SELECT, ASK, CONSTRUCT or DESCRIBE): its first keyword outside IRIs, strings and comments.
  function queryForm(text) {
    const bare = text.replace(/<[^<>\s]*>/g, " ")
      .replace(/"""[\s\S]*?"""|'''[\s\S]*?'''|"(?:[^"\\\n]|\\.)*"|'(?:[^'\\\n]|\\.)*'/g, " ")
      .replace(/#[^\n]*/g, " ");
    const m = /\b(SELECT|ASK|CONSTRUCT|DESCRIBE)\b/i.exec(bare);
    return m ? m[1].toUpperCase() : "SELECT";
  }

  function renderSnippets() {
    const q = editor.value.trim() + "\n";
    const form = queryForm(q);
    const graph = form === "CONSTRUCT" || form === "DESCRIBE";
    const accept = graph ? "text/turtle" : "application/sparql-results+json";
    const endpoint = JSON.stringify(ENDPOINT);
    const python = "from SPARQLWrapper import SPARQLWrapper, " + (graph ? "TURTLE" : "JSON") +
      "  # pip install SPARQLWrapper\n\nsparql = SPARQLWrapper(" + endpoint + ")\nsparql.setQuery(" + pyString(q) + ")\n";
    const rdflib = "from rdflib.plugins.stores.sparqlstore import SPARQLStore  # pip install rdflib\n\n";
    const js = "const response = await fetch(" + endpoint + ", {\n  method: \"POST\",\n" +
      "  headers: { \"Content-Type\": \"application/sparql-query\", Accept: \"" + accept + "\" },\n" +
      "  body: " + JSON.stringify(q) + ",\n});\n";
    const snippets = graph ? {
      python: python + "sparql.setReturnFormat(TURTLE)\nprint(sparql.queryAndConvert().decode())\n",
      rdflib: rdflib + "store = SPARQLStore(" + endpoint + ")\nfor triple in store.query(" + pyString(q) + "):\n    print(triple)\n",
      js: js + "console.log(await response.text());\n",
    } : form === "ASK" ? {
      python: python + "sparql.setReturnFormat(JSON)\nprint(sparql.queryAndConvert()[\"boolean\"])\n",
      rdflib: rdflib + "store = SPARQLStore(" + endpoint + ")\nprint(store.query(" + pyString(q) + ").askAnswer)\n",
      js: js + "const { boolean } = await response.json();\nconsole.log(boolean);\n",
    } : {
      python: python + "sparql.setReturnFormat(JSON)\nfor row in sparql.queryAndConvert()[\"results\"][\"bindings\"]:\n" +
        "    print({name: term[\"value\"] for name, term in row.items()})\n",
      rdflib: rdflib + "store = SPARQLStore(" + endpoint + ", returnFormat=\"json\")\n" +
        "for row in store.query(" + pyString(q) + "):\n    print(row)\n",
      js: js + "const { results } = await response.json();\n" +
        "console.table(results.bindings.map((row) => Object.fromEntries(Object.entries(row).map(([k, t]) => [k, t.value]))));\n",
    };
    document.getElementById("snippet-curl").textContent =
      "curl -s " + ENDPOINT + " \\\n  -H 'Accept: " + accept + "' \\\n  --data-urlencode " + shell("query=" + q);
    document.getElementById("snippet-python").textContent = snippets.python;
    document.getElementById("snippet-rdflib").textContent = snippets.rdflib;
    document.getElementById("snippet-js").textContent = snippets.js;
  }

  // --- the page as the server rendered it -----------------------------------------------------------------------
  tools.hidden = false;
  renderHistory();
  renderSnippets();
  const served = document.getElementById("console-error");
  if (served && served.dataset.line) {
    editor.markError(Number(served.dataset.line), Number(served.dataset.column) || 1, served.textContent.replace(/^\s*Error[^:]*:\s*/, "").trim());
  }
  const servedResult = document.getElementById("served-result");
  if (servedResult) {  // the rows the server sent with the page, sortable and paged like any other
    showResult(editor.value, JSON.parse(servedResult.textContent), " · " + servedResult.dataset.ms + " ms" + (servedResult.dataset.cached ? " (kept from an earlier run)" : ""),
               servedResult.dataset.truncated ? "at " + JSON.parse(servedResult.textContent).results.bindings.length + " rows" : "");
  }
  window.folioConsole = { editor, run };  // for the browser tests and the curious
})();
