/**
 * What the Project Rules view shows for one `rulelens.verify` answer, as plain nodes above the
 * rules: per agent, per path, each file rulelens predicts beside what the agent sent, with when
 * it arrived; a difference is a warning node (highlighted), a run that could not finish too.
 * Pure (no `vscode` import): unit tested; rulesView.ts draws the nodes.
 */
import { pathToFileURL } from 'node:url';
import { VerifyCase, VerifyResult, VerifyRow } from './protocol';
import { ViewNode } from './rulesTree';

const NAMES: Record<string, string> = {
  'claude-code': 'Claude Code', 'copilot-cli': 'Copilot CLI', codex: 'Codex', 'gemini-cli': 'Gemini CLI',
  'qwen-code': 'Qwen Code',
};

/** One sentence for the whole run, as a notification says it. */
export function verifySummary(result: VerifyResult): string {
  const ran = result.cases.filter((c) => c.error === null);
  const differ = ran.filter((c) => !c.agree);
  if (differ.length > 0) {
    return `${differ.length} of ${ran.length} runs differ from the prediction`;
  }
  if (ran.length === 0) {
    return `nothing could be verified${result.failures.length ? `: ${result.failures[0]}` : ''}`;
  }
  const failed = result.failures.length;
  return `all ${ran.length} runs sent exactly what rulelens predicts${failed ? `; ${failed} could not be verified` : ''}`;
}

/** The top node: "Verified with installed agents", its agents, their paths, their files. */
export function verifyNodes(result: VerifyResult): ViewNode[] {
  const byAgent = new Map<string, VerifyCase[]>();
  for (const c of result.cases) {
    byAgent.set(c.agent, [...(byAgent.get(c.agent) ?? []), c]);
  }
  const children: ViewNode[] = [...byAgent.entries()].map(([agent, cases]) => agentNode(result.root, agent, cases));
  result.failures.forEach((line, i) => children.push({
    id: `verify:failure:${i}`, kind: 'note', label: line, icon: 'error', warning: true, children: [],
  }));
  children.push({
    id: 'verify:userFiles', kind: 'note', label: result.user_files.included ? 'your global files included'
      : 'your global files left out', tooltip: result.user_files.note, icon: 'info', children: [],
  });
  return [{
    id: 'verify', kind: 'group', label: 'Verified with installed agents',
    description: `${result.moment}${result.moment_default ? ' (default)' : ''} · ${verifySummary(result)}`,
    tooltip: 'Each agent ran headless on a scratch copy of the project against a fake model on 127.0.0.1.',
    warning: result.exit !== 0, expanded: true, children,
  }];
}

function agentNode(root: string, agent: string, cases: VerifyCase[]): ViewNode {
  const differ = cases.filter((c) => c.error !== null || !c.agree).length;
  const version = cases.find((c) => c.version !== 'unknown')?.version ?? '';
  return {
    id: `verify:${agent}`, kind: 'agent', label: `${NAMES[agent] ?? agent} ${version}`.trim(), icon: 'hubot',
    description: differ ? `${differ} of ${cases.length} differ` : `${cases.length} equal`,
    warning: differ > 0, expanded: true, children: cases.map((c) => caseNode(root, agent, c)),
  };
}

function caseNode(root: string, agent: string, c: VerifyCase): ViewNode {
  const id = `verify:${agent}:${c.path}`;
  const state = c.error !== null ? 'could not verify' : c.agree ? 'equal' : 'differs';
  const rows: ViewNode[] = c.rows.map((r) => rowNode(root, id, r));
  if (c.error !== null) {
    rows.unshift({ id: `${id}:error`, kind: 'note', label: c.error, icon: 'error', warning: true, children: [] });
  }
  return {
    id, kind: 'file', label: c.path, description: `${state} · ${c.seconds.toFixed(1)} s`,
    tooltip: c.why === 'given' ? c.path : `${c.path}: ${c.why}`, icon: 'file', uri: fileUri(root, c.path), line: 0,
    warning: c.error !== null || !c.agree, expanded: !c.agree, children: rows,
  };
}

/** "predicted start · sent after-read", the difference marked. */
export function rowText(row: VerifyRow): string {
  return `predicted ${row.predicted ?? '—'} · sent ${row.sent ?? '—'}`;
}

function rowNode(root: string, parent: string, row: VerifyRow): ViewNode {
  return {
    id: `${parent}#${row.file}`, kind: 'entry', label: row.file, description: rowText(row),
    tooltip: row.differs ? (row.sent === null ? 'rulelens predicts this file; the agent did not send it.'
      : row.predicted === null ? 'The agent sent this file; rulelens does not predict it.'
        : 'Both have this file, at different moments.') : 'As predicted.',
    icon: row.differs ? undefined : 'check', warning: row.differs, uri: fileUri(root, row.file), line: 0,
    children: [],
  };
}

function fileUri(root: string, rel: string): string {
  return pathToFileURL(`${root}/${rel}`).toString();
}
