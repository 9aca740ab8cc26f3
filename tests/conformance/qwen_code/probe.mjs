// Qwen Code's own context loading, run from its released package: `loadServerHierarchicalMemory`
// (the QWEN.md/AGENTS.md files and the `.qwen/rules` it loads at start) and its
// `ConditionalRulesRegistry` (the rules it injects once a tool touches a file), both exported by
// the bundle chunk that holds them, which is found by its exports, not by its hashed name.
//
//   node probe.mjs INSTALL_DIR < cases.json > answers.json
//
// Qwen Code is started in the folder of the case's path (rulelens's reading of agents that
// read a folder chain: the folder of the edited file). Each case is a project (its files) and a path; it asks about one file (extra.marker: a text
// only that file holds): "always" when its text is in what loads at start, true when it is
// injected for the path, false otherwise.
import { mkdtempSync, readFileSync, readdirSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { dirname, join } from "node:path";
import { pathToFileURL } from "node:url";
import { answerAll, readCases, writeProject } from "../probe_common.mjs";

const cases = readCases(); // before the bundle, which changes stdin's mode
const install = process.argv[2];
const chunks = join(install, "node_modules/@qwen-code/qwen-code/chunks");
process.env.HOME = mkdtempSync(join(tmpdir(), "qwen-home-")); // no user-level rules or QWEN.md

let qwen = null;
for (const name of readdirSync(chunks).filter((n) => n.endsWith(".js"))) {
  const text = readFileSync(join(chunks, name), "utf8");
  if (!text.includes("ConditionalRulesRegistry") || !text.includes("loadServerHierarchicalMemory")) continue;
  const m = await import(pathToFileURL(join(chunks, name)).href);
  if (m.ConditionalRulesRegistry && m.loadServerHierarchicalMemory && m.FileDiscoveryService) { qwen = m; break; }
}
if (!qwen) throw new Error("Qwen Code's memory loading was not found in its bundle");

async function run(files, path) {
  const root = writeProject("qwen-probe-", files, path);
  try {
    // Started in the path's folder, as rulelens takes an agent that reads a folder chain to be.
    const cwd = dirname(join(root, path));
    const memory = await qwen.loadServerHierarchicalMemory(cwd, [], new qwen.FileDiscoveryService(root), [], true, "tree", [], {});
    const registry = new qwen.ConditionalRulesRegistry(memory.conditionalRules, memory.projectRoot);
    const injected = (await registry.matchAndConsume(join(root, path))) ?? "";
    return { first: memory.memoryContent ?? "", later: injected };
  } finally {
    rmSync(root, { recursive: true, force: true });
  }
}

await answerAll(cases, run);
