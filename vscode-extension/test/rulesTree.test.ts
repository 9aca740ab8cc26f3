import { strict as assert } from 'node:assert';
import { test } from 'node:test';
import { AgentView, RuleForPath, RulesForPath } from '../src/protocol';
import { budgetText, emptyReason, ViewNode, viewNodes } from '../src/rulesTree';

const SEEN: RuleForPath = {
  file: '.ai/rules/models.md', uri: 'file:///w/.ai/rules/models.md', title: 'Models', line: 5,
  globs: ['app/Models/**'], matched: ['app/Models/**'], agentsSee: true, agentsMissBecause: null,
  agentsMissFix: null, bytes: 1200, entries: [{ title: 'Money is integer cents', line: 7 }],
};
const UNINDEXED: RuleForPath = {
  ...SEEN, file: '.ai/rules/new.md', uri: 'file:///w/.ai/rules/new.md', title: null, agentsSee: false,
  agentsMissBecause: 'not in index.md; run `rulelens index`.', agentsMissFix: 'writeIndex', bytes: 300,
  entries: [],
};
const CODEX: AgentView = {
  id: 'codex', name: 'Codex', confirmed: true, confirmedIn: null, matcherConfirmedIn: null, maybe: [],
  overBudget: '40,000 bytes exceed Codex\'s 32 KiB cap', cap: { limit: 32768, unit: 'bytes', per: 'path', source: 'd' },
  loads: [
    { file: 'AGENTS.md', uri: 'file:///w/AGENTS.md', how: 'directory', patterns: [], bytes: 30000, entries: [] },
    { file: 'app/AGENTS.md', uri: 'file:///w/app/AGENTS.md', how: 'directory', patterns: [], bytes: 10000,
      entries: [{ title: 'App', line: 3 }] },
  ],
};
const CURSOR: AgentView = {
  id: 'cursor', name: 'Cursor', confirmed: false, confirmedIn: null, matcherConfirmedIn: null, overBudget: null, cap: null,
  loads: [{ file: '.cursor/rules/always.mdc', uri: 'file:///w/.cursor/rules/always.mdc', how: 'always', patterns: [],
    bytes: 50, entries: [] }],
  maybe: [{ file: '.cursor/rules/x.mdc', uri: 'file:///w/.cursor/rules/x.mdc', how: 'manual' }],
};
const IDLE: AgentView = { ...CURSOR, id: 'kiro', name: 'Kiro', loads: [] };

function answer(rules: RuleForPath[], agents: AgentView[]): RulesForPath {
  return { uri: 'file:///w/app/Models/Invoice.php', root: '/w', rootUri: 'file:///w', rulesFolder: '.ai/rules',
    path: 'app/Models/Invoice.php', kind: 'source', rules, agents, agent: null };
}

function labels(nodes: ViewNode[]): unknown[] {
  return nodes.map((n) => (n.children.length ? [n.label, labels(n.children)] : n.label));
}

test('each agent that loads something, its files grouped always/this path, each with its entries', () => {
  const nodes = viewNodes(answer([SEEN, UNINDEXED], [CODEX, CURSOR, IDLE]));
  assert.deepEqual(labels(nodes), [
    ['Boost', [['For this path', [['Models', ['Money is integer cents']], 'new.md']]]],
    ['Codex', [['Always loaded', ['AGENTS.md']], ['For this path', [['AGENTS.md', ['App']]]]]],
    ['Cursor', [['Always loaded', ['always.mdc']], ['May load', ['x.mdc']]]],
  ]);
  const entry = nodes[0].children[0].children[0].children[0];
  assert.deepEqual([entry.uri, entry.line], ['file:///w/.ai/rules/models.md', 6]);
});

test('an unseen rule file says so, with the reason and its fix', () => {
  const [boost] = viewNodes(answer([SEEN, UNINDEXED], []));
  const unseen = boost.children[0].children[1];
  assert.equal(unseen.unseen, true);
  assert.equal(unseen.fix, 'writeIndex');
  assert.match(unseen.description ?? '', /^not seen by agents/);
  assert.match(unseen.tooltip ?? '', /run `rulelens index`/);
  assert.equal(boost.description, '2 files · 1,200 B · 1 not seen by agents');
  assert.equal(viewNodes(answer([{ ...UNINDEXED, agentsMissFix: null }], []))[0].children[0].children[0].fix,
    undefined);
});

test('bytes against the cap, and the overrun as a warning', () => {
  const codex = viewNodes(answer([], [CODEX]))[0];
  assert.equal(codex.description, '2 files · 40,000 of 32,768 bytes');
  assert.equal(codex.warning, true);
  assert.match(codex.tooltip ?? '', /exceed Codex's 32 KiB cap/);
  assert.equal(budgetText(10, { limit: 200, unit: 'lines', per: 'file', source: 'd' }), '10 B · cap 200 lines per file');
  assert.equal(budgetText(10, null), '10 B');
});

test('the welcome text follows the answer', () => {
  assert.equal(emptyReason(undefined, false), 'noServer');
  assert.equal(emptyReason(null, false), 'noProject');
  assert.equal(emptyReason({ ...answer([], []), kind: 'rule' }, true), 'notSource');
  assert.equal(emptyReason(answer([], [IDLE]), false), 'noRules');
  assert.equal(emptyReason(answer([], [IDLE]), true), null);
  assert.equal(emptyReason(answer([], [CURSOR]), false), null);
});

test('an older server without entries, caps or fixes still draws', () => {
  const old = JSON.parse(JSON.stringify(answer([SEEN], [CURSOR]))) as Record<string, unknown>;
  const rules = old.rules as Record<string, unknown>[];
  delete rules[0].agentsMissFix;
  delete rules[0].bytes;
  const agents = old.agents as Record<string, unknown>[];
  delete agents[0].cap;
  delete (agents[0].loads as Record<string, unknown>[])[0].entries;
  const nodes = viewNodes(old as unknown as RulesForPath);
  assert.equal(nodes.length, 2);
  assert.equal(nodes[1].description, '1 file · 50 B');
});
