// SPARQL syntax highlighting for the console's editor: a highlighted copy of the text sits under a
// transparent textarea. The form itself works without this script.
(function () {
  "use strict";
  const area = document.getElementById("query");
  const out = document.getElementById("highlight");
  if (!area || !out) { return; }
  const KEYWORDS = /^(SELECT|CONSTRUCT|DESCRIBE|ASK|WHERE|PREFIX|BASE|FROM|NAMED|OPTIONAL|FILTER|UNION|MINUS|GRAPH|BIND|VALUES|GROUP|BY|ORDER|HAVING|LIMIT|OFFSET|DISTINCT|REDUCED|AS|ASC|DESC|NOT|EXISTS|IN|COUNT|SUM|MIN|MAX|AVG|SAMPLE|GROUP_CONCAT|SEPARATOR|COALESCE|IF|STR|LANG|DATATYPE|BOUND|REGEX|CONTAINS|STRSTARTS|LCASE|UCASE|SUBSTR|YEAR|a|true|false)$/i;
  const TOKEN = /(#[^\n]*)|("""[\s\S]*?"""|'''[\s\S]*?'''|"(?:[^"\\\n]|\\.)*"|'(?:[^'\\\n]|\\.)*')|(<[^<>"{}|^`\\\s]*>)|([?$][A-Za-z_][\w]*)|([A-Za-z_][\w-]*:[\w.-]*|:[\w.-]+)|([A-Za-z_][\w]*)|(\s+|.)/g;
  function escape(s) { return s.replace(/&/g, "&amp;").replace(/</g, "&lt;").replace(/>/g, "&gt;"); }
  function paint() {
    let html = "";
    for (const m of area.value.matchAll(TOKEN)) {
      const [text, comment, string, iri, variable, pname, word] = m;
      const cls = comment ? "c" : string ? "s" : iri ? "i" : variable ? "v" : pname ? "p" : word && KEYWORDS.test(word) ? "k" : "";
      html += cls ? '<span class="' + cls + '">' + escape(text) + "</span>" : escape(text);
    }
    out.innerHTML = html + "\n";
  }
  area.addEventListener("input", paint);
  area.addEventListener("scroll", function () { out.parentElement.scrollTop = area.scrollTop; out.parentElement.scrollLeft = area.scrollLeft; });
  area.addEventListener("keydown", function (e) {
    if ((e.ctrlKey || e.metaKey) && e.key === "Enter") { e.preventDefault(); area.form.submit(); }
  });
  area.classList.add("painted");
  paint();
})();
