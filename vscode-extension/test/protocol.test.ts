import { strict as assert } from 'node:assert';
import { test } from 'node:test';
import { agentViews, isRulesForPath, isSuggestGlobs } from '../src/protocol';

const RULE = {
  file: '.ai/rules/models.md', uri: 'file:///w/.ai/rules/models.md', title: null, line: 1, globs: ['app/**'],
  matched: ['app/**'], agentsSee: false, agentsMissBecause: 'not in index.md', entries: [{ title: 'A', line: 3 }],
};
const ANSWER = {
  uri: 'file:///w/app/x.php', root: '/w', rootUri: 'file:///w', rulesFolder: '.ai/rules', path: 'app/x.php',
  kind: 'source', rules: [RULE],
};

test('a rulesForPath answer of the contract passes, with unknown keys (agents, later) ignored', () => {
  assert.equal(isRulesForPath(ANSWER), true);
  assert.equal(isRulesForPath({ ...ANSWER, agents: { boost: true } }), true);
  assert.equal(isRulesForPath({ ...ANSWER, kind: 'rule', rules: [] }), true);
  assert.equal(isRulesForPath({ ...ANSWER, kind: 'agent', rules: [], agents: [], agent: 'cline' }), true);
});

test('agent views: none from an older server, malformed ones left out', () => {
  const view = { id: 'codex', name: 'Codex', confirmed: true, confirmedIn: null, matcherConfirmedIn: null, overBudget: null, maybe: [],
    loads: [{ file: 'AGENTS.md', uri: 'file:///w/AGENTS.md', how: 'directory', patterns: [], bytes: 9, entries: [] }] };
  assert.deepEqual(agentViews(ANSWER as never), []);
  assert.deepEqual(agentViews({ ...ANSWER, agents: { boost: true } } as never), []);
  assert.deepEqual(agentViews({ ...ANSWER, agents: [view, { id: 'x' }] } as never), [view]);
});

test('an answer of another shape is refused, key by key', () => {
  const { root: _root, ...noRoot } = ANSWER;
  assert.equal(isRulesForPath(noRoot), false); // today's server: no root
  assert.equal(isRulesForPath({ ...ANSWER, kind: 'other' }), false);
  assert.equal(isRulesForPath({ ...ANSWER, rules: [{ ...RULE, agentsSee: 'yes' }] }), false);
  assert.equal(isRulesForPath({ ...ANSWER, rules: [{ ...RULE, matched: undefined }] }), false);
  assert.equal(isRulesForPath({ ...ANSWER, rules: [{ ...RULE, entries: [{ title: 'A' }] }] }), false);
  assert.equal(isRulesForPath(null), false);
  assert.equal(isRulesForPath([ANSWER]), false);
});

test('suggestGlobs answers', () => {
  assert.equal(isSuggestGlobs({ globs: [{ glob: 'app/**', count: 3 }] }), true);
  assert.equal(isSuggestGlobs({ globs: ['app/**'] }), false);
  assert.equal(isSuggestGlobs({ globs: [{ glob: 'app/**', count: '3' }] }), false);
});
