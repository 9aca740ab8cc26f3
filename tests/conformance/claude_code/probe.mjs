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

// Bun's module graph: a list of records, each six (offset, length) pairs (name, contents, source
// map, bytecode, module info, bytecode origin) and four flag bytes, found through the trailer. The
// base its offsets count from is found, not assumed: where the first record names a /$bunfs/ path.
function graph() {
  const trailer = binary.lastIndexOf("\n---- Bun! ----\n");
  const bytes = Number(binary.readBigUInt64LE(trailer - 32));
  const list = binary.readUInt32LE(trailer - 24);
  const size = binary.readUInt32LE(trailer - 20);
  const names = (base, at) => binary.subarray(base + binary.readUInt32LE(at), base + binary.readUInt32LE(at) + 14).toString("latin1");
  for (let shift = -64; shift <= 64; shift++) {
    const base = trailer - bytes + shift;
    for (let skip = 0; skip < 52; skip += 4) {
      const first = base + list + skip;
      if (names(base, first) !== "/$bunfs/root/c" || names(base, first + 52) !== "/$bunfs/root/c") continue;
      const modules = new Map();
      for (let at = first; at + 16 <= base + list + size; at += 52) {
        const name = binary.subarray(base + binary.readUInt32LE(at), base + binary.readUInt32LE(at) + binary.readUInt32LE(at + 4)).toString("latin1");
        const from = base + binary.readUInt32LE(at + 8);
        modules.set(name, [binary.lastIndexOf("// @bun", from + 1), from + binary.readUInt32LE(at + 12) + 64]);
      }
      return modules;
    }
  }
  throw new Error("the binary's module graph was not found");
}

// What a chunk exports under `name`, when it is a function that stands alone; else undefined.
function exported(modules, chunk, name) {
  const span = modules.get(chunk);
  if (!span) return undefined;
  const text = binary.subarray(span[0], span[1]).toString("utf8");
  const at = text.indexOf(`function ${name}(`);
  if (at < 0) return undefined;
  for (let end = text.indexOf("}", at); end > 0 && end - at < 4000; end = text.indexOf("}", end + 1)) {
    try { return new Function(`${text.slice(at, end + 1)}\nreturn ${name};`)(); } catch { /* longer */ }
  }
  return undefined;
}

// Each name the module imports, bound to what its chunk exports when that is a function standing
// alone (a string helper), else to an inert stand-in (an LRU cache, a logger, telemetry: code the
// probe does not run, but whose construction the module's top level does).
function imports(text, at) {
  const start = text.lastIndexOf("// @bun", at);
  const head = text.slice(Math.max(0, start), at);
  const bound = [];
  let modules;
  for (const [, list, chunk] of head.matchAll(/import\{([^}]*)\}from"([^"]*)"/g)) {
    for (const item of list.split(",")) {
      const [name, local = name] = item.trim().split(/\s+as\s+/);
      modules ??= graph();
      bound.push([local, exported(modules, chunk, name) ?? inert()]);
    }
  }
  return bound;
}

function inert() {
  return function Inert() {
    if (!new.target) return undefined;
    const kept = new Map();
    return { get: (k) => kept.get(k), set: (k, v) => { kept.set(k, v); }, clear: () => kept.clear() };
  };
}

// The ignore module: from its tokenizer's `var` to the module's next `import{`, with what it
// imports bound as above (since 2.1.337 it imports from other chunks).
function ignoreClass() {
  const token = "=/(\\*+(?=.))|(\\\\*)(\\/\\*\\*(?![^/])|\\w+|[^]?)/g;";
  return first(token, 4096, 40000, ({ text, at }) => {
    const start = text.lastIndexOf("var ", at);
    const end = text.indexOf("import{", at);
    const code = text.slice(start, end);
    const cls = /class ([\w$]+)\{[^]*?constructor\(\{ignorecase:e=!0\}=\{\}\)/.exec(code);
    if (!cls) throw new Error("the ignore class was not found");
    const bound = imports(text, at);
    return new Function(...bound.map(([local]) => local), `${code}\nreturn ${cls[1]};`)(...bound.map(([, value]) => value));
  });
}

// The splitter (commas outside braces, trim, brace expansion in a budget).
function splitter() {
  return first("Brace pattern expansion exceeds the budget", 3000, 1000, ({ text, at }) => {
    const head = /function ([\w$]+)\(([\w$])\)\{return ([\w$]+)\(\2,\{results:[\w$]+,bytes:[\w$]+\}\)\}/g;
    let m, last = null;
    while ((m = head.exec(text)) !== null && m.index < at) last = m;
    if (!last) throw new Error("the paths splitter was not found");
    const end = text.indexOf("}function ", at) + 1;
    const logger = /return ([\w$]+)\(`Brace pattern expansion/.exec(text)[1];
    return new Function(`const ${logger}=()=>{};\n${text.slice(last.index, end)}\nreturn ${last[1]};`)();
  });
}

// The `paths` reader of a memory file's frontmatter (its variables are renamed between releases).
function pathsReader(split) {
  const body = /\.map\(\(([\w$])\)=>\1\.endsWith\("\/\*\*"\)\?\1\.slice\(0,-3\):\1\)\.filter\(\(([\w$])\)=>\2\.length>0\);return ([\w$])\.every\(\(([\w$])\)=>\4==="\*\*"\)\?void 0:\3\}/;
  return first('.endsWith("/**")?', 300, 300, ({ text, at }) => {
    const found = body.exec(text.slice(at - 40));
    if (!found || found.index > 60) throw new Error("not the paths reader");
    const stop = at - 40 + found.index + found[0].length;
    const start = text.lastIndexOf("function ", at);
    const src = text.slice(start, stop);
    const called = /let [\w$]+=([\w$]+)\(e\)/.exec(src)[1];
    return new Function(called, `return (${src});`)(split);
  });
}

const Ignore = ignoreClass();
const readPaths = pathsReader(splitter());
// A pattern that does not compile is dropped (2.1.337 asks `ownVerdict("")`; earlier, `test`).
const compiles = (p) => {
  try {
    const one = new Ignore().add([p]);
    if (one.ownVerdict) one.ownVerdict(""); else one.test("probe");
    return true;
  } catch { return false; }
};

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
