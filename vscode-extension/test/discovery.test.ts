import { strict as assert } from 'node:assert';
import { test } from 'node:test';
import * as path from 'node:path';
import {
  discoverServer, DiscoveryInputs, findExecutable, normaliseCommand, notFoundMessage, INSTALL_COMMAND, recentEnough, versionNote,
} from '../src/discovery';

const BUNDLED = '/ext/bundled/tool/rulelens_server.py';

/** Nothing anywhere: no settings, nothing on PATH, no Python extension, no bundled server. */
const none: DiscoveryInputs = {
  commandSetting: [] as string[],
  pythonSetting: '',
  findOnPath: (): string | undefined => undefined,
  pythonHasRulelens: async (): Promise<boolean> => false,
  pythonExtensionInterpreter: async (): Promise<string[] | undefined> => undefined,
  bundledServer: undefined,
  pythonVersion: async (): Promise<string | undefined> => undefined,
};

/** A machine with Python 3.11 as python3 on PATH and the bundled server, but no rulelens installed. */
const bundledOnly: DiscoveryInputs = {
  ...none,
  bundledServer: BUNDLED,
  findOnPath: (name) => (name === 'python3' ? '/usr/bin/python3' : undefined),
  pythonVersion: async (py) => (py[0] === '/usr/bin/python3' ? '3.11.2' : undefined),
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

test('without a bundled server, nothing found: one message with the install command and what was tried', async () => {
  const found = await discoverServer({ ...none, pythonSetting: '/a/python', pythonExtensionInterpreter: async () => ['/b/python'] });
  assert.equal(found.launch, undefined);
  assert.ok(!found.launch && found.triedPython.length === 2);
  const message = notFoundMessage(found);
  assert.match(message, new RegExp(INSTALL_COMMAND));
  assert.match(message, /\/a\/python, \/b\/python/);
  assert.match(message, /rulelens\.server\.command/);
});

test('an installed rulelens (PATH, then the Python settings) wins over the bundled copy', async () => {
  const onPath = await discoverServer({
    ...bundledOnly,
    findOnPath: (name) => ({ rulelens: '/home/me/.local/bin/rulelens', python3: '/usr/bin/python3' } as Record<string, string>)[name],
  });
  assert.equal(onPath.launch?.source, 'path');
  const inPython = await discoverServer({
    ...bundledOnly,
    pythonExtensionInterpreter: async () => ['/venv/bin/python'],
    pythonHasRulelens: async (py) => py[0] === '/venv/bin/python',
  });
  assert.deepEqual(inPython.launch, { command: '/venv/bin/python', args: ['-m', 'rulelens', 'serve'], source: 'pythonExtension' });
});

test('then the bundled server, run isolated (-I) by python3 on PATH', async () => {
  const found = await discoverServer(bundledOnly);
  assert.deepEqual(found.launch, {
    command: '/usr/bin/python3', args: ['-I', BUNDLED, 'serve'], source: 'bundled', pythonVersion: '3.11.2',
  });
});

test('the bundled server runs with the python setting, then the Python extension interpreter, before PATH', async () => {
  const asked: string[] = [];
  const inputs: DiscoveryInputs = {
    ...bundledOnly,
    pythonSetting: '/old/python',
    pythonExtensionInterpreter: async () => ['conda', 'run', '-n', 'dev', 'python'],
    pythonVersion: async (py) => {
      asked.push(py.join(' '));
      return py[0] === '/old/python' ? '3.9.18' : '3.12.1';
    },
  };
  const found = await discoverServer(inputs);
  assert.deepEqual(asked, ['/old/python', 'conda run -n dev python']);
  assert.deepEqual(found.launch, {
    command: 'conda', args: ['run', '-n', 'dev', 'python', '-I', BUNDLED, 'serve'], source: 'bundled', pythonVersion: '3.12.1',
  });
});

test('python3 before python on PATH, each asked once', async () => {
  const asked: string[] = [];
  const found = await discoverServer({
    ...bundledOnly,
    pythonSetting: '/usr/bin/python3',
    findOnPath: (name) => ({ python3: '/usr/bin/python3', python: '/usr/local/bin/python' } as Record<string, string>)[name],
    pythonVersion: async (py) => (asked.push(py[0]), py[0] === '/usr/local/bin/python' ? '3.10.0' : '3.8.10'),
  });
  assert.deepEqual(asked, ['/usr/bin/python3', '/usr/local/bin/python']);
  assert.equal(found.launch?.command, '/usr/local/bin/python');
});

test('no Python 3.10+: one message that says what was found and what to install', async () => {
  const old = await discoverServer({ ...bundledOnly, pythonVersion: async () => '3.9.18' });
  assert.equal(old.launch, undefined);
  const message = notFoundMessage(old);
  assert.match(message, /needs Python 3\.10 or newer/);
  assert.match(message, /found only Python 3\.9\.18 \(\/usr\/bin\/python3\)/);
  assert.match(message, /python\.org or your package manager/);
  assert.match(message, /rulelens\.server\.python/);
  assert.doesNotMatch(message, new RegExp(INSTALL_COMMAND));

  const nothing = await discoverServer({ ...none, bundledServer: BUNDLED });
  assert.match(notFoundMessage(nothing), /found no Python \(tried python3 and python\)/);
});

test('recentEnough reads major.minor', () => {
  assert.ok(recentEnough('3.10.0'));
  assert.ok(recentEnough('3.13.1'));
  assert.ok(recentEnough('4.0.0'));
  assert.ok(!recentEnough('3.9.18'));
  assert.ok(!recentEnough('2.7.18'));
  assert.ok(!recentEnough(undefined));
  assert.ok(!recentEnough('Python'));
});

test('a version mismatch of an installed server is a warning, the bundled copy is named with its version', () => {
  const path = { command: '/usr/bin/rulelens', args: ['serve'], source: 'path' as const };
  assert.deepEqual(versionNote(path, '0.1.0', '0.1.0'), { text: 'Using rulelens 0.1.0 (on PATH: /usr/bin/rulelens).', mismatch: false });
  const other = versionNote(path, '0.0.9', '0.1.0');
  assert.ok(other.mismatch);
  assert.match(other.text, /rulelens 0\.0\.9 \(on PATH.*this extension is version 0\.1\.0/);
  const bundled = versionNote({ command: '/usr/bin/python3', args: [], source: 'bundled', pythonVersion: '3.11.2' }, '0.1.0', '0.1.0');
  assert.deepEqual(bundled, {
    text: 'Using the rulelens server bundled with the extension, version 0.1.0, on Python 3.11.2 (/usr/bin/python3).',
    mismatch: false,
  });
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
