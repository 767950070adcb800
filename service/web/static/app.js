// The ask page's preview strip (seed 003) and the wiki page's "ask this article" box.
// Everything works without JavaScript: the forms are answered on the server; this only saves a reload.
(function () {
  "use strict";
  const WAIT = 180;     // ms after the last keystroke before the strip asks
  const SETTLE = 900;   // ms of quiet after which an unfinished word counts as finished
  // The strip is the box's list of suggestions (a combobox's listbox): its level is said politely as it changes,
  // and the arrow keys move through the matches, Enter opens the one chosen, Escape closes the list.
  function parts(strip) {
    let head = strip.querySelector(".level"), list = strip.querySelector("ul.matches");
    if (!head) {
      head = document.createElement("span");
      head.className = "level";
      head.setAttribute("role", "status");
      head.textContent = strip.textContent.trim();
      strip.replaceChildren(head);
    }
    if (!list) {
      list = document.createElement("ul");
      list.className = "matches";
      list.id = strip.id + "_list";
      list.setAttribute("role", "listbox");
      list.setAttribute("aria-label", "Matches");
      list.hidden = true;
      strip.appendChild(list);
    }
    return { head: head, list: list };
  }

  function render(strip, p) {
    const { head, list } = parts(strip);
    const options = [];
    if (p.matches && p.matches.length) {
      head.textContent = p.score + " % · " + p.label + " match";
      p.matches.forEach(function (m, n) {
        const item = document.createElement("li");
        item.id = strip.id + "_option" + n;
        item.setAttribute("role", "option");
        item.setAttribute("aria-selected", "false");
        item.dataset.href = m.url;
        item.textContent = m.label;
        options.push(item);
      });
    } else {
      head.textContent = p.text;
    }
    list.replaceChildren(...options);
    list.hidden = options.length === 0;
    strip.dataset.level = p.label;
  }

  function combobox(input, strip) {
    const { list } = parts(strip);
    input.setAttribute("role", "combobox");
    input.setAttribute("aria-autocomplete", "list");
    input.setAttribute("aria-controls", list.id);
    input.setAttribute("aria-expanded", "false");
    const options = () => Array.from(list.querySelectorAll("[role=option]"));
    function choose(n) {
      const all = options();
      all.forEach(function (o, i) { o.setAttribute("aria-selected", String(i === n)); });
      if (n >= 0 && all[n]) { input.setAttribute("aria-activedescendant", all[n].id); all[n].scrollIntoView({ block: "nearest" }); }
      else { input.removeAttribute("aria-activedescendant"); }
    }
    const chosen = () => options().findIndex((o) => o.getAttribute("aria-selected") === "true");
    new MutationObserver(function () {  // a new list: nothing chosen yet, open when it has matches
      input.setAttribute("aria-expanded", String(!list.hidden));
      input.removeAttribute("aria-activedescendant");
    }).observe(list, { childList: true, attributes: true, attributeFilter: ["hidden"] });
    input.addEventListener("keydown", function (event) {
      const all = options(), at = chosen();
      if ((event.key === "ArrowDown" || event.key === "ArrowUp") && all.length) {
        event.preventDefault();
        list.hidden = false;
        input.setAttribute("aria-expanded", "true");
        const step = event.key === "ArrowDown" ? 1 : -1;
        choose(at < 0 ? (step > 0 ? 0 : all.length - 1) : (at + step + all.length) % all.length);
      } else if (event.key === "Enter" && at >= 0) {
        event.preventDefault();
        window.location.assign(all[at].dataset.href);
      } else if (event.key === "Escape" && !list.hidden) {
        event.preventDefault();
        choose(-1);
        list.hidden = true;
      }
    });
    list.addEventListener("click", function (event) {
      const option = event.target.closest("[role=option]");
      if (option) { window.location.assign(option.dataset.href); }
    });
  }

  // A strip under a box that shows, as the visitor types, what the words so far would match: `address` is the
  // JSON to ask for a text, `read` turns its answer into {score, label, text, matches: [{label, url}]}.
  // While a word is being typed ("simulated ann" on the way to "annealing") the matches shown stay: the
  // strip asks again at the end of a word, or once typing pauses.
  function live(input, strip, address, read) {
    combobox(input, strip);
    let latest = 0, shown = false, waiting = 0, settling = 0;
    const unfinished = (q) => /[\p{L}\p{N}]$/u.test(q);
    async function ask(settled) {
      const ticket = ++latest;
      const q = input.value;
      if (!q.trim()) { render(strip, { text: "", label: "none" }); shown = false; return; }
      try {
        const response = await fetch(address(q), { headers: { Accept: "application/json" } });
        if (!response.ok || ticket !== latest) { return; }
        const p = read(await response.json());
        if (ticket !== latest) { return; }
        if (!settled && shown && unfinished(q)) { return; }  // the visitor typed on while it was asked
        render(strip, p);
        shown = Boolean(p.matches && p.matches.length);
      } catch (e) { /* the preview is a hint; a failed one changes nothing */ }
    }
    input.addEventListener("input", function () {
      clearTimeout(waiting); clearTimeout(settling);
      if (!(shown && unfinished(input.value))) { waiting = setTimeout(function () { ask(false); }, WAIT); }
      settling = setTimeout(function () { ask(true); }, SETTLE);
    });
  }

  const input = document.getElementById("q");
  const strip = document.getElementById("preview");
  if (input && strip) {
    live(input, strip, (q) => "/api/preview?q=" + encodeURIComponent(q), (p) => p);
  }

  // Ask this article: the same strip, over the article's own passages (its best section as a link).
  const articleForm = document.querySelector("form.ask-article");
  const articleStrip = document.getElementById("article_preview");
  if (articleForm && articleStrip) {
    const name = articleForm.dataset.article;
    live(articleForm.elements.q, articleStrip,
      (q) => "/api/article?name=" + encodeURIComponent(name) + "&q=" + encodeURIComponent(q),
      (a) => ({ score: a.score, label: a.label, text: articleStrip.dataset.none,
                matches: a.passage ? [{ label: a.passage.heading, url: "#" + (a.passage.url.split("#")[1] || "article_body") }] : [] }));
  }

  // A citation chip opens its source under the answer.
  document.addEventListener("click", function (event) {
    const chip = event.target.closest("a.cite");
    if (!chip) { return; }
    const details = document.getElementById(chip.dataset.source);
    if (details) { event.preventDefault(); details.open = true; details.scrollIntoView({ block: "nearest" }); details.querySelector("summary").focus(); }
  });

  // Ask this article: the server answers the same form; the answer is swapped in without a reload.
  if (articleForm) {
    articleForm.addEventListener("submit", async function (event) {
      const box = document.querySelector(".article-answer");
      const q = articleForm.elements.q.value.trim();
      if (!box || !q) { return; }
      event.preventDefault();
      const url = articleForm.action.split("#")[0] + "?q=" + encodeURIComponent(q);
      try {
        const response = await fetch(url, { headers: { Accept: "text/html" } });
        if (!response.ok) { articleForm.submit(); return; }
        const page = new DOMParser().parseFromString(await response.text(), "text/html");
        const answer = page.querySelector(".article-answer");
        if (!answer) { articleForm.submit(); return; }
        box.replaceChildren(...answer.childNodes);
        history.replaceState(null, "", url + "#ask_article");
      } catch (e) { articleForm.submit(); }
    });
  }
})();
