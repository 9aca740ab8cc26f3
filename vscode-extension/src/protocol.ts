/**
 * The wire payloads of rulelens's own requests, mirrored from the Python TypedDicts in
 * `server/rulelens/lsp/wire/payloads.py` (the source of truth). `tests/vscode/test_protocol_types.py`
 * fails when the two disagree on an interface's name, its keys, their optionality or their types.
 * Pure (no `vscode` import), so it is unit tested.
 */

export const RULES_FOR_PATH = 'rulelens/rulesForPath';
export const SUGGEST_GLOBS = 'rulelens/suggestGlobs';
/** A notification from the server: the rules or agent files of these roots changed. */
export const RULES_CHANGED = 'rulelens/rulesChanged';
export const RECORD_RULE = 'rulelens.recordRule';
export const OPEN_RULE = 'rulelens.openRule';
export const WRITE_INDEX = 'rulelens.writeIndex';
/** Runs the installed agents on a scratch copy (`rulelens verify`): seconds to minutes. */
export const VERIFY = 'rulelens.verify';
/** Ends the running `rulelens.verify`'s agents (its process groups); verify then answers with what was done. */
export const VERIFY_CANCEL = 'rulelens.verifyCancel';

/** Params of both requests: the document's URI. */
export interface DocumentParams {
  uri: string;
}

/** One `## Title` entry of a rule file; `line` is 1-based. */
export interface EntryRef {
  title: string;
  line: number;
}

/** One rule file that applies to the path, and whether agents reach it through `index.md`. */
export interface RuleForPath {
  /** Root-relative path of the rule file. */
  file: string;
  uri: string;
  /** The `# ` heading, when the file has one. */
  title: string | null;
  /** 1-based line of the `# ` heading. */
  line: number;
  /** The `paths` items, as written, that matched. */
  globs: string[];
  /** Their expanded alternatives that matched. */
  matched: string[];
  agentsSee: boolean;
  /** One line: why agents miss the file and how to fix it; null when they see it. */
  agentsMissBecause: string | null;
  /** The one action that makes agents see it: rewrite the index, or quote the globs. */
  agentsMissFix: 'writeIndex' | 'quoteGlobs' | null;
  /** The file's size, what an agent reads when it follows the index to it. */
  bytes: number;
  entries: EntryRef[];
}

/** `agent`: another agent's rule file (`.claude/rules/*.md`, `.github/instructions`, `AGENTS.md`...). */
export type Kind = 'source' | 'rule' | 'index' | 'agent';

/** A file an agent loads on its own for an edit of the path. */
export interface AgentLoad {
  /** Root-relative. */
  file: string;
  uri: string;
  how: 'always' | 'glob' | 'directory';
  /** The patterns that matched (for `glob`). */
  patterns: string[];
  bytes: number;
  /** Its `## ` headings. */
  entries: EntryRef[];
  /** The file and line whose `@path` import loads it ("CLAUDE.md:12"); absent when none does. */
  importedBy?: string;
}

/** A file the model may pick by its description, or that loads only when asked for. */
export interface AgentMaybe {
  file: string;
  uri: string;
  how: 'agent-decides' | 'manual' | 'start-folder';
}

/** An agent's documented cap: over the files loaded for one path, or on each file. */
export interface AgentCap {
  limit: number;
  unit: 'bytes' | 'characters' | 'lines';
  per: 'path' | 'file';
  source: string;
}

/** What one agent other than Boost loads for the path. */
export interface AgentView {
  /** One of `AGENT_IDS` (agentIds.ts, generated from the server's registry). */
  id: string;
  name: string;
  /** False where rulelens follows third-party material ("documented behaviour not confirmed"). */
  confirmed: boolean;
  /** The release run end to end for what a read of the file loads ("Copilot CLI 1.0.102"), or null. */
  confirmedIn: string | null;
  /** The release whose code its matcher was checked against, where the whole answer was not run
   * end to end ("Claude Code 2.1.337"), or null. */
  matcherConfirmedIn: string | null;
  loads: AgentLoad[];
  maybe: AgentMaybe[];
  /** One line when the load is over the agent's cap. */
  overBudget: string | null;
  cap: AgentCap | null;
}

/** The answer to `rulelens/rulesForPath` (null for a document outside every root). */
export interface RulesForPath {
  uri: string;
  /** Absolute path of the project root. */
  root: string;
  rootUri: string;
  /** Root-relative, e.g. `.ai/rules`. */
  rulesFolder: string;
  /** The document, root-relative. */
  path: string;
  kind: Kind;
  /** Empty for rule files and the index. */
  rules: RuleForPath[];
  /** Per present agent other than Boost; empty for rule files. Absent from older servers. */
  agents: AgentView[];
  /** For kind `agent`: the id of the agent whose rule file this is. */
  agent: string | null;
}

/** The params of `rulelens/rulesChanged`. */
export interface RulesChanged {
  /** The roots' URIs. */
  roots: string[];
}

/** A glob the server suggests for recording a rule, with how many project files it matches. */
export interface GlobSuggestion {
  glob: string;
  count: number;
}

/** The answer to `rulelens/suggestGlobs` (null for a document outside every root). */
export interface SuggestGlobs {
  globs: GlobSuggestion[];
}

/** `rulelens.recordRule`'s one argument; without title and note the server places a skeleton. */
export interface RecordRuleArgs {
  glob?: string;
  title?: string;
  note?: string;
  /** The project's URI. */
  root?: string;
  /** The document's URI. */
  uri?: string;
}

/** `rulelens.recordRule`'s answer after a record. */
export interface RecordedRule {
  /** Root-relative. */
  file: string;
  /** 1-based line of the new `## ` heading. */
  line: number;
  uri: string;
  created: boolean;
  message: string;
}

/** `rulelens.recordRule`'s answer when it placed an entry skeleton (no title and note). */
export interface PlacedSkeleton {
  /** Absolute path. */
  file: string;
  line: number;
  uri: string;
  skeleton: boolean;
}

export interface OpenRuleArgs {
  uri: string;
  /** 0-based. */
  line: number;
}

/**
 * `data` of a `stale-path` or `stale-name` diagnostic, sent back unchanged with the code action
 * request: what its quick fixes edit. Clients need not read it.
 */
export interface MentionFix {
  /** The text at the diagnostic's range when it was published. */
  mention: string;
  /** Texts that could replace it (a moved path), best first; may be empty. */
  replacements: string[];
}

export interface WriteIndexArgs {
  /** The project's URI; the only root when absent. */
  root?: string;
}

export interface WriteIndexResult {
  written: boolean;
}

/** Any command's answer when it failed (the server has shown the message). */
export interface ErrorResult {
  error: string;
}

/**
 * `rulelens.verify`'s one argument: a file (asked about) or a project root (a few paths chosen
 * from what its rules name); agent ids or `ID=BINARY` (absent: every one on the server's PATH);
 * the moment, "read" when absent.
 */
export interface VerifyArgs {
  /** Required: the server refuses an argument without it. */
  uri?: string;
  agents?: string[];
  on?: 'read' | 'edit' | 'create';
}

/** When a file reached the model: in the first request, or after the moment's tool result. */
export type Arrived = 'start' | 'after-read' | 'after-edit' | 'after-create';

export interface VerifySeen {
  file: string;
  arrived: Arrived;
}

/** One file of a verified case: when rulelens predicts it arrives, when it was sent (null: not). */
export interface VerifyRow {
  file: string;
  predicted: Arrived | null;
  sent: Arrived | null;
  differs: boolean;
}

/** One agent asked about one path. */
export interface VerifyCase {
  agent: string;
  version: string;
  path: string;
  moment: 'read' | 'edit' | 'create';
  why: string;
  agree: boolean;
  seconds: number;
  rows: VerifyRow[];
  predicted: VerifySeen[];
  sent: VerifySeen[];
  /** Why the run did not finish; null when it did. */
  error: string | null;
}

export interface VerifyUserFiles {
  included: boolean;
  /** Agent id -> the ~/ files copied into its empty home. */
  files: Record<string, string[]>;
  note: string;
}

export interface VerifyAgent {
  agent: string;
  binary: string;
}

export interface VerifyPath {
  path: string;
  why: string;
}

/** `rulelens.verify`'s answer: `rulelens verify --json`'s object (docs/verify.md), snake_case as the CLI's. */
export interface VerifyResult {
  root: string;
  moment: 'read' | 'edit' | 'create';
  moment_default: boolean;
  user_files: VerifyUserFiles;
  agents: VerifyAgent[];
  paths: VerifyPath[];
  cases: VerifyCase[];
  failures: string[];
  exit: 0 | 1 | 2;
}

/** Whether a reply has the shape of `VerifyResult` (a server of another version gives a message). */
export function isVerifyResult(value: unknown): value is VerifyResult {
  return isObject(value) && Array.isArray(value.cases) && Array.isArray(value.failures)
    && typeof value.exit === 'number'
    && value.cases.every((c) => isObject(c) && typeof c.agent === 'string' && typeof c.path === 'string'
      && Array.isArray(c.rows) && c.rows.every((r) => isObject(r) && typeof r.file === 'string'));
}

/** What `rulelens.recordRule` answers. */
export type RecordRuleResult = RecordedRule | PlacedSkeleton | ErrorResult;

/**
 * Whether a reply has the shape of `RulesForPath`, checked at run time: a server of another
 * version must give a clear message, not a crash deep in a view. Unknown keys are allowed.
 * Written by hand: a few `typeof` checks for two shapes do not justify a schema library in
 * the bundle.
 */
export function isRulesForPath(value: unknown): value is RulesForPath {
  if (!isObject(value) || !Array.isArray(value.rules)) {
    return false;
  }
  const strings = ['uri', 'root', 'rootUri', 'rulesFolder', 'path'].every((k) => typeof value[k] === 'string');
  return strings && ['source', 'rule', 'index', 'agent'].includes(value.kind as string)
    && value.rules.every(isRuleForPath);
}

/**
 * The well-formed agent views of an answer: none from a server that sends no `agents` (older
 * ones), and views of another shape left out rather than refusing the whole answer.
 */
export function agentViews(answer: RulesForPath): AgentView[] {
  const raw: unknown = (answer as unknown as Record<string, unknown>).agents;
  return Array.isArray(raw) ? raw.filter(isAgentView) : [];
}

function isAgentView(value: unknown): value is AgentView {
  return isObject(value) && typeof value.id === 'string' && typeof value.name === 'string'
    && Array.isArray(value.loads)
    && value.loads.every((l) => isObject(l) && typeof l.file === 'string' && typeof l.how === 'string')
    && Array.isArray(value.maybe);
}

function isRuleForPath(value: unknown): value is RuleForPath {
  return isObject(value)
    && typeof value.file === 'string' && typeof value.uri === 'string' && typeof value.line === 'number'
    && (value.title === null || typeof value.title === 'string')
    && isStringArray(value.globs) && isStringArray(value.matched)
    && typeof value.agentsSee === 'boolean'
    && (value.agentsMissBecause === null || typeof value.agentsMissBecause === 'string')
    && Array.isArray(value.entries)
    && value.entries.every((e) => isObject(e) && typeof e.title === 'string' && typeof e.line === 'number');
}

/** Whether a reply has the shape of `SuggestGlobs`. */
export function isSuggestGlobs(value: unknown): value is SuggestGlobs {
  return isObject(value) && Array.isArray(value.globs)
    && value.globs.every((g) => isObject(g) && typeof g.glob === 'string' && typeof g.count === 'number');
}

function isObject(value: unknown): value is Record<string, unknown> {
  return typeof value === 'object' && value !== null && !Array.isArray(value);
}

function isStringArray(value: unknown): value is string[] {
  return Array.isArray(value) && value.every((v) => typeof v === 'string');
}
