import { strict as assert } from 'node:assert';
import { test } from 'node:test';
import { affectsLaunch, affectsServer, ConfigReader, launchSettings, serverSettings } from '../src/settings';

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

test('which changes reach the server and which restart it', () => {
  const event = (...keys: string[]) => ({ affectsConfiguration: (s: string) => keys.includes(s) });
  assert.equal(affectsServer(event('rulelens.severity')), true);
  assert.equal(affectsServer(event('rulelens.server.command')), false);
  assert.equal(affectsLaunch(event('rulelens.server')), true);
  assert.equal(affectsLaunch(event('rulelens.severity')), false);
});
