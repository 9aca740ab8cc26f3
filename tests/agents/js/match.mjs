// Reads {"matcher": ..., "cases": [[pattern, path], ...]} on stdin and prints one JSON array of
// booleans: what the real matcher answers, called as the agent calls it.
//   picomatch / minimatch: the bare library, as each agent calls it on one pattern;
//   picomatch-default: picomatch with default options (no dotfiles), as Qwen Code calls it;
//   cline:    pattern is a JSON list (`paths`); loads when any `picomatch(p.trim(), {dot: true})`
//             matches (rule-conditionals.ts);
//   continue: pattern is a JSON string or list (`globs`), through matchesGlobs (`!` excludes);
//   copilot:  pattern is the `applyTo` string, through computeAutomaticInstructions' _matches:
//             splitGlobAware on `,`, trimmed, `**`/`**/*`/`*` always, `**/` prepended unless it
//             starts with `/` or `**/`, VS Code's glob.match with ignoreCase on the absolute path.
import { readFileSync } from "node:fs";
import { createRequire } from "node:module";
// monaco-editor's exports map hides its internals; the compiled glob.ts is imported by path.
const { match: vscodeMatch, splitGlobAware } = await import(
  new URL("./node_modules/monaco-editor/esm/vs/base/common/glob.js", import.meta.url).href
);

const require = createRequire(import.meta.url);
const picomatch = require("picomatch");
const { minimatch } = require("minimatch");

function cline(paths, path) {
  const patterns = paths.map((p) => p.trim()).filter(Boolean);
  return patterns.some((p) => picomatch(p, { dot: true })(path));
}

function matchesGlobs(filePath, globs) {
  if (!globs) return true;
  if (typeof globs === "string") {
    if (globs.startsWith("!")) return !minimatch(filePath, globs.substring(1));
    return minimatch(filePath, globs);
  }
  const positive = globs.filter((g) => !g.startsWith("!"));
  const negative = globs.filter((g) => g.startsWith("!")).map((g) => g.substring(1));
  if (positive.length === 0) return !negative.some((p) => minimatch(filePath, p));
  return positive.some((p) => minimatch(filePath, p)) && !negative.some((p) => minimatch(filePath, p));
}

function copilot(applyTo, path) {
  for (let pattern of splitGlobAware(applyTo, ",")) {
    pattern = pattern.trim();
    if (pattern.length === 0) continue;
    if (pattern === "**" || pattern === "**/*" || pattern === "*") return true;
    if (!pattern.startsWith("/") && !pattern.startsWith("**/")) pattern = "**/" + pattern;
    if (vscodeMatch(pattern, path, { ignoreCase: true })) return true;
  }
  return false;
}

const input = JSON.parse(readFileSync(0, "utf8"));
const one = {
  picomatch: (pattern, path) => picomatch(pattern, { dot: true })(path),
  "picomatch-default": (pattern, path) => picomatch(pattern)(path),
  minimatch: (pattern, path) => minimatch(path, pattern),
  vscode: (pattern, path) => vscodeMatch(pattern, path, { ignoreCase: true }),
  cline: (pattern, path) => cline(JSON.parse(pattern), path),
  continue: (pattern, path) => matchesGlobs(path, JSON.parse(pattern)),
  copilot,
}[input.matcher];
const answer = input.cases.map(([pattern, path]) => {
  try {
    return one(pattern, path);
  } catch {
    return null; // the matcher throws: the pattern is broken for this agent
  }
});
process.stdout.write(JSON.stringify(answer));
