import { strict as assert } from 'node:assert';
import { test } from 'node:test';
import * as path from 'node:path';
import { discoverServer, findExecutable, normaliseCommand, notFoundMessage, INSTALL_COMMAND } from '../src/serverCommand';

const none = {
  commandSetting: [] as string[],
  pythonSetting: '',
  findOnPath: (): string | undefined => undefined,
  pythonHasRulelens: async (): Promise<boolean> => false,
  pythonExtensionInterpreter: async (): Promise<string[] | undefined> => undefined,
};

test('the command setting wins over everything else', async () => {
  const found = await discoverServer({
    ...none,
    commandSetting: ['/opt/venv/bin/rulelens', 'serve'],
    findOnPath: () => '/usr/bin/rulelens',
  });
  assert.deepEqual(found.launch, { command: '/opt/venv/bin/rulelens', args: ['serve'], source: 'setting' });
});

test('a command setting without arguments gets `serve`, never --stdio', async () => {
  const found = await discoverServer({ ...none, commandSetting: '/opt/rulelens' });
  assert.deepEqual(found.launch, { command: '/opt/rulelens', args: ['serve'], source: 'setting' });
});

test('rulelens on PATH comes next', async () => {
  const found = await discoverServer({ ...none, findOnPath: (n) => (n === 'rulelens' ? '/usr/bin/rulelens' : undefined) });
  assert.deepEqual(found.launch, { command: '/usr/bin/rulelens', args: ['serve'], source: 'path' });
});

test('then python -m rulelens serve with the python setting, if it can import rulelens', async () => {
  const asked: string[][] = [];
  const found = await discoverServer({
    ...none,
    pythonSetting: '/venv/bin/python',
    pythonHasRulelens: async (py) => (asked.push([...py]), true),
  });
  assert.deepEqual(asked, [['/venv/bin/python']]);
  assert.deepEqual(found.launch, { command: '/venv/bin/python', args: ['-m', 'rulelens', 'serve'], source: 'python' });
});

test('then the Python extension interpreter, keeping its own arguments', async () => {
  const found = await discoverServer({
    ...none,
    pythonSetting: '/broken/python',
    pythonHasRulelens: async (py) => py[0] === 'conda',
    pythonExtensionInterpreter: async () => ['conda', 'run', '-n', 'dev', 'python'],
  });
  assert.deepEqual(found.launch, {
    command: 'conda', args: ['run', '-n', 'dev', 'python', '-m', 'rulelens', 'serve'], source: 'pythonExtension',
  });
});

test('nothing found: one message with the install command and what was tried', async () => {
  const found = await discoverServer({ ...none, pythonSetting: '/a/python', pythonExtensionInterpreter: async () => ['/b/python'] });
  assert.equal(found.launch, undefined);
  assert.ok(!found.launch && found.triedPython.length === 2);
  const message = notFoundMessage(found.launch === undefined ? found.triedPython : []);
  assert.match(message, new RegExp(INSTALL_COMMAND));
  assert.match(message, /\/a\/python, \/b\/python/);
  assert.match(message, /rulelens\.server\.command/);
});

test('normaliseCommand drops junk and empty commands', () => {
  assert.deepEqual(normaliseCommand(undefined), []);
  assert.deepEqual(normaliseCommand('  '), []);
  assert.deepEqual(normaliseCommand(['', 'serve']), []);
  assert.deepEqual(normaliseCommand(['x', 3 as unknown as string, 'serve']), ['x', 'serve']);
});

test('findExecutable walks PATH in order and honours PATHEXT on Windows', () => {
  const present = new Set([path.join('/b', 'rulelens'), path.join('/c', 'rulelens')]);
  assert.equal(findExecutable('rulelens', '/a::/b:/c', 'linux', undefined, (f) => present.has(f)), path.join('/b', 'rulelens'));
  assert.equal(findExecutable('rulelens', '', 'linux', undefined, () => true), undefined);
  const win = new Set([path.join('C:\\py', 'rulelens.EXE')]);
  assert.equal(findExecutable('rulelens', 'C:\\x;C:\\py', 'win32', '.EXE;.CMD', (f) => win.has(f)), path.join('C:\\py', 'rulelens.EXE'));
});
