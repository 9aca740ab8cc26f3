// OpenAI Codex itself, asked which AGENTS.md files reach the model: the released binary runs
// non-interactively (`codex exec`) in the folder of the case's path, inside a temporary project
// holding the case's files, against a fake OpenAI Responses server on 127.0.0.1 (a custom model
// provider in a temporary CODEX_HOME's config.toml; no login). The probe reads the first
// request's "# AGENTS.md instructions" message: a file whose start and end markers are both in
// it reached the model whole ("whole"), one with only its start marker was cut ("cut"), any
// other did not (false).
//
//   node probe.mjs INSTALL_DIR < cases.json > answers.json
//
// Cases that share their files, path and setup share one run; each asks about one file
// (extra.file; extra.start and extra.end: texts only that file holds). extra.git false: the
// project is not a git repository; extra.repos: folders that are git repositories of their own
// (as a submodule or a vendored clone is); extra.links: symbolic links (path: target) made
// beside the files; extra.home: the text of $CODEX_HOME/AGENTS.md. The project is
// trusted in the temporary config (as Codex asks on first start), so its .codex/config.toml
// applies.
import { execFileSync, spawn } from "node:child_process";
import { mkdirSync, mkdtempSync, rmSync, symlinkSync, writeFileSync } from "node:fs";
import { createServer } from "node:http";
import { tmpdir } from "node:os";
import { dirname, join, resolve as absolute } from "node:path";
import { readCases } from "../probe_common.mjs";

const install = absolute(process.argv[2]);
const binary = join(install, "node_modules/@openai/codex-linux-x64/vendor/x86_64-unknown-linux-musl/bin/codex");

// One server for every run; each run has its own URL prefix (/run-N/v1), so parallel runs'
// requests are told apart.
const firsts = new Map();
const server = createServer((req, res) => {
  let raw = "";
  req.on("data", (c) => { raw += c; });
  req.on("end", () => {
    const run = (req.url || "").split("/")[1];
    if (req.method !== "POST") {
      res.writeHead(200, { "Content-Type": "application/json" });
      res.end(JSON.stringify({ models: [], data: [] }));
      return;
    }
    if (!firsts.has(run)) firsts.set(run, raw);
    res.writeHead(200, { "Content-Type": "text/event-stream" });
    const event = (type, body) => res.write(`event: ${type}\ndata: ${JSON.stringify({ type, ...body })}\n\n`);
    event("response.created", { response: { id: "resp_1" } });
    event("response.output_item.done", { item: { type: "message", role: "assistant", id: "msg_1", content: [{ type: "output_text", text: "done" }] } });
    event("response.completed", { response: { id: "resp_1", usage: { input_tokens: 1, input_tokens_details: null, output_tokens: 1, output_tokens_details: null, total_tokens: 2 } } });
    res.end();
  });
});
await new Promise((resolve) => server.listen(0, "127.0.0.1", resolve));
const port = server.address().port;

function writeTree(root, files, git, repos, links) {
  for (const [rel, body] of Object.entries(files)) {
    mkdirSync(dirname(join(root, rel)), { recursive: true });
    writeFileSync(join(root, rel), body);
  }
  for (const [rel, target] of Object.entries(links || {})) {
    mkdirSync(dirname(join(root, rel)), { recursive: true });
    symlinkSync(target, join(root, rel));
  }
  if (git) execFileSync("git", ["init", "-q", root]);
  for (const repo of repos || []) execFileSync("git", ["init", "-q", join(root, repo)]);
}

// The instructions Codex sent for the project (between <INSTRUCTIONS> tags), "" when none.
function instructions(raw) {
  const body = JSON.parse(raw);
  for (const item of body.input || []) {
    for (const part of item.content || []) {
      const text = part.text || "";
      if (text.startsWith("# AGENTS.md instructions for")) {
        return text.slice(text.indexOf("<INSTRUCTIONS>") + 14, text.lastIndexOf("</INSTRUCTIONS>"));
      }
    }
  }
  return "";
}

let runs = 0;
async function run(first) {
  const id = `run-${runs++}`;
  const scratch = mkdtempSync(join(tmpdir(), "codex-probe-"));
  const root = join(scratch, "project");
  const home = join(scratch, "home");
  try {
    mkdirSync(root);
    mkdirSync(home);
    writeTree(root, { [first.path]: "x\n", ...first.files }, first.extra.git !== false, first.extra.repos, first.extra.links);
    if (first.extra.home !== undefined) writeFileSync(join(home, "AGENTS.md"), first.extra.home);
    // Plugins and analytics off: with them on, Codex looks up github.com and ab.chatgpt.com; with
    // them off it talks to nothing but the fake server (checked with strace).
    writeFileSync(join(home, "config.toml"), [
      'model = "fake-model"', 'model_provider = "fake"',
      "[features]", "plugins = false", "remote_plugin = false", "plugin_sharing = false",
      "[analytics]", "enabled = false",
      "[model_providers.fake]", 'name = "fake"', `base_url = "http://127.0.0.1:${port}/${id}/v1"`, 'wire_api = "responses"',
      `[projects.${JSON.stringify(root)}]`, 'trust_level = "trusted"', "",
    ].join("\n"));
    const env = { PATH: process.env.PATH, HOME: home, CODEX_HOME: home, NO_COLOR: "1", RUST_LOG: "error" };
    const status = await new Promise((resolve) => {
      const child = spawn(binary, ["exec", "--skip-git-repo-check", "--ephemeral", "-s", "read-only", "hello"],
        { cwd: dirname(join(root, first.path)), env, stdio: ["ignore", "ignore", "pipe"] });
      let err = "";
      child.stderr.on("data", (c) => { err += c; });
      const timer = setTimeout(() => child.kill("SIGKILL"), 60000);
      child.on("error", (e) => { clearTimeout(timer); resolve({ code: null, err: String(e) }); });
      child.on("exit", (code) => { clearTimeout(timer); resolve({ code, err }); });
    });
    if (!firsts.has(id)) throw new Error(`codex sent no request (exit ${status.code}): ${status.err.slice(-2000)}`);
    return instructions(firsts.get(id));
  } finally {
    firsts.delete(id);
    rmSync(scratch, { recursive: true, force: true });
  }
}

const cases = readCases();
const groups = new Map();
cases.forEach((c, i) => {
  const key = JSON.stringify([c.files, c.path, c.extra.git, c.extra.repos, c.extra.links, c.extra.home]);
  if (!groups.has(key)) groups.set(key, []);
  groups.get(key).push(i);
});
const queue = [...groups.values()];
const answers = new Array(cases.length);
async function worker() {
  for (let group = queue.shift(); group; group = queue.shift()) {
    const seen = await run(cases[group[0]]);
    for (const i of group) {
      const { start, end } = cases[i].extra;
      answers[i] = seen.includes(start) ? (seen.includes(end) ? "whole" : "cut") : false;
    }
  }
}
await Promise.all([worker(), worker(), worker()]);
server.close();
process.stdout.write(JSON.stringify(answers));
