// Amp's own guidance-file discovery, run from its released binary: @ampcode/cli-linux-x64 is a
// Bun executable whose embedded JavaScript (stored as UTF-16) holds Amp's whole CLI. The probe
// takes that JavaScript out of the binary, lets it set itself up without starting the CLI, and
// calls the two functions Amp calls itself, in the binary's own runtime (the binary is Bun when
// BUN_BE_BUN=1):
// - the discovery at the start of a thread (the executor's guidance snapshot): what it loads
//   before any file has been read;
// - the discovery after its Read tool reads a file (`discoveredGuidanceFiles` of the result):
//   the AGENTS.md files between the file and the workspace root, and the files they and the
//   root's file @-mention whose `globs` match the file.
// The functions are found by stable text (their log messages and call sites), not by their
// minified names. Amp is started at the project root (the workspace root, as `cd repo && amp`).
//
//   node probe.mjs INSTALL_DIR < cases.json > answers.json
//
// Each case is a project (its files) and a path; it asks about one file (extra.file):
// "always" when Amp loads it at start, true when it loads it after reading the path, false
// otherwise.
import { spawnSync } from "node:child_process";
import { mkdtempSync, readFileSync, realpathSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join, relative } from "node:path";
import { fileURLToPath, pathToFileURL } from "node:url";
import { answerAll, printAll, writeProject } from "../probe_common.mjs";

const install = process.argv[2];
const binary = join(install, "node_modules/@ampcode/cli-linux-x64/amp");

if (typeof Bun === "undefined") {
  // Under Node: this same file again, in the binary's runtime, with a home of its own (no user
  // guidance, nothing written to the user's home) and no package auto-install. The answers come
  // back in a file: Amp's own logger writes debug lines to stdout (a mention that names no
  // file logs one), which go to stderr here.
  const home = mkdtempSync(join(tmpdir(), "amp-home-"));
  const out = join(home, "answers.json");
  const run = spawnSync(binary, ["--no-install", fileURLToPath(import.meta.url), install], {
    input: readFileSync(0), env: { ...process.env, BUN_BE_BUN: "1", HOME: home, XDG_CONFIG_HOME: join(home, ".config"),
      XDG_CACHE_HOME: join(home, ".cache"), XDG_DATA_HOME: join(home, ".local/share"), AMP_PROBE_OUT: out },
    maxBuffer: 1 << 30, stdio: ["pipe", "pipe", "inherit"],
  });
  if (run.error) throw run.error;
  process.stderr.write(run.stdout);
  const answers = run.status === 0 ? readFileSync(out, "utf8") : null;
  rmSync(home, { recursive: true, force: true });
  if (answers === null) process.exit(run.status ?? 1);
  await printAll(answers); // all of it, before the exit
  process.exit(0);
}

// Amp's JavaScript: the UTF-16 text around a message only its guidance reader logs, out to the
// NUL characters that bound it.
function bundle() {
  const bytes = readFileSync(binary);
  const at = bytes.indexOf(Buffer.from("Invalid YAML front matter in guidance file", "utf16le"));
  if (at < 0) throw new Error("Amp's guidance reader was not found in its binary");
  let start = at - (at % 2), end = start;
  while (start >= 2 && (bytes[start - 2] | bytes[start - 1]) !== 0) start -= 2;
  while (end + 1 < bytes.length && (bytes[end] | bytes[end + 1]) !== 0) end += 2;
  return bytes.subarray(start, end).toString("utf16le");
}

function one(source, regex, what) {
  const found = [...source.matchAll(regex)].map((m) => m[1] ?? m[0]);
  if (new Set(found).size !== 1) throw new Error(`Amp's ${what} was not found once in its bundle (${found.length})`);
  return found[0];
}

async function load() {
  let source = bundle();
  const start = one(source, /async function ([\w$]+)\(H,t,e\)\{let r=performance\.now\(\),i="enumeration";/g, "start discovery");
  const read = one(source, /await ([\w$]+)\([\w$]+,[\w$]+\.dir,[\w$]+\.thread,[\w$]+\.discoveredGuidanceFileURIs/g, "read discovery");
  const uri = one(source, /function [\w$]+\(H\)\{if\(typeof H==="string"\|\|H instanceof URL\)return ([\w$]+)\.parse\(/g, "URI class");
  const observable = one(source, /\(H,([\w$]+)\.of\(\{env:t\.env\}\)\)/g, "observable");
  const order = one(source, /[\w$]+=\{system:0,user:1,project:2,parent:3,subtree:4\};/g, "guidance order");
  const main = one(source, /([\w$]+)\(\)\.then\(\(\) => \(\{\}\)\)/g, "CLI start");
  // Once the guidance code's values are set, hand its functions out and stop before the CLI runs.
  source = source.replace(order, `${order}if(globalThis.__AMP_PROBE__){globalThis.__AMP_PROBE__=`
    + `{start:${start},read:${read},URI:${uri},Observable:${observable}};return}`);
  source = source.replace(/export default ([\w$]+)\(\);\s*$/, `export{${main} as setUp};`);
  const dir = mkdtempSync(join(tmpdir(), "amp-bundle-"));
  try {
    writeFileSync(join(dir, "amp.mjs"), source);
    globalThis.__AMP_PROBE__ = true;
    await (await import(pathToFileURL(join(dir, "amp.mjs")).href)).setUp();
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
  if (typeof globalThis.__AMP_PROBE__ !== "object") throw new Error("Amp's bundle did not set itself up");
  return globalThis.__AMP_PROBE__;
}

const cases = JSON.parse(readFileSync(0, "utf8"));
const amp = await load();

async function run(files, path) {
  const root = realpathSync(writeProject("amp-probe-", files, path));
  const rootUri = amp.URI.file(root);
  const rel = (u) => relative(root, amp.URI.parse(String(u)).fsPath);
  try {
    const env = { initial: { trees: [{ uri: rootUri.toString() }], workingDirectory: rootUri.toString() } };
    const configService = { workspaceRoot: amp.Observable.of(rootUri), userConfigDir: undefined };
    const first = await amp.start({ configService }, { messages: [], env });
    const thread = { id: "T-probe", created: Date.now(), v: 0, messages: [], env };
    const later = await amp.read(amp.URI.file(join(root, path)), rootUri, thread, new Set());
    return { first: new Set(first.map((f) => rel(f.uri))), later: new Set(later.map((f) => rel(f.uri))) };
  } finally {
    rmSync(root, { recursive: true, force: true });
  }
}

const answers = await answerAll(cases, run,
  (seen, c) => (seen.first.has(c.extra.file) ? "always" : seen.later.has(c.extra.file)), false);
writeFileSync(process.env.AMP_PROBE_OUT, JSON.stringify(answers));
process.exit(0);
