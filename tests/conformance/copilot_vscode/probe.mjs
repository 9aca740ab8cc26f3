// Copilot in VS Code's instruction loading, run from VS Code 1.117.0's compiled workbench code as
// the npm package @codingame/monaco-vscode-api ships it. VS Code core, not the Copilot Chat
// extension, decides which instruction files join a chat request; its own functions run here,
// each called on a `this` that stands in for the services VS Code would inject (a file service
// over node's fs, the settings at their defaults):
//   - PromptFilesLocator.resolveFilesAtLocation over each default instructions folder, kept where
//     getPromptFileType says "instructions" (as listFiles keeps them);
//   - PromptFileParser and evaluateApplyToPattern: each file's pattern (`applyTo`, or for
//     `.claude/rules` files their `paths`, `**` without);
//   - ComputeAutomaticInstructions.addApplyingInstructions: the files whose pattern matches the
//     path attached to the request (its `_matches`, VS Code's glob.ts);
//   - PromptsService.listAgentInstructions: the files attached to every request (AGENTS.md,
//     CLAUDE.md, copilot-instructions.md …), through PromptFilesLocator.findFilesInRoots.
//
//   node probe.mjs INSTALL_DIR < cases.json > answers.json
//
// Each case is a project (its files, the workspace folder) and a path attached to the chat; it
// asks about one file (extra.file): "always" when it joins every request (an agent instructions
// file, or a pattern VS Code attaches without looking at the files: `**`, `**/*`, `*`), true when
// it is attached for the path, false otherwise.
import { lstatSync, mkdtempSync, readFileSync, readdirSync, realpathSync, rmSync, statSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { pathToFileURL } from "node:url";
import { answerAll, readCases, writeProject } from "../probe_common.mjs";

const cases = readCases();
const install = process.argv[2];
const vs = join(install, "node_modules/@codingame/monaco-vscode-api/vscode/src/vs");
const load = (rel) => import(pathToFileURL(join(vs, rel)).href);
const syntax = "workbench/contrib/chat/common/promptSyntax";

const { URI } = await load("base/common/uri.js");
const { ResourceSet } = await load("base/common/map.js");
const { CancellationToken } = await load("base/common/cancellation.js");
const { PromptsType } = await load(`${syntax}/promptTypes.js`);
const { PromptsStorage } = await load(`${syntax}/service/promptsService.js`);
const { DEFAULT_INSTRUCTIONS_SOURCE_FOLDERS, getPromptFileType, isInClaudeRulesFolder } =
  await load(`${syntax}/config/promptFileLocations.js`);
const { PromptFileParser, evaluateApplyToPattern } = await load(`${syntax}/promptFileParser.js`);
const { PromptsConfig } = await load(`${syntax}/config/config.js`);
const { PromptFilesLocator } = await load(`${syntax}/utils/promptFilesLocator.js`);
const { PromptsService } = await load(`${syntax}/service/promptsServiceImpl.js`);
const { ComputeAutomaticInstructions, newInstructionsCollectionEvent, newInstructionsCollectionDebugInfo } =
  await load(`${syntax}/computeAutomaticInstructions.js`);

// The settings' defaults: VS Code 1.117.0's chat.shared.contribution.js registers the `chat.*`
// ones, Copilot Chat's package.json `github.copilot.chat.codeGeneration.useInstructionFiles`.
const DEFAULTS = {
  [PromptsConfig.USE_AGENT_MD]: true,
  [PromptsConfig.USE_NESTED_AGENT_MD]: false,
  [PromptsConfig.USE_CLAUDE_MD]: true,
  [PromptsConfig.USE_COPILOT_INSTRUCTION_FILES]: true,
  [PromptsConfig.INCLUDE_APPLYING_INSTRUCTIONS]: true,
  [PromptsConfig.USE_CUSTOMIZATIONS_IN_PARENT_REPOS]: false,
};
const configurationService = { getValue: (key) => DEFAULTS[key] };
const quiet = { trace() {}, info() {}, warn() {}, error() {}, debug() {} };

// IFileService's stat shapes, read from disk.
function stat(uri, children) {
  const path = uri.fsPath;
  const link = lstatSync(path).isSymbolicLink();
  const s = statSync(path);
  const out = { resource: uri, name: path.split("/").pop(), isFile: s.isFile(), isDirectory: s.isDirectory(),
                isSymbolicLink: link };
  if (children && s.isDirectory()) {
    out.children = readdirSync(path).sort().map((n) => stat(URI.file(join(path, n)), false));
  }
  return out;
}
const fileService = {
  async resolve(uri) { return stat(uri, true); },
  async resolveAll(list) {
    return list.map(({ resource }) => { try { return { success: true, stat: stat(resource, true) }; }
                                        catch { return { success: false }; } });
  },
  async realpath(uri) { return URI.file(realpathSync(uri.fsPath)); },
  async readFile(uri) { return { value: readFileSync(uri.fsPath) }; },
};

function locatorFor(root, home) {
  const locator = Object.create(PromptFilesLocator.prototype);
  Object.assign(locator, {
    fileService, logService: quiet, configService: configurationService,
    pathService: { userHome: async () => home },
    getWorkspaceFolders: () => [{ uri: root }],
  });
  return locator;
}

async function instructionFiles(root, locator) {
  const files = [];
  for (const folder of DEFAULT_INSTRUCTIONS_SOURCE_FOLDERS.filter((f) => f.storage === PromptsStorage.local)) {
    const found = await locator.resolveFilesAtLocation(URI.joinPath(root, folder.path), PromptsType.instructions,
                                                       CancellationToken.None);
    for (const uri of found) {
      if (getPromptFileType(uri) !== PromptsType.instructions) continue;
      const parsed = new PromptFileParser().parse(uri, (await fileService.readFile(uri)).value.toString());
      files.push({ uri, pattern: evaluateApplyToPattern(parsed.header, isInClaudeRulesFolder(uri)) });
    }
  }
  return files;
}

async function run(files, path) {
  const dir = writeProject("vscode-probe-", files, path);
  const home = mkdtempSync(join(tmpdir(), "vscode-home-")); // no user-level instructions
  try {
    const root = URI.file(dir);
    const locator = locatorFor(root, URI.file(home));
    const computer = Object.create(ComputeAutomaticInstructions.prototype);
    Object.assign(computer, {
      _configurationService: configurationService, _logService: quiet, _modeKind: "agent",
      _currentSessionType: undefined, _labelService: { getUriLabel: (u) => u.path },
    });
    const attached = [];
    const variables = { add: (entry) => attached.push(entry) };
    const context = { files: new ResourceSet([URI.joinPath(root, path)]), instructions: new ResourceSet() };
    const listed = await instructionFiles(root, locator);
    await computer.addApplyingInstructions(listed, context, variables, newInstructionsCollectionEvent(),
                                           newInstructionsCollectionDebugInfo(), CancellationToken.None);
    const patternOf = new Map(listed.map((f) => [f.uri.toString(), f.pattern]));
    const service = Object.create(PromptsService.prototype);
    Object.assign(service, { configurationService, fileLocator: locator, pathService: locator.pathService });
    const always = await service.listAgentInstructions(CancellationToken.None, undefined);
    const rel = (uri) => uri.path.slice(root.path.length + 1);
    const answer = new Map();
    for (const { uri } of always) answer.set(rel(uri), "always");
    for (const entry of attached) {
      const file = rel(entry.value);
      // `_matches` answers `**`, `**/*` and `*` without a file: attached to every request.
      const any = !computer._matches(context.files, patternOf.get(entry.value.toString()))?.file;
      if (!answer.has(file)) answer.set(file, any ? "always" : true);
    }
    return answer;
  } finally {
    rmSync(dir, { recursive: true, force: true });
    rmSync(home, { recursive: true, force: true });
  }
}

await answerAll(cases, run, (seen, c) => seen.get(c.extra.file) ?? false);
