/**
 * What the Project Rules view shows for one `rulelens/rulesForPath` answer, as plain nodes:
 * per agent that loads anything, its files (always-loaded ones grouped apart from those this
 * path brings in), each with its entries; rule files agents will not see, with the reason and
 * the fix. Pure (no `vscode` import): unit tested; rulesView.ts turns nodes into tree items.
 */
import { AgentCap, AgentLoad, agentViews, AgentView, EntryRef, RuleForPath, RulesForPath } from './protocol';

/** The fixes the view offers inline, as the server names them. */
export type Fix = 'writeIndex' | 'quoteGlobs';

export interface ViewNode {
  /** Stable within one answer (the tree keeps expansion by it). */
  id: string;
  kind: 'agent' | 'group' | 'file' | 'entry' | 'note';
  label: string;
  description?: string;
  tooltip?: string;
  /** Codicon name. */
  icon?: string;
  /** For files and entries: what a click opens, at a 0-based line. */
  uri?: string;
  line?: number;
  /** A rule file agents will not see. */
  unseen?: boolean;
  fix?: Fix;
  /** An agent over its cap. */
  warning?: boolean;
  /** Drawn open or closed; unset: agents and groups open, files closed. The files this path
   * brings in show their entries at once; what an agent only may load starts closed. */
  expanded?: boolean;
  children: ViewNode[];
}

/** Why the view is empty, for its welcome text. */
export type Empty = 'noEditor' | 'noServer' | 'noProject' | 'noRules' | 'notSource' | null;

export const NOT_SEEN = 'not seen by agents';

/** Which welcome text an answer calls for, or null when the tree has something to show. */
export function emptyReason(answer: RulesForPath | null | undefined, hasRulesFolder: boolean): Empty {
  if (answer === undefined) {
    return 'noServer';
  }
  if (answer === null) {
    return 'noProject';
  }
  if (answer.kind !== 'source') {
    return 'notSource';
  }
  return viewNodes(answer).length === 0 && !hasRulesFolder ? 'noRules' : null;
}

/** Boost first (its rules are the answer's `rules`), then every other agent that loads something. */
export function viewNodes(answer: RulesForPath): ViewNode[] {
  const out: ViewNode[] = [];
  if (answer.rules.length > 0) {
    out.push(boostNode(answer.rules));
  }
  for (const agent of agentViews(answer)) {
    if (agent.loads.length > 0) {
      out.push(agentNode(agent));
    }
  }
  return out;
}

function boostNode(rules: readonly RuleForPath[]): ViewNode {
  const seen = rules.filter((r) => r.agentsSee);
  const bytes = seen.reduce((n, r) => n + (r.bytes ?? 0), 0);
  const unseen = rules.length - seen.length;
  return {
    id: 'agent:boost', kind: 'agent', label: 'Boost', icon: 'book',
    description: `${plural(rules.length, 'file')} · ${formatBytes(bytes)}${unseen ? ` · ${unseen} ${NOT_SEEN}` : ''}`,
    tooltip: 'Laravel Boost\'s rules (.ai/rules), found through the committed index.md.',
    warning: unseen > 0,
    children: [group('boost', 'For this path', rules.map((r) => ({ ...ruleNode(r), expanded: true })))],
  };
}

function ruleNode(rule: RuleForPath): ViewNode {
  const id = `boost:${rule.file}`;
  const node: ViewNode = {
    id, kind: 'file', label: rule.title ?? baseName(rule.file),
    description: rule.agentsSee ? `${rule.file} · ${rule.globs.join(', ')}` : `${NOT_SEEN} · ${rule.file}`,
    tooltip: rule.agentsSee
      ? `${rule.file}\nThrough ${rule.globs.join(', ')}; ${formatBytes(rule.bytes ?? 0)}.`
      : `Agents do not see ${rule.file}: ${rule.agentsMissBecause ?? 'it is not in index.md.'}`,
    icon: rule.agentsSee ? 'file' : 'eye-closed',
    uri: rule.uri, line: zeroBased(rule.line),
    children: entryNodes(id, rule.uri, rule.entries),
  };
  if (!rule.agentsSee) {
    node.unseen = true;
    const fix = rule.agentsMissFix ?? null;
    if (fix !== null) {
      node.fix = fix;
    }
  }
  return node;
}

/** Always-loaded files (`AGENTS.md` at the root, always-on rules) apart from the path's own. */
export function isAlways(load: AgentLoad): boolean {
  return load.how === 'always' || (load.how === 'directory' && !load.file.includes('/'));
}

function agentNode(agent: AgentView): ViewNode {
  const bytes = agent.loads.reduce((n, l) => n + l.bytes, 0);
  const always = agent.loads.filter(isAlways);
  const here = agent.loads.filter((l) => !isAlways(l));
  const children: ViewNode[] = [];
  if (always.length > 0) {
    children.push(group(agent.id, 'Always loaded', always.map((l) => loadNode(agent.id, l))));
  }
  if (here.length > 0) {
    children.push(group(agent.id, 'For this path', here.map((l) => ({ ...loadNode(agent.id, l), expanded: true }))));
  }
  const maybe = agent.maybe ?? [];
  if (maybe.length > 0) {
    children.push({ ...group(agent.id, 'May load', maybe.map((m) => ({
      id: `${agent.id}:maybe:${m.file}`, kind: 'file' as const, label: baseName(m.file),
      description: m.how === 'manual' ? 'only when asked for'
        : m.how === 'start-folder' ? `only if started in ${m.file.slice(0, m.file.lastIndexOf('/') + 1)}`
        : 'the model decides',
      tooltip: m.file, icon: 'question', uri: m.uri, line: 0, children: [],
    }))), expanded: false });
  }
  const notes = [agent.confirmedIn ? `confirmed in ${agent.confirmedIn}`
    : agent.matcherConfirmedIn ? `matcher confirmed in ${agent.matcherConfirmedIn}` : null,
    agent.confirmed === false ? 'documented behaviour not confirmed' : null, agent.overBudget]
    .filter((n): n is string => n !== null && n !== undefined);
  return {
    id: `agent:${agent.id}`, kind: 'agent', label: agent.name, icon: 'hubot',
    description: `${plural(agent.loads.length, 'file')} · ${budgetText(bytes, agent.cap ?? null)}`,
    tooltip: [agent.name, ...notes].join('\n'),
    warning: agent.overBudget !== null && agent.overBudget !== undefined,
    children,
  };
}

function loadNode(agent: string, load: AgentLoad): ViewNode {
  const id = `${agent}:${load.file}`;
  const how = load.how === 'glob' && load.patterns.length > 0 ? load.patterns.join(', ')
    : load.how === 'directory' ? 'folder chain' : load.how === 'glob' ? 'by its contents' : 'always';
  // A file another imports with `@path` loads with its importer: say which line imports it.
  const why = load.importedBy !== undefined ? `${how}, imported by ${load.importedBy}` : how;
  return {
    id, kind: 'file', label: baseName(load.file), description: `${load.file} · ${why}`,
    tooltip: `${load.file}\n${why}; ${formatBytes(load.bytes)}.`, icon: 'file', uri: load.uri, line: 0,
    children: entryNodes(id, load.uri, load.entries ?? []),
  };
}

function entryNodes(parent: string, uri: string, entries: readonly EntryRef[]): ViewNode[] {
  return entries.map((e, i) => ({
    id: `${parent}#${i}`, kind: 'entry', label: e.title, icon: 'symbol-string', uri, line: zeroBased(e.line),
    children: [],
  }));
}

function group(agent: string, label: string, children: ViewNode[]): ViewNode {
  return { id: `${agent}:${label}`, kind: 'group', label, description: plural(children.length, 'file'), children };
}

/** An agent's bytes for this path against its cap: "2,048 of 32,768 bytes" for a per-path cap. */
export function budgetText(bytes: number, cap: AgentCap | null): string {
  if (cap === null) {
    return formatBytes(bytes);
  }
  if (cap.per === 'path' && cap.unit === 'bytes') {
    return `${bytes.toLocaleString('en-US')} of ${cap.limit.toLocaleString('en-US')} bytes`;
  }
  return `${formatBytes(bytes)} · cap ${cap.limit.toLocaleString('en-US')} ${cap.unit} per ${cap.per}`;
}

function formatBytes(n: number): string {
  return `${n.toLocaleString('en-US')} B`;
}

function plural(n: number, word: string): string {
  return `${n} ${word}${n === 1 ? '' : 's'}`;
}

function baseName(path: string): string {
  return path.slice(path.lastIndexOf('/') + 1);
}

function zeroBased(line: number): number {
  return Math.max(0, line - 1);
}
