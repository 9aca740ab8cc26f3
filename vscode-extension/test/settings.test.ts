import { strict as assert } from 'node:assert';
import { test } from 'node:test';
import {
  affectsLaunch, ConfigReader, configurationAnswer, launchSettings, serverSettings, ServerSettings,
} from '../src/settings';

function config(values: Record<string, unknown>): ConfigReader {
  return { get: ((key: string) => values[key]) as ConfigReader['get'] };
}

test('server settings take the configured values, and prompt and readOnly from the client', () => {
  const s = serverSettings(config({ severity: 'off', codeLens: false, rulesFolder: 'docs/rules', hover: 'anywhere' }), true);
  assert.deepEqual(s, { severity: 'off', codeLens: false, rulesFolder: 'docs/rules', hover: 'anywhere', prompt: true, readOnly: false });
  assert.equal(serverSettings(config({}), false).readOnly, true);
});

test('a value of the wrong type or outside the enum is the default', () => {
  assert.deepEqual(serverSettings(config({ severity: 'error', codeLens: 'yes', rulesFolder: ' ', hover: 3 }), true), {
    severity: 'information', codeLens: true, rulesFolder: '.ai/rules', hover: 'firstLine', prompt: true, readOnly: false,
  });
});

test('launch settings keep a string or an argv, and drop anything else', () => {
  assert.deepEqual(launchSettings(config({ 'server.command': ['/v/rulelens', 'serve'], 'server.python': '/v/python' })),
    { command: ['/v/rulelens', 'serve'], python: '/v/python' });
  assert.deepEqual(launchSettings(config({ 'server.command': 7, 'server.python': null })), { command: [], python: '' });
});

test('only a server.* change restarts the server', () => {
  const event = (...keys: string[]) => ({ affectsConfiguration: (s: string) => keys.includes(s) });
  assert.equal(affectsLaunch(event('rulelens.server')), true);
  assert.equal(affectsLaunch(event('rulelens.severity')), false);
});

test('workspace/configuration: each rulelens item is answered for its own folder', () => {
  const perFolder: Record<string, Record<string, unknown>> = {
    'file:///a': { severity: 'off' },
    'file:///b': { severity: 'warning', codeLens: false },
  };
  const asked: Array<string | undefined> = [];
  const settingsFor = (scopeUri: string | undefined): ServerSettings => {
    asked.push(scopeUri);
    return serverSettings(config(scopeUri === undefined ? {} : perFolder[scopeUri]), true);
  };
  const answer = configurationAnswer(
    [{ section: 'rulelens' }, { section: 'rulelens', scopeUri: 'file:///a' }, { section: 'editor', scopeUri: 'file:///a' },
      { section: 'rulelens', scopeUri: 'file:///b' }],
    [{ window: true }, { window: true }, { tabSize: 2 }, { window: true }],
    settingsFor) as ServerSettings[];
  assert.deepEqual(asked, [undefined, 'file:///a', 'file:///b']);
  assert.deepEqual(answer.map((a) => a.severity), ['information', 'off', undefined, 'warning']);
  assert.deepEqual(answer[2], { tabSize: 2 });
  assert.equal(answer[3].codeLens, false);
});
