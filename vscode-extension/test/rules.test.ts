import { strict as assert } from 'node:assert';
import { test } from 'node:test';
import { RuleForPath, RulesForPath } from '../src/protocol';
import { entryCount, showRulesRows, statusText, statusTooltip } from '../src/rules';

const MODELS: RuleForPath = {
  file: '.ai/rules/models.md', uri: 'file:///w/.ai/rules/models.md', title: 'Models', line: 5,
  globs: ['app/Models/**'], matched: ['app/Models/**'], agentsSee: true, agentsMissBecause: null,
  entries: [{ title: 'Money is stored as integer cents', line: 7 }, { title: 'Dates: immutable', line: 10 }],
};
const LEGACY: RuleForPath = {
  file: '.ai/rules/legacy.md', uri: 'file:///w/.ai/rules/legacy.md', title: null, line: 1,
  globs: ['**/*.php'], matched: ['**/*.php'], agentsSee: false,
  agentsMissBecause: 'invalid YAML, so index.md has no row for it: quote the glob (\'**/*.php\').',
  entries: [{ title: 'Use strict types', line: 6 }],
};

function answer(rules: RuleForPath[]): RulesForPath {
  return { uri: 'file:///w/app/Models/Invoice.php', root: '/w', rootUri: 'file:///w', rulesFolder: '.ai/rules',
    path: 'app/Models/Invoice.php', kind: 'source', rules };
}

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
