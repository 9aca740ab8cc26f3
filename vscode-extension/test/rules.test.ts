import { strict as assert } from 'node:assert';
import { test } from 'node:test';
import { AgentView, RuleForPath, RulesForPath } from '../src/protocol';
import { entryCount, showRulesRows, statusText, statusTooltip } from '../src/rules';

const MODELS: RuleForPath = {
  file: '.ai/rules/models.md', uri: 'file:///w/.ai/rules/models.md', title: 'Models', line: 5,
  globs: ['app/Models/**'], matched: ['app/Models/**'], agentsSee: true, agentsMissBecause: null,
  agentsMissFix: null, bytes: 120, entries: [{ title: 'Money is stored as integer cents', line: 7 }, { title: 'Dates: immutable', line: 10 }],
};
const LEGACY: RuleForPath = {
  file: '.ai/rules/legacy.md', uri: 'file:///w/.ai/rules/legacy.md', title: null, line: 1,
  globs: ['**/*.php'], matched: ['**/*.php'], agentsSee: false,
  agentsMissBecause: 'invalid YAML, so index.md has no row for it: quote the glob (\'**/*.php\').',
  agentsMissFix: 'quoteGlobs', bytes: 80, entries: [{ title: 'Use strict types', line: 6 }],
};

function answer(rules: RuleForPath[], agents: AgentView[] = []): RulesForPath {
  return { uri: 'file:///w/app/Models/Invoice.php', root: '/w', rootUri: 'file:///w', rulesFolder: '.ai/rules',
    path: 'app/Models/Invoice.php', kind: 'source', rules, agents, agent: null };
}

const CLAUDE: AgentView = {
  id: 'claude-code', name: 'Claude Code', confirmed: false, confirmedIn: null, matcherConfirmedIn: null, overBudget: null, maybe: [], cap: null,
  loads: [
    { file: 'CLAUDE.md', uri: 'file:///w/CLAUDE.md', how: 'always', patterns: [], bytes: 40, entries: [] },
    { file: '.claude/rules/models.md', uri: 'file:///w/.claude/rules/models.md', how: 'glob',
      patterns: ['app/Models/**'], bytes: 90,
      entries: [{ title: 'Casts', line: 6 }] },
  ],
};
const CODEX: AgentView = {
  id: 'codex', name: 'Codex', confirmed: true, confirmedIn: null, matcherConfirmedIn: null, overBudget: null, maybe: [],
  cap: { limit: 32768, unit: 'bytes', per: 'path', source: 'docs' },
  loads: [{ file: 'AGENTS.md', uri: 'file:///w/AGENTS.md', how: 'directory', patterns: [], bytes: 30, entries: [] }],
};
const CURSOR_NOTHING: AgentView = {
  id: 'cursor', name: 'Cursor', confirmed: false, confirmedIn: null, matcherConfirmedIn: null, overBudget: null, loads: [], cap: null,
  maybe: [{ file: '.cursor/rules/x.mdc', uri: 'file:///w/.cursor/rules/x.mdc', how: 'manual' }],
};

test('the status bar counts entries, with the right plural, and nothing without an answer', () => {
  assert.equal(statusText(undefined), '$(book) rulelens');
  assert.equal(statusText(answer([])), '$(book) 0 rules');
  assert.equal(statusText(answer([LEGACY])), '$(book) 1 rule');
  assert.equal(statusText(answer([MODELS, LEGACY])), '$(book) 3 rules');
  assert.equal(entryCount([MODELS, LEGACY]), 3);
});

test('the tooltip names each rule file and gives the reason only under those agents miss', () => {
  const lines = statusTooltip(answer([MODELS, LEGACY])).split('\n');
  assert.deepEqual(lines, [
    'rulelens: project rules for app/Models/Invoice.php',
    'Models (.ai/rules/models.md) through app/Models/**: 2 entries',
    '.ai/rules/legacy.md through **/*.php: 1 entry',
    `  Agents do not see it: ${LEGACY.agentsMissBecause}`,
    'Click to show them.',
  ]);
  assert.match(statusTooltip(answer([])), /no project rule applies to app\/Models\/Invoice\.php/);
  assert.match(statusTooltip(undefined), /no answer/);
});

test('the tooltip names the other agents that load something, and why, after the rules', () => {
  const lines = statusTooltip(answer([MODELS], [CLAUDE, CURSOR_NOTHING, CODEX])).split('\n');
  assert.deepEqual(lines.slice(2), [
    'Also loaded by: Claude Code, Codex',
    '  Claude Code (probably: documented behaviour not confirmed): CLAUDE.md (always), .claude/rules/models.md (app/Models/**)',
    '  Codex: AGENTS.md (folder chain)',
    'Click to show them.',
  ]);
  const released = { ...CLAUDE, confirmed: true, confirmedIn: 'Claude Code 2.1.337' };
  assert.equal(statusTooltip(answer([MODELS], [released])).split('\n')[3],
    '  Claude Code (confirmed in Claude Code 2.1.337): CLAUDE.md (always), .claude/rules/models.md (app/Models/**)');
  const matcher = { ...CLAUDE, confirmed: true, matcherConfirmedIn: 'Claude Code 2.1.337' };
  assert.equal(statusTooltip(answer([MODELS], [matcher])).split('\n')[3],
    '  Claude Code (matcher confirmed in Claude Code 2.1.337): CLAUDE.md (always), .claude/rules/models.md (app/Models/**)');
  const none = statusTooltip(answer([], [CODEX])).split('\n');
  assert.equal(none[1], 'Also loaded by: Codex');
  assert.equal(statusTooltip(answer([MODELS], [CURSOR_NOTHING])).includes('Also loaded by'), false);
});

test('Show Rules rows: a separator, the rule file, then its entries, at 0-based lines', () => {
  const rows = showRulesRows([MODELS, LEGACY]);
  assert.deepEqual(rows.map((r) => [r.label, r.line]), [
    ['Models', undefined], ['$(file) Models', 4], ['Money is stored as integer cents', 6], ['Dates: immutable', 9],
    ['.ai/rules/legacy.md', undefined], ['$(file) .ai/rules/legacy.md', 0], ['Use strict types', 5],
  ]);
  assert.equal(rows[0].separator, true);
  assert.equal(rows[1].detail, 'Open the rule file');
  assert.equal(rows[5].detail, `Agents do not see it: ${LEGACY.agentsMissBecause}`);
  assert.equal(rows[6].uri, LEGACY.uri);
});
