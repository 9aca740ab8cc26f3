// GitHub Copilot CLI itself, asked which instruction files it loads: the released binary runs
// non-interactively (`copilot -p`) in a temporary git repository holding the case's files,
// against a fake OpenAI-style model server on 127.0.0.1 (COPILOT_PROVIDER_BASE_URL, offline
// mode). The fake model's first answer views the case's path; the probe then reads what reached
// the model: a file whose text is in the first request's system prompt is loaded at start
// ("always"); one injected after the view ("Custom instructions from …") loads for the path
// (true); any other does not (false).
//
//   node probe.mjs INSTALL_DIR < cases.json > answers.json
//
// Cases that share their files and path share one run; each asks about one file (extra.marker:
// a text only that file holds).
import { spawn } from "node:child_process";
import { mkdirSync, rmSync } from "node:fs";
import { createServer } from "node:http";
import { join } from "node:path";
import { answer, byProject, readCases, writeProject } from "../probe_common.mjs";

const install = process.argv[2];
const binary = join(install, "node_modules/@github/copilot-linux-x64/copilot");
const home = join(install, "home"); // where the binary unpacks itself once
mkdirSync(home, { recursive: true });

function fakeModel(target) {
  const requests = [];
  const server = createServer((req, res) => {
    let raw = "";
    req.on("data", (c) => { raw += c; });
    req.on("end", () => {
      if (req.method === "GET") {
        res.writeHead(200, { "Content-Type": "application/json" });
        res.end(JSON.stringify({ data: [{ id: "fake-model", object: "model" }] }));
        return;
      }
      const body = JSON.parse(raw || "{}");
      requests.push(body);
      const tools = (body.tools || []).map((t) => (t.function || t).name);
      const viewed = (body.messages || []).some((m) => m.role === "tool");
      const message = !viewed && tools.includes("view")
        ? { role: "assistant", content: null, tool_calls: [{ id: "call_1", type: "function", function: { name: "view", arguments: JSON.stringify({ path: target }) } }] }
        : { role: "assistant", content: "done" };
      const finish = message.tool_calls ? "tool_calls" : "stop";
      const usage = { prompt_tokens: 1, completion_tokens: 1, total_tokens: 2 };
      if (body.stream) {
        const delta = message.tool_calls ? { ...message, tool_calls: [{ ...message.tool_calls[0], index: 0 }] } : message;
        res.writeHead(200, { "Content-Type": "text/event-stream" });
        res.write(`data: ${JSON.stringify({ id: "x", object: "chat.completion.chunk", model: "fake-model", choices: [{ index: 0, delta, finish_reason: null }] })}\n\n`);
        res.write(`data: ${JSON.stringify({ id: "x", object: "chat.completion.chunk", model: "fake-model", choices: [{ index: 0, delta: {}, finish_reason: finish }], usage })}\n\n`);
        res.end("data: [DONE]\n\n");
      } else {
        res.writeHead(200, { "Content-Type": "application/json" });
        res.end(JSON.stringify({ id: "x", object: "chat.completion", model: "fake-model", choices: [{ index: 0, message, finish_reason: finish }], usage }));
      }
    });
  });
  return new Promise((resolve) => server.listen(0, "127.0.0.1", () => resolve({ server, requests })));
}

const text = (m) => (typeof m.content === "string" ? m.content : (m.content || []).map((p) => p.text || "").join(""));

async function run(files, path) {
  const root = writeProject("copilot-probe-", files, path);
  try {
    const { server, requests } = await fakeModel(join(root, path));
    const env = {
      PATH: process.env.PATH, HOME: home, XDG_CACHE_HOME: join(home, ".cache"), XDG_CONFIG_HOME: join(home, ".config"),
      COPILOT_OFFLINE: "1", COPILOT_PROVIDER_BASE_URL: `http://127.0.0.1:${server.address().port}/v1`,
      COPILOT_PROVIDER_API_KEY: "fake", COPILOT_PROVIDER_MODEL_ID: "fake-model", COPILOT_MODEL: "fake-model", NO_COLOR: "1",
    };
    const status = await new Promise((resolve) => {
      const child = spawn(binary, ["-p", `view ${path}`, "--allow-all-tools", "--no-auto-update"], { cwd: root, env, stdio: ["ignore", "ignore", "pipe"] });
      let err = "";
      child.stderr.on("data", (c) => { err += c; });
      const timer = setTimeout(() => child.kill("SIGKILL"), 120000);
      child.on("exit", (code) => { clearTimeout(timer); resolve({ code, err }); });
    });
    server.close();
    if (requests.length < 2) throw new Error(`copilot did not view ${path} (exit ${status.code}): ${status.err.slice(-2000)}`);
    const first = requests[0].messages.filter((m) => m.role === "system").map(text).join("\n");
    const last = requests[requests.length - 1].messages;
    const afterView = last.slice(last.findIndex((m) => m.role === "tool")).map(text).join("\n");
    return { first, later: afterView };
  } finally {
    rmSync(root, { recursive: true, force: true });
  }
}

const cases = readCases();
const answers = new Array(cases.length);
const queue = byProject(cases);
async function worker() {
  for (let group = queue.shift(); group; group = queue.shift()) {
    const { files, path } = cases[group[0]];
    const seen = await run(files, path);
    for (const i of group) answers[i] = answer(seen, cases[i].extra.marker);
  }
}
await Promise.all([worker(), worker()]);
process.stdout.write(JSON.stringify(answers));
