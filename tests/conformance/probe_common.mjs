// What the agents' probes share: a case's project written to a temporary git repository, and
// the cases grouped by project (files and path), so that one run of the agent answers them all.
import { execFileSync } from "node:child_process";
import { mkdtempSync, mkdirSync, readFileSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { dirname, join } from "node:path";

export function readCases() {
  return JSON.parse(readFileSync(0, "utf8"));
}

// A temporary git repository holding `files` and `path` (an empty file where `files` lacks it).
export function writeProject(prefix, files, path) {
  const root = mkdtempSync(join(tmpdir(), prefix));
  for (const [rel, body] of Object.entries({ [path]: "x\n", ...files })) {
    mkdirSync(dirname(join(root, rel)), { recursive: true });
    writeFileSync(join(root, rel), body);
  }
  execFileSync("git", ["init", "-q", root]);
  return root;
}

// The indexes of the cases, grouped by their files and path.
export function byProject(cases) {
  const groups = new Map();
  cases.forEach((c, i) => {
    const key = JSON.stringify([c.files, c.path]);
    if (!groups.has(key)) groups.set(key, []);
    groups.get(key).push(i);
  });
  return [...groups.values()];
}

// Each case's answer from its project's run: "always" where its file's marker is in what the
// agent loads at start, true where it is in what the agent adds for the path, false otherwise.
export function answer(seen, marker) {
  return seen.first.includes(marker) ? "always" : seen.later.includes(marker);
}

// `text` written to stdout, resolved once it is all handed to the system: a probe that exits
// right after a bare write to a pipe loses all but the first 64 KiB.
export function printAll(text) {
  return new Promise((resolve, reject) => process.stdout.write(text, (e) => (e ? reject(e) : resolve())));
}

// Runs `run(files, path)` once per project and prints every case's answer: `pick(seen, case)`,
// by default whether (and when) the agent loaded the case's marker. `print` false: the answers
// are returned, not printed.
export async function answerAll(cases, run, pick = (seen, c) => answer(seen, c.extra.marker), print = true) {
  const answers = new Array(cases.length);
  for (const members of byProject(cases)) {
    const { files, path } = cases[members[0]];
    const seen = await run(files, path);
    for (const i of members) answers[i] = pick(seen, cases[i]);
  }
  if (print) await printAll(JSON.stringify(answers));
  return answers;
}
