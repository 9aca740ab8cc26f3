/**
 * What the status bar and "Show Rules" say about the rules for a file, from the server's
 * `rulelens/rulesForPath` answer only (never from diagnostic text, which may be switched off).
 * Pure: unit tested.
 */
import { AgentView, agentViews, RuleForPath, RulesForPath } from './protocol';

/** The `# ` heading, or the file when it has none. */
export function ruleName(rule: RuleForPath): string {
  return rule.title ?? rule.file;
}

export function entryCount(rules: readonly RuleForPath[]): number {
  return rules.reduce((n, r) => n + r.entries.length, 0);
}

/** The status bar text: the number of rule entries that apply; no number without an answer. */
export function statusText(answer: RulesForPath | undefined): string {
  if (answer === undefined) {
    return '$(book) rulelens';
  }
  const n = entryCount(answer.rules);
  return `$(book) ${n} ${n === 1 ? 'rule' : 'rules'}`;
}

/**
 * The status bar tooltip: each rule file with its globs and entry count; under a file that
 * agents miss, the server's one-line reason (which says how to fix it).
 */
export function statusTooltip(answer: RulesForPath | undefined): string {
  if (answer === undefined) {
    return 'rulelens: the server gave no answer for this file. See the rulelens output.';
  }
  const agents = agentLines(answer);
  if (answer.rules.length === 0) {
    return [`rulelens: no project rule applies to ${answer.path}. Click to see or record one.`, ...agents]
      .join('\n');
  }
  const lines = [`rulelens: project rules for ${answer.path}`];
  for (const rule of answer.rules) {
    const n = rule.entries.length;
    const name = rule.title === null ? rule.file : `${rule.title} (${rule.file})`;
    lines.push(`${name} through ${rule.globs.join(', ')}: ${n} ${n === 1 ? 'entry' : 'entries'}`);
    if (!rule.agentsSee) {
      lines.push(`  ${unseen(rule)}`);
    }
  }
  lines.push(...agents);
  lines.push('Click to show them.');
  return lines.join('\n');
}

/** The agents (other than Boost) that load something; an older server sends no `agents`. */
export function loadingAgents(answer: RulesForPath): AgentView[] {
  return agentViews(answer).filter((a) => a.loads.length > 0);
}

/**
 * The tooltip's agents part: "Also loaded by" with the agents' names, then per agent the files
 * that load and why (at most a few each), marking agents rulelens could not confirm.
 */
export function agentLines(answer: RulesForPath, perAgent = 3): string[] {
  const loading = loadingAgents(answer);
  if (loading.length === 0) {
    return [];
  }
  const lines = [`Also loaded by: ${loading.map((a) => a.name).join(', ')}`];
  for (const agent of loading) {
    const note = agent.confirmedIn ? ` (confirmed in ${agent.confirmedIn})`
      : agent.matcherConfirmedIn ? ` (matcher confirmed in ${agent.matcherConfirmedIn})`
        : agent.confirmed === false ? ' (probably: documented behaviour not confirmed)' : '';
    const files = agent.loads.slice(0, perAgent).map((l) => `${l.file} (${why(l.how, l.patterns ?? [])})`);
    const more = agent.loads.length > perAgent ? `, and ${agent.loads.length - perAgent} more` : '';
    lines.push(`  ${agent.name}${note}: ${files.join(', ')}${more}`);
  }
  return lines;
}

function why(how: string, patterns: readonly string[]): string {
  if (how === 'glob' && patterns.length > 0) {
    return patterns.join(', ');
  }
  return how === 'directory' ? 'folder chain' : how;
}

/** One row of "Show Rules": a rule file's separator, the file itself, or one of its entries. */
export interface RuleRow {
  label: string;
  separator?: true;
  description?: string;
  detail?: string;
  uri?: string;
  /** 0-based line to open at. */
  line?: number;
}

export function showRulesRows(rules: readonly RuleForPath[]): RuleRow[] {
  const rows: RuleRow[] = [];
  for (const rule of rules) {
    const globs = rule.globs.join(', ');
    rows.push({ label: ruleName(rule), separator: true });
    rows.push({
      label: `$(file) ${ruleName(rule)}`,
      description: globs,
      detail: rule.agentsSee ? 'Open the rule file' : unseen(rule),
      uri: rule.uri,
      line: zeroBased(rule.line),
    });
    for (const entry of rule.entries) {
      rows.push({ label: entry.title, description: globs, uri: rule.uri, line: zeroBased(entry.line) });
    }
  }
  return rows;
}

/** The line for a rule file that agents miss: the server's reason, which says how to fix it. */
function unseen(rule: RuleForPath): string {
  return rule.agentsMissBecause === null ? 'Agents do not see it.' : `Agents do not see it: ${rule.agentsMissBecause}`;
}

function zeroBased(line: number): number {
  return Math.max(0, line - 1);
}
