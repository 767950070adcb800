// The SPARQL console's editor: CodeMirror 6 with the SPARQL mode of @codemirror/legacy-modes, bundled into
// service/web/static/vendor/console-editor.js (scripts/build-console). console.js drives it through
// window.FolioEditor: create(textarea, options), format(text), tokens(text).
import { EditorState, Prec, StateField, RangeSetBuilder } from "@codemirror/state";
import {
  EditorView, keymap, lineNumbers, highlightActiveLine, highlightActiveLineGutter, drawSelection,
  highlightSpecialChars, Decoration,
} from "@codemirror/view";
import { defaultKeymap, history, historyKeymap, indentWithTab } from "@codemirror/commands";
import { StreamLanguage, bracketMatching, syntaxHighlighting, indentOnInput } from "@codemirror/language";
import { sparql } from "@codemirror/legacy-modes/mode/sparql";
import { autocompletion, closeBrackets, closeBracketsKeymap, completionKeymap } from "@codemirror/autocomplete";
import { lintGutter, setDiagnostics, lintKeymap, linter } from "@codemirror/lint";
import { Parser } from "sparqljs";
import { searchKeymap, highlightSelectionMatches } from "@codemirror/search";
import { classHighlighter } from "@lezer/highlight";
import { StyleModule } from "style-mod";
import { format, tokens } from "./format.js";
import { completions } from "./complete.js";

export { format, tokens };

// CodeMirror writes its own CSS into a <style> element, which the app's Content Security Policy (no inline
// styles) blocks. A constructed stylesheet adopted by the document is no inline style: style-mod uses one for a
// root without a <head> (a shadow root), so the document is handed to it as such a root.
const mountStyles = StyleModule.mount;
const documentRoot = {
  ownerDocument: document,
  get adoptedStyleSheets() { return document.adoptedStyleSheets; },
  set adoptedStyleSheets(sheets) { document.adoptedStyleSheets = sheets; },
};
StyleModule.mount = (root, modules, options) =>
  mountStyles.call(StyleModule, root === document ? documentRoot : root, modules, options);

// options: { onRun(), onChange(text), vocabulary: () => vocabulary or null, label, filledLines: [1-based line] }
export function create(textarea, options) {
  const run = () => { options.onRun(); return true; };
  const view = new EditorView({
    state: EditorState.create({
      doc: textarea.value,
      extensions: [
        Prec.highest(keymap.of([
          { key: "Mod-Enter", run },
          { key: "Shift-Alt-f", run: (v) => { reformat(v); return true; } },
        ])),
        lineNumbers(), highlightActiveLineGutter(), highlightSpecialChars(), history(), drawSelection(),
        indentOnInput(), bracketMatching(), closeBrackets(), highlightActiveLine(), highlightSelectionMatches(),
        StreamLanguage.define(sparql), syntaxHighlighting(classHighlighter),
        autocompletion({ override: [completions(options.vocabulary)], activateOnTyping: true }),
        lintGutter(),
        syntaxCheck(() => (options.vocabulary() || {}).prefixes || options.prefixes || {}),
        EditorView.lineWrapping,
        filledLines(options.filledLines || []),
        // an edit clears the marker of the last run's syntax error: it no longer says where the text is wrong
        EditorState.transactionExtender.of((tr) => (tr.docChanged ? { effects: setDiagnostics(tr.startState, []).effects } : null)),
        keymap.of([...closeBracketsKeymap, ...defaultKeymap, ...searchKeymap, ...historyKeymap,
                   ...completionKeymap, ...lintKeymap, indentWithTab]),
        EditorView.contentAttributes.of({ "aria-label": options.label || "SPARQL query" }),
        EditorView.updateListener.of((u) => {
          if (!u.docChanged) { return; }
          textarea.value = u.state.doc.toString();  // the form still submits what the editor shows
          if (options.onChange) { options.onChange(textarea.value); }
        }),
      ],
    }),
  });
  textarea.insertAdjacentElement("afterend", view.dom);
  textarea.hidden = true;
  view.dom.classList.add("sparql-editor");
  return {
    view,
    get value() { return view.state.doc.toString(); },
    set value(text) { view.dispatch({ changes: { from: 0, to: view.state.doc.length, insert: text } }); },
    format() { reformat(view); },
    focus() { view.focus(); },
    // a syntax error at a 1-based line and column: a lint marker on the word that ends there
    markError(line, column, message) {
      const doc = view.state.doc;
      const row = doc.line(Math.min(Math.max(1, line), doc.lines));
      const at = Math.min(row.from + Math.max(0, column - 1), row.to);
      let from = at;
      while (from > row.from && /[\w:.-]/.test(doc.sliceString(from - 1, from))) { from -= 1; }
      let to = at;
      if (to === from) { to = Math.min(row.to, from + 1); }
      if (to === from && from > row.from) { from -= 1; }
      view.dispatch(setDiagnostics(view.state, [{ from, to, severity: "error", message, source: "SPARQL parser" }]));
      view.dispatch({ selection: { anchor: at }, scrollIntoView: true });
    },
  };
}

// Syntax errors as the query is typed (half a second after the last keystroke), by SPARQL.js's parser with the
// endpoint's own prefixes declared: the spot underlined, the reason in a tooltip and the gutter. The server's
// parser has the last word when the query runs; this only says it sooner.
function syntaxCheck(prefixes) {
  return linter((view) => {
    const text = view.state.doc.toString();
    if (!text.trim()) { return []; }
    try {
      new Parser({ prefixes: prefixes(), sparqlStar: true }).parse(text);
      return [];
    } catch (e) {
      return [syntaxError(view.state.doc, text, e)];
    }
  }, { delay: 500 });
}

function syntaxError(doc, text, e) {
  const message = String(e.message || e);
  const base = { severity: "error", source: "SPARQL syntax, as you type" };
  const unknown = /^Unknown prefix: (.*)$/.exec(message);
  if (unknown) {  // where the undeclared prefix is first used
    const at = text.search(new RegExp("(^|[^\\w])" + unknown[1].replace(/[.*+?^${}()|[\]\\]/g, "\\$&") + ":(?!\\s*<)"));
    const from = at < 0 ? 0 : at + (text[at] === unknown[1][0] ? 0 : 1);
    return { ...base, from, to: Math.min(doc.length, from + unknown[1].length + 1),
             message: "The prefix " + unknown[1] + ": is not declared (add PREFIX " + unknown[1] + ": <...>)" };
  }
  const loc = e.hash && e.hash.loc;
  const got = (/got '([^']*)'$/.exec(message) || [])[1];
  const expected = [...((/Expecting (.*), got/.exec(message) || [])[1] || "").matchAll(/'([^']*)'/g)].map((m) => m[1]);
  const said = got === "EOF" ? "the query ends too soon" : got ? "unexpected " + (got === "INVALID" ? "word" : got) : message.split("\n")[0];
  const hint = expected.length ? " (expected " + expected.slice(0, 6).join(", ") + (expected.length > 6 ? ", …" : "") + ")" : "";
  if (!loc) { return { ...base, from: 0, to: Math.min(doc.length, doc.line(1).to || 1), message: said + hint }; }
  const line = doc.line(Math.min(Math.max(1, loc.first_line), doc.lines));
  let from = Math.min(line.from + loc.first_column, line.to), to = Math.min(line.from + Math.max(loc.last_column, loc.first_column + 1), doc.length);
  if (to <= from) { from = Math.max(0, from - 1); to = Math.min(doc.length, from + 1); }
  return { ...base, from, to, message: said + hint };
}

function reformat(view) {
  const text = view.state.doc.toString();
  const pretty = format(text);
  if (pretty !== text) { view.dispatch({ changes: { from: 0, to: text.length, insert: pretty } }); }
}

// The lines where a stored query's parameters were filled in with its example, marked until they are edited away.
function filledLines(lines) {
  const mark = Decoration.line({ class: "cm-filled", attributes: { title: "filled in with the example value" } });
  return StateField.define({
    create(state) {
      const builder = new RangeSetBuilder();
      for (const n of [...new Set(lines)].sort((a, b) => a - b)) {
        if (n >= 1 && n <= state.doc.lines) { const line = state.doc.line(n); builder.add(line.from, line.from, mark); }
      }
      return builder.finish();
    },
    update(marks, tr) { return marks.map(tr.changes); },
    provide: (field) => EditorView.decorations.from(field),
  });
}
