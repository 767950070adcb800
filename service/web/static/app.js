// The live preview strip (seed 003): re-scored on every keystroke, no debounce, no spinner.
// Everything else on the page works without JavaScript.
(function () {
  "use strict";
  const input = document.getElementById("q");
  const strip = document.getElementById("preview");
  if (input && strip) {
    let latest = 0;
    input.addEventListener("input", async function () {
      const ticket = ++latest;
      const q = input.value;
      if (!q.trim()) { strip.textContent = ""; strip.dataset.level = "none"; return; }
      try {
        const response = await fetch("/api/preview?q=" + encodeURIComponent(q), { headers: { Accept: "application/json" } });
        if (!response.ok || ticket !== latest) { return; }
        const p = await response.json();
        if (ticket !== latest) { return; }
        strip.textContent = p.best ? (p.score + " % · " + p.text) : p.text;
        strip.dataset.level = p.label;
      } catch (e) { /* the preview is a hint; a failed one changes nothing */ }
    });
  }
  // A citation chip opens its source under the answer.
  document.addEventListener("click", function (event) {
    const chip = event.target.closest("a.cite");
    if (!chip) { return; }
    const details = document.getElementById(chip.dataset.source);
    if (details) { event.preventDefault(); details.open = true; details.scrollIntoView({ block: "nearest" }); details.querySelector("summary").focus(); }
  });
})();
