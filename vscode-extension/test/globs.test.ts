import { strict as assert } from 'node:assert';
import { test } from 'node:test';
import * as path from 'node:path';
import { globChoices, mergeChoices, projectRoot, relativeTo } from '../src/globs';

test('a nested file gets itself, its kind in its folder, and its folder', () => {
  assert.deepEqual(globChoices('app/Models/Invoice.php').map((c) => c.glob),
    ['app/Models/Invoice.php', 'app/Models/*.php', 'app/Models/**']);
});

test('a file without extension gets no *.ext choice', () => {
  assert.deepEqual(globChoices('bin/console').map((c) => c.glob), ['bin/console', 'bin/**']);
});

test('a root file gets itself and its kind; dotfiles have no kind', () => {
  assert.deepEqual(globChoices('composer.json').map((c) => c.glob), ['composer.json', '*.json']);
  assert.deepEqual(globChoices('.env').map((c) => c.glob), ['.env']);
  assert.deepEqual(globChoices('./routes/web.php')[0].glob, 'routes/web.php');
  assert.deepEqual(globChoices(''), []);
});

test('server suggestions come first, without duplicates', () => {
  const merged = mergeChoices(['app/Models/**', 'app/**/*.php'], globChoices('app/Models/Invoice.php'));
  assert.deepEqual(merged.map((c) => c.glob),
    ['app/Models/**', 'app/**/*.php', 'app/Models/Invoice.php', 'app/Models/*.php']);
  assert.equal(merged[0].detail, 'Everything below app/Models/');
  assert.equal(merged[1].detail, 'Suggested by the rulelens server');
});

test('the project root is the nearest folder with the rules folder', () => {
  const folders = new Set([path.resolve('/w/.ai/rules'), path.resolve('/w/packages/a/.ai/rules')]);
  const exists = (p: string): boolean => folders.has(path.resolve(p));
  assert.equal(projectRoot('/w/packages/a/src/x.ts', '/w', '.ai/rules', exists), path.resolve('/w/packages/a'));
  assert.equal(projectRoot('/w/app/x.php', '/w', '.ai/rules', exists), path.resolve('/w'));
  // A workspace folder below the root finds the root above it.
  assert.equal(projectRoot('/w/app/Models/x.php', '/w/app', '.ai/rules', exists), path.resolve('/w'));
  // No rules anywhere: the workspace folder.
  assert.equal(projectRoot('/v/a/b.txt', '/v', '.ai/rules', exists), path.resolve('/v'));
});

test('relativeTo gives POSIX paths and refuses files outside', () => {
  assert.equal(relativeTo('/w', '/w/app/Models/Invoice.php'), 'app/Models/Invoice.php');
  assert.equal(relativeTo('/w', '/elsewhere/x'), undefined);
  assert.equal(relativeTo('/w', '/w'), undefined);
});
