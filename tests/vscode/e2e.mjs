// Drives code-server's workbench in headless Chromium as a person would: opens a source file,
// reads the status bar, the Problems panel and the hover, records a rule through the palette
// command's quick pick and input boxes, and checks that the diagnostic updates.
// Usage: node e2e.mjs <config.json>; prints one JSON line `RESULT {...}` at the end.
import { existsSync, readFileSync, rmSync } from 'node:fs';
import { chromium } from 'playwright-core';

const config = JSON.parse(readFileSync(process.argv[2], 'utf8'));
const { url, folder, chromium: executablePath, screenshotDir, sourceFile } = config;
const WAIT = config.waitMs ?? 90000;
const result = { steps: [] };
const log = (msg) => {
  result.steps.push(msg);
  console.log(`[e2e] ${msg}`);
};

const browser = await chromium.launch({
  executablePath,
  args: ['--headless', '--no-sandbox', '--disable-gpu', '--disable-dev-shm-usage',
    '--disable-background-networking', '--disable-component-update', '--disable-sync', '--no-first-run'],
});
const page = await browser.newPage({ viewport: { width: 1400, height: 900 } });
page.on('pageerror', (err) => console.log(`[page error] ${err.message}`));

async function shot(name) {
  const path = `${screenshotDir}/${name}.png`;
  await page.screenshot({ path });
  result[`screenshot_${name}`] = path;
  return path;
}

async function palette(text) {
  await page.keyboard.press('Escape');
  await page.keyboard.press('F1');
  const input = page.locator('.quick-input-widget .quick-input-box input');
  await input.waitFor({ state: 'visible', timeout: WAIT });
  await input.fill(text);
}

async function runCommand(title) {
  await palette(`>${title}`);
  const row = page.locator('.quick-input-widget .monaco-list-row', { hasText: title }).first();
  await row.waitFor({ state: 'visible', timeout: WAIT });
  await page.keyboard.press('Enter');
}

async function openFile(rel) {
  await palette(rel);
  const base = rel.split('/').pop();
  const row = page.locator('.quick-input-widget .monaco-list-row', { hasText: base }).first();
  await row.waitFor({ state: 'visible', timeout: WAIT });
  await page.keyboard.press('Enter');
  await page.locator('.tabs-container .tab.active', { hasText: base }).waitFor({ timeout: WAIT });
  await page.locator('.monaco-editor .view-lines').first().waitFor({ timeout: WAIT });
}

const statusItem = page.locator('.statusbar-item', { hasText: /^\s*\d+ rules?\s*$/ });

async function statusCount(expected) {
  // The extension's item shows "<n> rule(s)"; wait until it shows the expected count.
  const want = new RegExp(`^\\s*${expected} rules?\\s*$`);
  await page.locator('.statusbar-item', { hasText: want }).first().waitFor({ timeout: WAIT });
  return (await statusItem.first().innerText()).trim();
}

async function problemsText(mustContain) {
  await runCommand('View: Focus Problems');
  const panel = page.locator('.markers-panel');
  await panel.first().waitFor({ timeout: WAIT });
  await page.locator('.markers-panel .monaco-list-row', { hasText: mustContain }).first()
    .waitFor({ timeout: WAIT });
  return (await panel.first().innerText()).trim();
}

async function hoverText(mustContain) {
  await page.keyboard.press('Escape');
  const firstLine = page.locator('.monaco-editor .view-lines .view-line').first();
  const hover = page.locator('.monaco-hover:not(.hidden)', { hasText: mustContain });
  for (let attempt = 0; attempt < 5; attempt++) {
    // Measured on every attempt: a code lens that arrives late pushes the first line down.
    const box = await firstLine.boundingBox();
    await page.mouse.move(box.x + 200, box.y + box.height * 3);
    await page.mouse.move(box.x + 12, box.y + box.height / 2);
    try {
      await hover.first().waitFor({ state: 'visible', timeout: WAIT / 5 });
      return (await hover.first().innerText()).trim();
    } catch {
      log(`hover not shown yet (attempt ${attempt + 1})`);
    }
  }
  throw new Error(`no hover containing ${mustContain}`);
}

async function answerPrompts(title, note) {
  const input = page.locator('.quick-input-widget .quick-input-box input');
  await page.locator('.quick-input-widget .quick-input-title', { hasText: ': title' }).waitFor({ timeout: WAIT });
  await input.fill(title);
  await page.keyboard.press('Enter');
  await page.locator('.quick-input-widget .quick-input-title', { hasText: ': note' }).waitFor({ timeout: WAIT });
  await input.fill(note);
  await page.keyboard.press('Enter');
}

async function ruleFileShown(ruleFile, title) {
  const tab = ruleFile.split('/').pop();
  await page.locator('.tabs-container .tab.active', { hasText: tab }).waitFor({ timeout: WAIT });
  await page.locator('.monaco-editor .view-line', { hasText: title }).first().waitFor({ timeout: WAIT });
}

/** The extension's own view, through its test-only command (a fresh dump each time). */
async function dumpState() {
  rmSync(config.stateFile, { force: true });
  await runCommand('rulelens: Test: Dump State');
  for (let waited = 0; !existsSync(config.stateFile); waited += 250) {
    if (waited > WAIT) throw new Error('the test-only command wrote no state');
    await page.waitForTimeout(250);
  }
  log('state dumped');
  return JSON.parse(readFileSync(config.stateFile, 'utf8'));
}

/** Hover the status bar item until its tooltip shows `mustContain`; the tooltip's text. */
async function statusTooltip(item, mustContain) {
  const hover = page.locator('.workbench-hover, .monaco-hover:not(.hidden)', { hasText: mustContain });
  for (let attempt = 0; attempt < 5; attempt++) {
    await page.mouse.move(700, 300);
    await item.hover();
    try {
      await hover.first().waitFor({ state: 'visible', timeout: WAIT / 5 });
      return (await hover.first().innerText()).trim();
    } catch {
      log(`status bar tooltip not shown yet (attempt ${attempt + 1})`);
    }
  }
  throw new Error(`no status bar tooltip containing ${mustContain}`);
}

async function focusEditor() {
  await page.locator('.editor-group-container .monaco-editor').first().click({ position: { x: 300, y: 200 } });
}

async function recordScenario() {
  const { record, action } = config;
  result.statusBefore = await statusCount(config.countBefore);
  log(`status bar: ${result.statusBefore}`);
  const lens = page.locator('.codelens-decoration', { hasText: config.lensBefore });
  await lens.first().waitFor({ timeout: WAIT });
  result.lensBefore = (await lens.first().innerText()).trim();
  log(`code lens: ${result.lensBefore}`);
  result.problemsBefore = await problemsText(config.entryBefore);
  log('problems panel lists the rules');
  await focusEditor();
  result.hoverBefore = await hoverText(config.entryBefore);
  log('hover shows the entry');
  await shot('before');

  // Record a rule through the real prompts: quick pick of globs, then title and note.
  await runCommand('rulelens: Record Rule for Current File');
  const pick = page.locator('.quick-input-widget .monaco-list-row', { hasText: record.glob }).first();
  await pick.waitFor({ state: 'visible', timeout: WAIT });
  result.globChoices = (await page.locator('.quick-input-widget .monaco-list-row').allInnerTexts())
    .map((t) => t.replace(/\s+/g, ' ').trim());
  log(`glob choices: ${result.globChoices.join(' | ')}`);
  await pick.click();
  await answerPrompts(record.title, record.note);
  await ruleFileShown(record.ruleFile, record.title);
  log('the rule file is shown at the new entry');
  await shot('recorded');

  await openFile(sourceFile);
  result.statusAfter = await statusCount(config.countAfter);
  log(`status bar after recording: ${result.statusAfter}`);
  result.problemsAfter = await problemsText(record.title);
  log('problems panel lists the new entry');
  await focusEditor();
  result.hoverAfter = await hoverText(record.title);
  log('hover shows the new entry');

  // The server's "Record a project rule for …" source action: the client prompts for the rest.
  await focusEditor();
  await runCommand('Source Action...');
  const item = page.locator('.action-widget .monaco-list-row', { hasText: `Record a project rule for ${action.glob}` });
  await item.first().waitFor({ state: 'visible', timeout: WAIT });
  await item.first().click();
  await answerPrompts(action.title, action.note);
  await ruleFileShown(record.ruleFile, action.title);
  log('the source action recorded its entry');
  await openFile(sourceFile);
  result.statusAfterAction = await statusCount(config.countAfterAction);
  log(`status bar after the source action: ${result.statusAfterAction}`);

  // Show Rules, from a click on the status bar item: a quick pick of entries; one opens.
  await statusItem.first().click();
  const entry = page.locator('.quick-input-widget .monaco-list-row', { hasText: config.showEntry });
  await entry.first().waitFor({ state: 'visible', timeout: WAIT });
  result.showRulesItems = (await page.locator('.quick-input-widget .monaco-list-row').allInnerTexts())
    .map((t) => t.replace(/\s+/g, ' ').trim());
  await entry.first().click();
  await page.locator('.tabs-container .tab.active', { hasText: record.ruleFile.split('/').pop() }).waitFor({ timeout: WAIT });
  const cursor = page.locator('.statusbar-item', { hasText: /^\s*Ln \d+, Col \d+/ }).first();
  await cursor.waitFor({ timeout: WAIT });
  result.showRulesCursor = (await cursor.innerText()).trim();
  log(`Show Rules opened the entry at ${result.showRulesCursor}`);

  // Regenerate Index: the index comes back after it was deleted.
  const index = `${folder}/.ai/rules/index.md`;
  result.indexBefore = readFileSync(index, 'utf8');
  rmSync(index);
  await openFile(sourceFile);
  await runCommand('rulelens: Regenerate Index');
  for (let waited = 0; !existsSync(index); waited += 250) {
    if (waited > WAIT) throw new Error('Regenerate Index wrote no index');
    await page.waitForTimeout(250);
  }
  result.indexAfter = readFileSync(index, 'utf8');
  log('Regenerate Index rewrote the index');

  await dumpState();
  await problemsText(action.title);
  await focusEditor();
  await hoverText(action.title);
  result.screenshot = await shot('workbench');
}

async function severityOffScenario() {
  // The count comes from rulelens/rulesForPath, so it shows with the diagnostic switched off.
  result.status = await statusCount(config.count);
  log(`status bar with severity off: ${result.status}`);
  result.state = await dumpState();
  await focusEditor();
  const item = page.locator('.statusbar-item', { hasText: new RegExp(`^\\s*${config.count} rules?\\s*$`) }).first();
  result.tooltip = await statusTooltip(item, config.tooltipMustContain);
  log(`status bar tooltip: ${result.tooltip.replace(/\s+/g, ' ')}`);
  // The demonstration: the status bar counting, with its tooltip open, in the test's own folder.
  result.screenshot = `${config.tmpDir}/severity-off-status-bar.png`;
  await page.screenshot({ path: result.screenshot });
  await shot('severity-off');
  await page.mouse.move(700, 300);
  await item.click();
  const unseen = page.locator('.quick-input-widget .monaco-list-row', { hasText: 'Agents do not see it' });
  await unseen.first().waitFor({ state: 'visible', timeout: WAIT });
  result.showRulesItems = (await page.locator('.quick-input-widget .monaco-list-row').allInnerTexts())
    .map((t) => t.replace(/\s+/g, ' ').trim());
  log(`Show Rules: ${result.showRulesItems.join(' | ')}`);
  await page.keyboard.press('Escape');
}

async function agentsScenario() {
  // A project with every agent's files: the hover's "In other agents" section, the code lens
  // and the status bar tooltip that name the agents loading files for this one.
  result.status = await statusCount(config.count);
  log(`status bar: ${result.status}`);
  const lens = page.locator('.codelens-decoration', { hasText: 'Also loaded by' });
  await lens.first().waitFor({ timeout: WAIT });
  result.lens = (await lens.first().innerText()).trim();
  log(`code lens: ${result.lens}`);
  await focusEditor();
  result.hover = await hoverText('In other agents');
  log('the hover shows the other agents');
  result.hoverScreenshot = await shot('agents-hover');
  await page.keyboard.press('Escape');
  const item = page.locator('.statusbar-item', { hasText: new RegExp(`^\\s*${config.count} rules?\\s*$`) }).first();
  result.tooltip = await statusTooltip(item, 'Also loaded by');
  log(`status bar tooltip: ${result.tooltip.replace(/\s+/g, ' ')}`);
  result.tooltipScreenshot = await shot('agents-tooltip');
  await page.mouse.move(700, 300);
  result.state = await dumpState();
}

async function rulesViewScenario() {
  // The Project Rules view in the Explorer: per agent the files that load for the active file.
  const { unseen, entry, entryFile } = config;
  await runCommand('Focus on Project Rules View');
  const pane = page.locator('.pane', { has: page.locator('.pane-header', { hasText: 'Project Rules' }) });
  const row = (text) => pane.locator('.monaco-list-row', { hasText: text });
  await row('Boost').first().waitFor({ timeout: WAIT });
  await row(unseen).first().waitFor({ timeout: WAIT });
  // Give the view the Explorer's height (fold the folder's file tree) and a wider side bar.
  const folderHeader = page.locator('.pane-header', { hasText: config.folderName }).first();
  if ((await folderHeader.getAttribute('aria-expanded')) === 'true') {
    await folderHeader.click();
  }
  const side = await page.locator('.part.sidebar').first().boundingBox();
  if (side) {
    await page.mouse.move(side.x + side.width + 1, side.y + 300);
    await page.mouse.down();
    await page.mouse.move(side.x + side.width + 300, side.y + 300, { steps: 8 });
    await page.mouse.up();
  }
  // The list draws only the rows in sight: the next agent shows once the view has the room.
  await row('Claude Code').first().waitFor({ timeout: WAIT });
  log('the view lists the agents and the unseen rule files');
  await page.waitForTimeout(500);
  result.rowsBefore = (await pane.locator('.monaco-list-row').allInnerTexts()).map((t) => t.replace(/\s+/g, ' ').trim());
  result.header = (await pane.locator('.pane-header').first().innerText()).replace(/\s+/g, ' ').trim();
  result.screenshot = await shot('rules-view');

  // A click on an entry opens its rule file at that line.
  await row(entry).first().click();
  await page.locator('.tabs-container .tab.active', { hasText: entryFile.split('/').pop() }).waitFor({ timeout: WAIT });
  // The cursor moves to the entry just after the tab shows: wait for the expected line.
  const cursor = page.locator('.statusbar-item', { hasText: new RegExp(`^\\s*Ln ${config.entryLine}, Col \\d+`) });
  try {
    await cursor.first().waitFor({ timeout: WAIT / 4 });
  } catch {
    log('the cursor did not reach the entry\'s line');
  }
  result.entryCursor = (await page.locator('.statusbar-item', { hasText: /^\s*Ln \d+, Col \d+/ }).first().innerText()).trim();
  log(`the entry opened at ${result.entryCursor}`);

  // The inline fix on the unseen rule file: regenerate the index; the server's rulesChanged
  // notification redraws the view without it being marked.
  await openFile(sourceFile);
  await row(unseen).first().waitFor({ timeout: WAIT });
  await row(unseen).first().hover();
  const fix = row(unseen).first().locator('.action-label[aria-label="Regenerate the Index"]');
  await fix.waitFor({ state: 'visible', timeout: WAIT });
  await fix.click();
  await row(unseen).filter({ hasText: 'not seen by agents' }).first().waitFor({ state: 'detached', timeout: WAIT });
  log('the inline fix regenerated the index and the view followed');

  // Quote the globs of the rule file Boost's YAML cannot read: the server's quick fix, saved;
  // the file then only misses the index, and the index fix makes every file seen.
  const quotedRow = () => row(config.quoted).first();
  await quotedRow().hover();
  const quote = quotedRow().locator('.action-label[aria-label="Quote the Globs"]');
  await quote.waitFor({ state: 'visible', timeout: WAIT });
  result.screenshotQuote = await shot('rules-view-quote');
  await quote.click();
  log('quoted the globs');
  await openFile(sourceFile);
  const reindex = quotedRow().locator('.action-label[aria-label="Regenerate the Index"]');
  // Hovered again until the row's new action shows, for as long as any other wait here: on a
  // loaded machine the save, the server's re-check and the view's refresh take more than 10 s.
  for (let attempt = 0; attempt < WAIT / 500 && !(await reindex.isVisible()); attempt++) {
    await quotedRow().hover();
    await page.waitForTimeout(500);
  }
  await reindex.click();
  await pane.locator('.monaco-list-row', { hasText: 'not seen by agents' }).first()
    .waitFor({ state: 'detached', timeout: WAIT });
  log('after quoting and the index fix, agents see every rule file');
  result.rowsAfter = (await pane.locator('.monaco-list-row').allInnerTexts()).map((t) => t.replace(/\s+/g, ' ').trim());
  result.titleActions = await pane.locator('.pane-header .action-label').evaluateAll(
    (els) => els.map((e) => e.getAttribute('aria-label')));
  result.state = await dumpState();
  await shot('rules-view-fixed');
}

async function notFoundScenario() {
  const toast = page.locator('.notifications-toasts .notification-toast', { hasText: config.expect });
  await toast.first().waitFor({ state: 'visible', timeout: WAIT });
  // Give a second message (if the extension sent one) the same chance to show up.
  await page.waitForTimeout(3000);
  const all = await page.locator('.notifications-toasts .notification-toast').allInnerTexts();
  result.notifications = all.map((t) => t.replace(/\s+/g, ' ').trim()).filter((t) => /rulelens/i.test(t));
  log(`notifications: ${result.notifications.join(' | ')}`);
  const status = page.locator('.statusbar-item', { hasText: /^\s*rulelens\s*$/ });
  await status.first().waitFor({ timeout: WAIT });
  result.statusBar = (await status.first().innerText()).trim();
  result.screenshot = await shot('server-not-found');
}

async function bundledScenario() {
  // What a person sees with nothing installed: the server inside the VSIX answers (or, with
  // shotName, another server whose output channel line the test names).
  const name = config.shotName ?? 'bundled';
  result.status = await statusCount(config.count);
  log(`status bar: ${result.status}`);
  result.problems = await problemsText(config.entry);
  log('problems panel lists the rules');
  await focusEditor();
  result.hover = await hoverText(config.entry);
  log('hover shows the entry');
  result.screenshot = await shot(name);
  // The rulelens output channel, as a person opens it: it names the server that runs.
  await runCommand('Output: Show Output Channels...');
  const channel = page.locator('.quick-input-widget .monaco-list-row', { hasText: /^\s*rulelens\s*$/ });
  await channel.first().waitFor({ state: 'visible', timeout: WAIT });
  await channel.first().click();
  const line = page.locator('.panel .monaco-editor .view-line', { hasText: config.outputLine });
  await line.first().waitFor({ state: 'visible', timeout: WAIT });
  result.outputLine = (await line.first().innerText()).replace(/\s+/g, ' ').trim();
  log(`output channel: ${result.outputLine}`);
  result.screenshotOutput = await shot(`${name}-output`);
}

async function untrustedScenario() {
  result.statusBefore = await statusCount(config.countBefore);
  log(`status bar: ${result.statusBefore}`);
  result.restricted = (await page.locator('.statusbar-item', { hasText: 'Restricted Mode' }).first().innerText()).trim();
  await problemsText(config.entryBefore);
  await palette('>rulelens:');
  await page.locator('.quick-input-widget .monaco-list-row', { hasText: 'Show Rules' }).first()
    .waitFor({ state: 'visible', timeout: WAIT });
  result.paletteCommands = (await page.locator('.quick-input-widget .monaco-list-row').allInnerTexts())
    .map((t) => t.replace(/\s+/g, ' ').trim());
  log(`palette: ${result.paletteCommands.join(' | ')}`);
  await shot('untrusted-palette');
  await page.keyboard.press('Escape');
  // Either the action list or VS Code's "No source actions available" message shows up. The
  // message fades after a few seconds; on a loaded machine it can fade before it is seen, so
  // ask again (at most three times) rather than wait out the whole budget on a gone message.
  const list = page.locator('.action-widget .monaco-list-row');
  const none = page.locator('.monaco-editor-overlaymessage', { hasText: /No .*actions/i });
  for (let attempt = 1; ; attempt += 1) {
    await focusEditor();
    await runCommand('Source Action...');
    try {
      await list.first().or(none.first()).waitFor({ state: 'visible', timeout: WAIT / 3 });
      break;
    } catch (err) {
      if (attempt >= 3) throw err;
      log(`source actions: nothing shown on attempt ${attempt}, asking again`);
      await page.keyboard.press('Escape');
    }
  }
  result.sourceActions = await list.allInnerTexts();
  log(`source actions: ${result.sourceActions.join(' | ') || '(none)'}`);
  result.screenshot = await shot('untrusted');
}

async function multiRootScenario() {
  const { second, first } = config;
  result.statusSecond = await statusCount(second.countBefore);
  log(`second folder's ${sourceFile}: ${result.statusSecond}`);
  result.stateSecond = await dumpState();
  await runCommand('rulelens: Record Rule for Current File');
  const pick = page.locator('.quick-input-widget .monaco-list-row', { hasText: second.glob }).first();
  await pick.waitFor({ state: 'visible', timeout: WAIT });
  await pick.click();
  await answerPrompts(second.title, second.note);
  await ruleFileShown(second.ruleFile, second.title);
  log('recorded in the second folder');
  await openFile(sourceFile);
  result.statusSecondAfter = await statusCount(second.countAfter);
  await openFile(first.sourceFile);
  result.statusFirst = await statusCount(first.count);
  log(`first folder's ${first.sourceFile}: ${result.statusFirst}`);
  await problemsText(first.entry);
  result.screenshot = await shot('multi-root');
  if (config.plain) {
    // A folder without a rules folder: the server has a root for it, the status bar stays quiet.
    await openFile(config.plain.sourceFile);
    result.statePlain = await dumpState();
  }
}

try {
  const open = config.workspaceFile ? `workspace=${encodeURIComponent(config.workspaceFile)}` : `folder=${encodeURIComponent(folder)}`;
  await page.goto(`${url}/?${open}`);
  await page.locator('.monaco-workbench').waitFor({ timeout: WAIT });
  log('workbench loaded');
  await openFile(sourceFile);
  log(`opened ${sourceFile}`);
  if (config.scenario === 'notFound') {
    await notFoundScenario();
  } else if (config.scenario === 'multiRoot') {
    await multiRootScenario();
  } else if (config.scenario === 'severityOff') {
    await severityOffScenario();
  } else if (config.scenario === 'bundled') {
    await bundledScenario();
  } else if (config.scenario === 'agents') {
    await agentsScenario();
  } else if (config.scenario === 'rulesView') {
    await rulesViewScenario();
  } else if (config.scenario === 'untrusted') {
    await untrustedScenario();
  } else {
    await recordScenario();
  }
  result.ok = true;
} catch (error) {
  result.ok = false;
  result.error = String(error?.stack ?? error);
  try {
    result.screenshot = await shot('failure');
  } catch {
    // The page may be gone.
  }
} finally {
  await browser.close();
}
console.log(`RESULT ${JSON.stringify(result)}`);
process.exit(result.ok ? 0 : 1);
