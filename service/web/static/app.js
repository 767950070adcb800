// The ask page's preview strip (seed 003) and the wiki page's "ask this article" box.
// Everything works without JavaScript: the forms are answered on the server; this only saves a reload.
(function () {
  "use strict";
  const WAIT = 180;     // ms after the last keystroke before the strip asks
  const SETTLE = 900;   // ms of quiet after which an unfinished word counts as finished
  function render(strip, p) {
    const head = document.createElement("span");
    head.className = "level";
    const list = document.createElement("ul");
    list.className = "matches";
    if (p.matches && p.matches.length) {
      head.textContent = p.score + " % · " + p.label + " match";
      for (const m of p.matches) {
        const item = document.createElement("li");
        const link = document.createElement("a");
        link.href = m.url;
        link.textContent = m.label;
        item.appendChild(link);
        list.appendChild(item);
      }
    } else {
      head.textContent = p.text;
    }
    strip.replaceChildren(head, list);
    strip.dataset.level = p.label;
  }

  // A strip under a box that shows, as the visitor types, what the words so far would match: `address` is the
  // JSON to ask for a text, `read` turns its answer into {score, label, text, matches: [{label, url}]}.
  // While a word is being typed ("simulated ann" on the way to "annealing") the matches shown stay: the
  // strip asks again at the end of a word, or once typing pauses.
  function live(input, strip, address, read) {
    let latest = 0, shown = false, waiting = 0, settling = 0;
    const unfinished = (q) => /[\p{L}\p{N}]$/u.test(q);
    async function ask(settled) {
      const ticket = ++latest;
      const q = input.value;
      if (!q.trim()) { strip.replaceChildren(); strip.dataset.level = "none"; shown = false; return; }
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
