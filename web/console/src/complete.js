// Completions for the console: SPARQL keywords, the endpoint's prefixes (a whole PREFIX line after PREFIX),
// and the graph's own classes, properties and entities from /console/vocabulary.json: an entity by its label
// ("Tess" offers Tessera, inserted as id:Tessera), or by its prefixed name once a colon is typed. What is
// offered follows where the cursor is (`place`): keywords outside the braces, a subject or a pattern keyword
// at the start of a triple, properties after its subject, classes after `a` (or rdf:type), entities after
// another property.
import { tokens } from "./format.js";
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

const PATTERN_KEYWORDS = ["OPTIONAL", "FILTER", "BIND", "VALUES", "UNION", "MINUS", "GRAPH", "NOT EXISTS"];
const TYPE = /^(a|rdf:type|<http:\/\/www\.w3\.org\/1999\/02\/22-rdf-syntax-ns#type>)$/;

function build(vocab) {
  const prefixes = vocab.prefixes || {};
  const byKind = { class: [], property: [], entity: [] }, labelled = [];
  for (const term of vocab.terms || []) {
    const short = shortForm(term.iri, prefixes);
    const detail = term.kind + (term.label ? " · " + term.label : "");
    (byKind[term.kind] || byKind.entity).push({ label: short, detail, type: term.kind === "entity" ? "variable" : term.kind });
    if (term.kind === "entity" && term.label) {
      labelled.push({ label: term.label, detail: short + (term.class ? " · " + term.class : ""), apply: short, type: "variable" });
    }
  }
  const prefixNames = Object.entries(prefixes).map(([p, ns]) => ({ label: p + ":", detail: ns, type: "namespace" }));
  const prefixLines = Object.entries(prefixes).map(([p, ns]) => ({ label: p + ":", detail: ns, apply: p + ": <" + ns + ">", type: "namespace" }));
  const keywords = KEYWORDS.map((k) => ({ label: k, type: "keyword" }));
  const patternKeywords = PATTERN_KEYWORDS.map((k) => ({ label: k, type: "keyword" }));
  const typeKeyword = [{ label: "a", detail: "rdf:type", type: "keyword" }];
  return { byKind, labelled, prefixNames, prefixLines, keywords, patternKeywords, typeKeyword };
}

// Where the cursor is, from the text before it: "clause" (outside braces, or in parentheses: keywords and
// functions), "subject", "predicate", "class" (after `a`) or "object".
export function place(text) {
  const typing = text.match(/[\w:.-]*$/)[0];  // the word being typed is not yet a term of the triple
  let depth = 0, paren = 0, triple = [];
  for (const t of tokens(text.slice(0, text.length - typing.length))) {
    if (t.kind === "space" || t.kind === "comment") { continue; }
    if (t.kind === "punct") {
      if (t.text === "{") { depth += 1; triple = []; }
      else if (t.text === "}") { depth = Math.max(0, depth - 1); triple = []; }
      else if (t.text === "(") { paren += 1; }
      else if (t.text === ")") { paren = Math.max(0, paren - 1); if (!paren) { triple = []; } }
      else if (t.text === ".") { triple = []; }
      else if (t.text === ";") { triple = triple.slice(0, 1); }
      else if (t.text === ",") { triple = triple.slice(0, 2); }
      continue;
    }
    if (paren) { continue; }
    if (t.kind === "word" && !t.text.includes(":") && t.text !== "a") { triple = []; continue; }  // OPTIONAL, FILTER ...
    triple.push(t.text);
  }
  if (!depth || paren) { return "clause"; }
  if (triple.length === 0) { return "subject"; }
  if (triple.length === 1) { return "predicate"; }
  return TYPE.test(triple[1]) ? "class" : "object";
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
    const b = built || build({});
    const named = word && word.text.includes(":");  // a prefixed name: no labels, no keywords
    const options = {
      clause: b.keywords,
      subject: [...b.patternKeywords, ...b.byKind.entity, ...(named ? [] : b.labelled), ...b.prefixNames],
      predicate: [...b.typeKeyword, ...b.byKind.property, ...b.prefixNames],
      class: [...b.byKind.class, ...b.prefixNames],
      object: [...b.byKind.entity, ...(named ? [] : b.labelled), ...b.byKind.class, ...b.prefixNames],
    }[place(context.state.doc.sliceString(0, context.pos))];
    return { from: start, options: named ? options.filter((o) => o.label.includes(":")) : options };
  };
}
