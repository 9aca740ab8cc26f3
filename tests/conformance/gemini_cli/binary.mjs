// The `gemini` command itself, run on a few of the probe's cases: started non-interactively at
// the case's project root (trusted, an empty home, API-key auth), against a fake Gemini API on
// 127.0.0.1 (GOOGLE_GEMINI_BASE_URL) whose model writes the case's path with `write_file` (the
// read tool refuses paths that git or `.geminiignore` ignores; the write tool does not). What
// reached the model: "always" when a file's marker is in its first request, true when it is in
// the tool's answer (the context Gemini CLI adds just in time), false otherwise; as probe.mjs.
//
//   node binary.mjs INSTALL_DIR < cases.json > answers.json
import { spawn } from "node:child_process";
import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from "node:fs";
import http from "node:http";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { answerAll, readCases, writeProject } from "../probe_common.mjs";

const cases = readCases();
const gemini = join(process.argv[2], "node_modules/@google/gemini-cli/bundle/gemini.js");
const home = mkdtempSync(join(tmpdir(), "gemini-home-"));
mkdirSync(join(home, ".gemini"));
writeFileSync(join(home, ".gemini/settings.json"), JSON.stringify({
  security: { auth: { selectedType: "gemini-api-key" } },
  general: { enableAutoUpdate: false, enableAutoUpdateNotification: false },
  privacy: { usageStatisticsEnabled: false },
}));

// A model that writes `target` once, then answers "done"; every request body is kept.
function fakeModel(target) {
  const bodies = [];
  let wrote = false;
  const server = http.createServer((req, res) => {
    let body = "";
    req.on("data", (c) => (body += c));
    req.on("end", () => {
      let parsed = {};
      try { parsed = JSON.parse(body); } catch { /* not JSON */ }
      const main = req.url.includes(":streamGenerateContent");
      if (main) bodies.push(parsed);
      const part = main && !wrote && JSON.stringify(parsed.tools ?? "").includes("write_file")
        ? (wrote = true, { functionCall: { name: "write_file", args: { file_path: target, content: "x\n" } } })
        : { text: parsed.generationConfig?.responseMimeType === "application/json" ? '{"model_choice":"flash"}' : "done" };
      const out = { candidates: [{ content: { role: "model", parts: [part] }, finishReason: "STOP", index: 0 }],
                    usageMetadata: { promptTokenCount: 1, candidatesTokenCount: 1, totalTokenCount: 2 } };
      if (req.url.includes(":countTokens")) return res.end(JSON.stringify({ totalTokens: 1 }));
      res.writeHead(200, { "content-type": main ? "text/event-stream" : "application/json" });
      res.end(main ? `data: ${JSON.stringify(out)}\n\n` : JSON.stringify(out));
    });
  });
  return new Promise((ready) => server.listen(0, "127.0.0.1", () => ready({ server, bodies })));
}

async function run(files, path) {
  const root = writeProject("gemini-binary-", files, path);
  const { server, bodies } = await fakeModel(join(root, path));
  try {
    const env = { PATH: process.env.PATH, HOME: home, GEMINI_CLI_HOME: home, GEMINI_CLI_TRUST_WORKSPACE: "true",
                  GEMINI_API_KEY: "fake", GOOGLE_GEMINI_BASE_URL: `http://127.0.0.1:${server.address().port}`, NO_COLOR: "1" };
    const child = spawn(process.execPath, [gemini, "-p", "Write the file.", "--yolo"], { cwd: root, env, stdio: "ignore" });
    await new Promise((done) => child.on("exit", done));
    const first = JSON.stringify(bodies[0] ?? "");
    const last = bodies.at(-1)?.contents?.at(-1);
    const later = last && JSON.stringify(last).includes("functionResponse") ? JSON.stringify(last) : "";
    return { first, later };
  } finally {
    server.close();
    rmSync(root, { recursive: true, force: true });
  }
}

await answerAll(cases, run);
