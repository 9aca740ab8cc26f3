// Claude Code's own rule matching, run from its released binary: the JavaScript embedded in
// @anthropic-ai/claude-code-linux-x64 is found by stable text (library code and messages, not
// minified names), evaluated here, and asked, case by case, whether a rule with the case's
// `paths` value loads for the case's path ("always" when the rule loads for every file).
//
//   node probe.mjs INSTALL_DIR < cases.json > answers.json
//
// What is evaluated is Claude Code's own code: its rewrite of the `ignore` package (the whole
// module), its `paths` splitter and brace expansion, and its `paths` reader (strip a trailing
// `/**`, drop empties, no pattern or only `**` means unconditional). The few lines that join
// them are written out below as its rules filter has them (`if(!globs||globs.length===0)`,
// the `..` test, patterns that do not compile dropped, `ignores(relativePath)`).
import { readFileSync } from "node:fs";
import { join } from "node:path";

const install = process.argv[2];
const binary = readFileSync(join(install, "node_modules/@anthropic-ai/claude-code-linux-x64/claude"));

// Each place the binary holds `anchor`, with the text around it (it can hold a module twice).
function* around(anchor, before, after) {
  for (let at = binary.indexOf(anchor); at >= 0; at = binary.indexOf(anchor, at + 1)) {
    yield { text: binary.subarray(Math.max(0, at - before), at + after).toString("utf8"), at: Math.min(at, before) };
  }
}

function first(anchor, before, after, read) {
  for (const place of around(anchor, before, after)) {
    try { return read(place); } catch { /* the next place */ }
  }
  throw new Error(`no usable place in the binary holds: ${anchor}`);
}

// The ignore module: from its tokenizer's `var` to the module's end (Bun's next `import{`).
function ignoreClass() {
  const token = "=/(\\*+(?=.))|(\\\\*)(\\/\\*\\*(?![^/])|\\w+|[^]?)/g;";
  return first(token, 64, 20000, ({ text, at }) => {
    const start = text.lastIndexOf("var ", at);
    const end = text.indexOf("import{", at);
    const code = text.slice(start, end);
    const cls = /class ([\w$]+)\{[^]*?constructor\(\{ignorecase:e=!0\}=\{\}\)/.exec(code);
    if (!cls) throw new Error("the ignore class was not found");
    return new Function(`${code}\nreturn ${cls[1]};`)();
  });
}

// The splitter (commas outside braces, trim, brace expansion in a budget).
function splitter() {
  return first("Brace pattern expansion exceeds the budget", 3000, 1000, ({ text, at }) => {
    const head = /function ([\w$]+)\(e\)\{return ([\w$]+)\(e,\{results:[\w$]+,bytes:[\w$]+\}\)\}/g;
    let m, last = null;
    while ((m = head.exec(text)) !== null && m.index < at) last = m;
    if (!last) throw new Error("the paths splitter was not found");
    const end = text.indexOf("}function ", at) + 1;
    const logger = /return ([\w$]+)\(`Brace pattern expansion/.exec(text)[1];
    return new Function(`const ${logger}=()=>{};\n${text.slice(last.index, end)}\nreturn ${last[1]};`)();
  });
}

// The `paths` reader of a memory file's frontmatter.
function pathsReader(split) {
  const body = '.map((o)=>o.endsWith("/**")?o.slice(0,-3):o).filter((o)=>o.length>0);return n.every((o)=>o==="**")?void 0:n}';
  return first(body, 300, body.length, ({ text, at }) => {
    const start = text.lastIndexOf("function ", at);
    const src = text.slice(start, at + body.length);
    const called = /let n=([\w$]+)\(e\)/.exec(src)[1];
    return new Function(called, `return (${src});`)(split);
  });
}

const Ignore = ignoreClass();
const readPaths = pathsReader(splitter());
const compiles = (p) => { try { new Ignore().add([p]).test("probe"); return true; } catch { return false; } };

const cases = JSON.parse(readFileSync(0, "utf8"));
const answers = cases.map(({ path, extra }) => {
  const value = extra.paths;
  const globs = value ? readPaths(value) : undefined;
  if (globs === undefined) return "always";
  if (!globs || globs.length === 0) return false;
  if (!path || path.startsWith("..") || path.startsWith("/")) return false;
  return new Ignore().add(globs.filter(compiles)).ignores(path);
});
process.stdout.write(JSON.stringify(answers));
