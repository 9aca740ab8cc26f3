import { strict as assert } from 'node:assert';
import { test } from 'node:test';
import { isVerifyResult, VerifyCase, VerifyResult } from '../src/protocol';
import { ViewNode } from '../src/rulesTree';
import { rowText, verifyNodes, verifySummary } from '../src/verifyTree';

const EQUAL: VerifyCase = {
  agent: 'claude-code', version: '2.1.337', path: 'src/a.ts', moment: 'read', why: 'named by .claude/rules/ts.md\'s globs',
  agree: true, seconds: 2.04, predicted: [{ file: 'CLAUDE.md', arrived: 'start' }],
  sent: [{ file: 'CLAUDE.md', arrived: 'start' }],
  rows: [{ file: 'CLAUDE.md', predicted: 'start', sent: 'start', differs: false }], error: null,
};
const DIFFERS: VerifyCase = {
  ...EQUAL, path: 'app/Models/Invoice.php', agree: false,
  rows: [
    { file: '.ai/rules/index.md', predicted: null, sent: 'start', differs: true },
    { file: 'CLAUDE.md', predicted: 'start', sent: 'start', differs: false },
  ],
};
const RESULT: VerifyResult = {
  root: '/w', moment: 'read', moment_default: true,
  user_files: { included: false, files: {}, note: 'Your global instruction files are left out.' },
  agents: [{ agent: 'claude-code', binary: '/bin/claude' }],
  paths: [{ path: 'src/a.ts', why: 'x' }, { path: 'app/Models/Invoice.php', why: 'y' }],
  cases: [EQUAL, DIFFERS], failures: ['codex: `codex` is not on PATH'], exit: 1,
};

function labels(nodes: ViewNode[]): unknown[] {
  return nodes.map((n) => (n.children.length ? [n.label, labels(n.children)] : n.label));
}

test('per agent and path, each file predicted beside sent; differences are warnings', () => {
  const nodes = verifyNodes(RESULT);
  assert.deepEqual(labels(nodes), [['Verified with installed agents', [
    ['Claude Code 2.1.337', [['src/a.ts', ['CLAUDE.md']], ['app/Models/Invoice.php', ['.ai/rules/index.md', 'CLAUDE.md']]]],
    'codex: `codex` is not on PATH',
    'your global files left out',
  ]]]);
  const [top] = nodes;
  assert.equal(top.warning, true);
  assert.equal(top.description, 'read (default) · 1 of 2 runs differ from the prediction');
  const [equal, differs] = top.children[0].children;
  assert.equal(equal.warning, false);
  assert.equal(differs.warning, true);
  assert.equal(differs.expanded, true);
  const [index, claude] = differs.children;
  assert.deepEqual([index.warning, index.description], [true, 'predicted — · sent start']);
  assert.deepEqual([claude.warning, claude.icon], [false, 'check']);
  assert.equal(index.uri, 'file:///w/.ai/rules/index.md');
  assert.equal(top.children[0].description, '1 of 2 differ');
});

test('a run that could not finish shows its error; nothing verified says why', () => {
  const failed: VerifyCase = { ...EQUAL, agree: false, rows: [], error: 'timed out after 120 s' };
  const result: VerifyResult = { ...RESULT, cases: [failed], failures: ['claude-code on src/a.ts: timed out after 120 s'],
    exit: 2 };
  const [top] = verifyNodes(result);
  const [node] = top.children[0].children;
  assert.deepEqual(labels([node]), [['src/a.ts', ['timed out after 120 s']]]);
  assert.equal(node.description, 'could not verify · 2.0 s');
  assert.equal(verifySummary(result), 'nothing could be verified: claude-code on src/a.ts: timed out after 120 s');
  assert.equal(verifySummary({ ...RESULT, cases: [EQUAL], failures: [], exit: 0 }),
    'all 1 runs sent exactly what rulelens predicts');
  assert.equal(rowText(EQUAL.rows[0]), 'predicted start · sent start');
});

test('a verify answer is told from another shape', () => {
  assert.equal(isVerifyResult(RESULT), true);
  assert.equal(isVerifyResult({ error: 'x' }), false);
  assert.equal(isVerifyResult({ ...RESULT, cases: [{ agent: 'x' }] }), false);
});
