// Reads {"matcher": "picomatch"|"minimatch", "cases": [[pattern, path], ...]} on stdin and
// prints one JSON array of booleans: what the real library answers, called as the agent calls it
// (Cline: picomatch(pattern, {dot: true}); Continue: minimatch(path, pattern)).
import { readFileSync } from "node:fs";
import { createRequire } from "node:module";

const require = createRequire(import.meta.url);
const picomatch = require("picomatch");
const { minimatch } = require("minimatch");

const input = JSON.parse(readFileSync(0, "utf8"));
const answer = input.cases.map(([pattern, path]) =>
  input.matcher === "picomatch" ? picomatch(pattern, { dot: true })(path) : minimatch(path, pattern),
);
process.stdout.write(JSON.stringify(answer));
