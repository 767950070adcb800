// Completions for the console: SPARQL keywords, the endpoint's prefixes (a whole PREFIX line after PREFIX),
// and the graph's own classes, properties and entities from /console/vocabulary.json: an entity by its label
// ("Tess" offers Tessera, inserted as id:Tessera), or by its prefixed name once a colon is typed.
const KEYWORDS = ["SELECT", "DISTINCT", "WHERE", "PREFIX", "OPTIONAL", "FILTER", "BIND", "VALUES", "UNION",
  "MINUS", "GRAPH", "ORDER BY", "GROUP BY", "HAVING", "LIMIT", "OFFSET", "CONSTRUCT", "DESCRIBE", "ASK",
  "COUNT", "GROUP_CONCAT", "SAMPLE", "COALESCE", "STRSTARTS", "CONTAINS", "LCASE", "REGEX", "NOT EXISTS",
  "LANG", "STR", "DATATYPE", "YEAR", "AS"];
const LOCAL = /^[A-Za-z0-9_](?:[\w.-]*[\w-])?$/;

function shortForm(iri, prefixes) {
  let best = null;
  for (const [p, ns] of Object.entries(prefixes)) {
    if (iri.startsWith(ns) && LOCAL.test(iri.slice(ns.length)) && (!best || ns.length > best[1].length)) {
      best = [p, ns];
    }
  }
  return best ? best[0] + ":" + iri.slice(best[1].length) : "<" + iri + ">";
}

function build(vocab) {
  const prefixes = vocab.prefixes || {};
  const named = [], terms = [], labelled = [];
  for (const term of vocab.terms || []) {
    const short = shortForm(term.iri, prefixes);
    const detail = term.kind + (term.label ? " · " + term.label : "");
    const option = { label: short, detail, type: term.kind === "entity" ? "variable" : term.kind, boost: term.kind === "entity" ? 0 : 1 };
    named.push(option);
    if (term.kind !== "entity") { terms.push(option); }
    if (term.kind === "entity" && term.label) {
      labelled.push({ label: term.label, detail: short + (term.class ? " · " + term.class : ""), apply: short, type: "variable" });
    }
  }
  const prefixNames = Object.entries(prefixes).map(([p, ns]) => ({ label: p + ":", detail: ns, type: "namespace" }));
  const prefixLines = Object.entries(prefixes).map(([p, ns]) => ({ label: p + ":", detail: ns, apply: p + ": <" + ns + ">", type: "namespace" }));
  const keywords = KEYWORDS.map((k) => ({ label: k, type: "keyword", boost: -1 }));
  return { named, terms, labelled, prefixNames, prefixLines, keywords };
}

export function completions(vocabulary) {
  let built = null, from = null;
  return (context) => {
    const vocab = vocabulary();
    if (vocab && vocab !== from) { built = build(vocab); from = vocab; }
    const word = context.matchBefore(/[\w:.-]+/);
    const line = context.state.doc.lineAt(context.pos);
    const before = line.text.slice(0, context.pos - line.from);
    if (/^\s*PREFIX\s+[\w-]*:?$/i.test(before)) {
      return built ? { from: word ? word.from : context.pos, options: built.prefixLines, validFor: /^[\w-]*:?$/ } : null;
    }
    if (!word && !context.explicit) { return null; }
    if (word && /^\d/.test(word.text)) { return null; }
    const start = word ? word.from : context.pos;
    const options = built ? (word && word.text.includes(":") ? built.named : [...built.terms, ...built.labelled, ...built.prefixNames, ...built.keywords]) : [];
    return { from: start, options: options.length ? options : build({}).keywords };
  };
}
