// Gemini CLI's own context loading, run from its released package: the CLI's `loadSettings`
// (the project's `.gemini/settings.json`), the `context.fileName` step the CLI's config makes
// with it (`setGeminiMdFilename`, else `resetGeminiMdFilename`), and core's
// `MemoryContextManager`: `refresh()` (what loads at start) and `discoverContext()` (what a tool
// that reads or edits the path adds just in time). The chunks are the ones the `gemini` command
// itself loads: bundle/gemini.js's main module and what that imports, found by their exports.
//
//   node probe.mjs INSTALL_DIR < cases.json > answers.json
//
// Gemini CLI is started at the project root (where it reads `.gemini/settings.json`), in a
// trusted folder (GEMINI_CLI_TRUST_WORKSPACE=true: an untrusted folder loads no project context
// at all), with an empty home (GEMINI_CLI_HOME) so no user file leaks in. Each case is a project
// (its files) and a path; it asks about one file (extra.marker: a text only that file holds):
// "always" when its text is in what loads at start, true when it is added for the path, false
// otherwise. A case's `extra.failed` asks instead whether an `@path` import is replaced by an
// "Import failed" comment, and `extra.fails` whether Gemini CLI refuses to start.
import { mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { dirname, join } from "node:path";
import { pathToFileURL } from "node:url";
import { answer, printAll, readCases } from "../probe_common.mjs";

const cases = readCases(); // before the bundle, which changes stdin's mode
// Gemini CLI's debug logger writes to stdout with console.debug; the answers alone go there.
console.debug = console.log = console.info = (...args) => process.stderr.write(`${args.join(" ")}\n`);
const bundle = join(process.argv[2], "node_modules/@google/gemini-cli/bundle");
const home = mkdtempSync(join(tmpdir(), "gemini-home-"));
process.env.GEMINI_CLI_HOME = home; // no user GEMINI.md, settings or trusted folders
process.env.HOME = home;
process.env.GEMINI_CLI_TRUST_WORKSPACE = "true";
process.env.GEMINI_CLI_SYSTEM_SETTINGS_PATH = join(home, "system-settings.json");
process.env.GEMINI_CLI_SYSTEM_DEFAULTS_PATH = join(home, "system-defaults.json");

// The `gemini` command's main module, and the chunks it imports.
const entry = readFileSync(join(bundle, "gemini.js"), "utf8").match(/import\("\.\/(gemini-[A-Z0-9]+\.js)"\)/)[1];
const chunks = [...readFileSync(join(bundle, entry), "utf8").matchAll(/from "\.\/(chunk-[A-Z0-9]+\.js)"/g)].map((m) => m[1]);
let core = null;
let cli = null;
for (const name of new Set(chunks)) {
  const text = readFileSync(join(bundle, name), "utf8");
  if (!text.includes("MemoryContextManager") && !text.includes("loadSettings")) continue;
  const m = await import(pathToFileURL(join(bundle, name)).href);
  if (m.MemoryContextManager && m.setGeminiMdFilename) core = m;
  if (m.loadSettings) cli = m;
}
if (!core?.MemoryContextManager || !cli?.loadSettings) throw new Error("Gemini CLI's context loading was not found in its bundle");

// What MemoryContextManager asks of the CLI's Config, as the Config answers it.
function config(root, settings) {
  const memoryDir = mkdtempSync(join(home, "project-memory-"));
  return {
    getExtensionLoader: () => ({ getExtensions: () => [] }),
    isTrustedFolder: () => true,
    getWorkspaceContext: () => ({ getDirectories: () => [root] }),
    getMemoryBoundaryMarkers: () => settings.context?.memoryBoundaryMarkers ?? [".git"],
    getImportFormat: () => settings.context?.importFormat ?? "tree",
    getMcpClientManager: () => undefined,
    storage: { getProjectMemoryDir: () => memoryDir },
  };
}

// The case's files under a fresh folder marked as a repository's root: Gemini CLI's discovery
// only tests that `.git` exists there (`findProjectRoot`), so no git is started.
function writeFiles(files) {
  const root = mkdtempSync(join(tmpdir(), "gemini-probe-"));
  for (const [rel, body] of Object.entries(files)) {
    mkdirSync(dirname(join(root, rel)), { recursive: true });
    writeFileSync(join(root, rel), body);
  }
  mkdirSync(join(root, ".git"), { recursive: true });
  return root;
}

// What loads at start and for `path`, each in a fresh manager, as one run of Gemini CLI.
async function run(root, path) {
  let settings;
  try {
    settings = cli.loadSettings(root).merged;
  } catch (e) {
    return { fails: true, first: "", later: "" }; // FatalConfigError: Gemini CLI does not start
  }
  core.resetGeminiMdFilename(core.DEFAULT_CONTEXT_FILENAME); // a new process's state
  try {
    if (settings.context?.fileName) core.setGeminiMdFilename(settings.context.fileName); // as the CLI's loadCliConfig
  } catch (e) {
    return { fails: true, first: "", later: "" }; // thrown at start: Gemini CLI does not start
  }
  const manager = new core.MemoryContextManager(config(root, settings));
  await manager.refresh();
  const later = await manager.discoverContext(join(root, path), [root]);
  return { fails: false, first: manager.getEnvironmentMemory(), later };
}

// The cases grouped by their files (one folder each), then by path.
const byFiles = new Map();
cases.forEach((c, i) => {
  const key = JSON.stringify(c.files);
  if (!byFiles.has(key)) byFiles.set(key, []);
  byFiles.get(key).push(i);
});
const answers = new Array(cases.length);
for (const members of byFiles.values()) {
  const paths = [...new Set(members.map((i) => cases[i].path))];
  const files = { ...Object.fromEntries(paths.map((p) => [p, "x\n"])), ...cases[members[0]].files };
  const root = writeFiles(files);
  try {
    for (const path of paths) {
      const seen = await run(root, path);
      for (const i of members.filter((i) => cases[i].path === path)) {
        const x = cases[i].extra;
        answers[i] = x.fails ? seen.fails
          : x.failed !== undefined ? (seen.first + seen.later).includes(`<!-- Import failed: ${x.failed} `)
          : seen.fails ? false : answer(seen, x.marker);
      }
    }
  } finally {
    rmSync(root, { recursive: true, force: true });
  }
}
await printAll(JSON.stringify(answers)); // all of it, before the exit
process.exit(0); // the bundle's timers would keep node alive
