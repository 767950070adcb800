// A small SPARQL formatter: indentation by braces, one triple pattern per line, each clause on its own line.
// It only changes whitespace between tokens: strings, IRIs, comments and every token's text are kept as they
// are, spaces stay where the text had them, and line breaks are added only where SPARQL allows whitespace.

const TOKEN = new RegExp([
  "(#[^\\n]*)",                                                             // 1 comment
  "(\"\"\"[\\s\\S]*?\"\"\"|'''[\\s\\S]*?'''|\"(?:[^\"\\\\\\n]|\\\\.)*\"|'(?:[^'\\\\\\n]|\\\\.)*')" +
    "(?:@[A-Za-z]+(?:-[A-Za-z0-9]+)*|\\^\\^(?:<[^<>\"{}|^`\\\\\\s]*>|[A-Za-z_][\\w.-]*:[\\w.-]*[\\w-]|[A-Za-z_]?[\\w-]*:))?", // 2 literal
  "(<[^<>\"{}|^`\\\\\\s]*>)",                                               // 3 IRI
  "([?$][A-Za-z0-9_]+)",                                                    // 4 variable
  "(\\d+(?:\\.\\d+)?(?:[eE][+-]?\\d+)?|\\.\\d+(?:[eE][+-]?\\d+)?)",         // 5 number
  "((?:[A-Za-z_][\\w-]*(?:\\.+[\\w-]+)*)?:(?:[\\w-]+(?:\\.+[\\w-]+)*)?|[A-Za-z_][\\w-]*)", // 6 prefixed name, word
  "([{}()\\[\\];,.])",                                                      // 7 punctuation
  "(\\s+)",                                                                 // 8 space
  "([\\s\\S])",                                                             // 9 anything else
].join("|"), "g");

const CLAUSE = new Set(["PREFIX", "BASE", "SELECT", "CONSTRUCT", "DESCRIBE", "ASK", "FROM", "WHERE", "GROUP",
  "ORDER", "HAVING", "LIMIT", "OFFSET", "OPTIONAL", "FILTER", "BIND", "VALUES", "MINUS", "GRAPH", "SERVICE"]);
const KINDS = [null, "comment", "literal", "iri", "var", "number", "word", "punct", "space", "other"];

export function tokens(text) {
  const out = [];
  for (const m of text.matchAll(TOKEN)) {
    const kind = KINDS[m.slice(1).findIndex((g) => g !== undefined) + 1];
    out.push({ kind, text: m[0] });
  }
  return out;
}

export function format(text) {
  let out = "";
  let depth = 0, paren = 0;
  let prev = null;           // the previous token that is not space
  let gap = { space: false, newlines: 0 };
  let breakAfter = false;    // the previous token ends a line
  for (const t of tokens(text)) {
    if (t.kind === "space") {
      gap = { space: true, newlines: gap.newlines + (t.text.match(/\n/g) || []).length };
      continue;
    }
    const word = t.kind === "word" && !t.text.includes(":") ? t.text.toUpperCase() : "";
    const attached = prev && prev.text === "}" && (word === "UNION" || [".", ",", ";", ")"].includes(t.text));
    let breakBefore = gap.newlines > 0 || (breakAfter && !attached);
    if (t.kind === "comment" && gap.newlines === 0) { breakBefore = false; }
    else if (t.text === "}" && prev) { breakBefore = true; }
    else if (paren === 0 && CLAUSE.has(word) && prev && prev.text !== "{") { breakBefore = true; }
    if (t.text === "}") { depth = Math.max(0, depth - 1); }
    if (breakBefore && out) {
      out = out.replace(/[ \t]+$/, "") + "\n" + (gap.newlines > 1 ? "\n" : "");
      const ends = !prev || prev.kind === "comment" || ["{", "}", "."].includes(prev.text);
      const cont = ends || CLAUSE.has(word) || t.text === "}" || paren > 0 ? 0 : 1;
      out += "  ".repeat(depth + cont + Math.min(paren, 2));
    } else if (out && gap.space) {
      out += " ";
    }
    out += t.text;
    breakAfter = false;
    if (t.kind === "comment") { breakAfter = true; }
    else if (t.text === "{") { depth += 1; breakAfter = true; }
    else if (t.text === "}") { breakAfter = true; }
    else if (t.text === "(") { paren += 1; }
    else if (t.text === ")") { paren = Math.max(0, paren - 1); }
    else if (paren === 0 && depth > 0 && (t.text === "." || t.text === ";")) { breakAfter = true; }
    prev = t;
    gap = { space: false, newlines: 0 };
  }
  return out.replace(/[ \t]+$/gm, "").trimEnd() + "\n";
}
