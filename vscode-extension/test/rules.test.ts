import { strict as assert } from 'node:assert';
import { test } from 'node:test';
import { entryCount, rulesFromMatch, rulesFromRelated, statusText, statusTooltip } from '../src/rules';

const MODELS = 'file:///w/.ai/rules/models.md';
const TESTS = 'file:///w/.ai/rules/tests.md';
const related = [
  { message: '.ai/rules/models.md applies through app/Models/**', uri: MODELS, line: 5 },
  { message: 'Models: Money is stored as integer cents', uri: MODELS, line: 7 },
  { message: 'Models: Dates: immutable', uri: MODELS, line: 10 },
  { message: '.ai/rules/tests.md applies through **/*.php, tests/**', uri: TESTS, line: 0 },
  { message: 'tests › Use factories', uri: TESTS, line: 3 },
];

test('related information becomes rule files with their entries', () => {
  const rules = rulesFromRelated(related);
  assert.equal(rules.length, 2);
  assert.deepEqual(rules[0].globs, ['app/Models/**']);
  assert.equal(rules[0].name, '.ai/rules/models.md');
  assert.deepEqual(rules[0].entries.map((e) => e.title), ['Money is stored as integer cents', 'Dates: immutable']);
  assert.deepEqual(rules[1].globs, ['**/*.php', 'tests/**']);
  assert.deepEqual(rules[1].entries, [{ title: 'Use factories', line: 3 }]);
  assert.equal(entryCount(rules), 3);
});

test('titles and names come from the heading lines when they can be read', () => {
  const lines: Record<string, string> = { [`${MODELS}#5`]: '# Models', [`${MODELS}#7`]: '## Money: cents\r' };
  const rules = rulesFromRelated(related.slice(0, 2), (uri, line) => lines[`${uri}#${line}`]);
  assert.equal(rules[0].name, 'Models');
  assert.deepEqual(rules[0].entries, [{ title: 'Money: cents', line: 7 }]);
});

test('an entry without its rule-file item still counts', () => {
  const rules = rulesFromRelated([{ message: 'X › A', uri: MODELS, line: 2 }]);
  assert.equal(rules[0].name, 'models.md');
  assert.deepEqual(rules[0].entries, [{ title: 'A', line: 2 }]);
});

test('match --json replies (1-based lines) map to the same shape', () => {
  const rules = rulesFromMatch({
    rules: [{ file: '.ai/rules/models.md', title: 'Models', globs: ['app/Models/**'], entries: [{ title: 'A', line: 8 }] }],
  }, 'file:///w');
  assert.deepEqual(rules, [{
    uri: 'file:///w/.ai/rules/models.md', name: 'Models', globs: ['app/Models/**'], line: 0, entries: [{ title: 'A', line: 7 }],
  }]);
});

test('status bar text counts entries, with the right plural', () => {
  assert.equal(statusText(undefined), '$(book) rulelens');
  assert.equal(statusText([]), '$(book) 0 rules');
  assert.equal(statusText(rulesFromRelated(related.slice(3))), '$(book) 1 rule');
  assert.equal(statusText(rulesFromRelated(related)), '$(book) 3 rules');
  assert.match(statusTooltip(rulesFromRelated(related)), /\.ai\/rules\/models\.md \(app\/Models\/\*\*\): 2 entries/);
  assert.match(statusTooltip([]), /no project rule applies/);
});
