/** The palette commands: Record Rule, Show Rules, Regenerate Index, Restart Server. */
import * as vscode from 'vscode';
import { reportRecord, ServerManager } from './client';
import {
  ErrorResult, RECORD_RULE, RecordRuleArgs, RecordRuleResult, WRITE_INDEX, WriteIndexArgs, WriteIndexResult,
} from './protocol';
import { askTitleAndNote, pickGlob } from './prompts';
import { hasRulesFolder, rulesForPath, suggestGlobs } from './queries';
import { showRulesRows } from './rules';

export function registerCommands(server: ServerManager): vscode.Disposable[] {
  return [
    vscode.commands.registerCommand('rulelens.recordRuleForCurrentFile', () => recordForCurrentFile(server)),
    vscode.commands.registerCommand('rulelens.showRules', () => showRules(server)),
    vscode.commands.registerCommand('rulelens.regenerateIndex', () => regenerateIndex(server)),
    vscode.commands.registerCommand('rulelens.restartServer', async () => {
      await server.restart();
      void vscode.window.setStatusBarMessage('$(check) rulelens: server restarted', 5000);
    }),
  ];
}

/** The record code action's prompt: the server sends `{glob, root, uri}`, the person adds the rest. */
export async function promptForRecord(args: RecordRuleArgs): Promise<RecordRuleArgs | undefined> {
  const glob = args.glob;
  if (typeof glob !== 'string') {
    return undefined;
  }
  const answers = await askTitleAndNote(glob);
  return answers === undefined ? undefined : { ...args, ...answers };
}

async function recordForCurrentFile(server: ServerManager): Promise<RecordRuleResult | undefined> {
  const document = vscode.window.activeTextEditor?.document;
  const answer = document === undefined ? null : await rulesForPath(server, document.uri);
  if (answer === undefined) {
    void vscode.window.showWarningMessage('rulelens: the server gave no answer for this file. See the rulelens output.');
    return undefined;
  }
  if (document === undefined || answer === null || answer.kind !== 'source' || !await hasRulesFolder(answer)) {
    void vscode.window.showInformationMessage(
      'rulelens: open a file of a project that has a rules folder (.ai/rules) to record a rule for it.');
    return undefined;
  }
  const suggested = await suggestGlobs(server, document.uri);
  const glob = await pickGlob(suggested?.globs ?? [], answer.path);
  if (glob === undefined) {
    return undefined;
  }
  const answers = await askTitleAndNote(glob);
  if (answers === undefined) {
    return undefined;
  }
  const args: RecordRuleArgs = { glob, ...answers, root: answer.rootUri, uri: document.uri.toString() };
  return reportRecord((await server.execute(RECORD_RULE, [args])) as RecordRuleResult | undefined);
}

async function showRules(server: ServerManager): Promise<void> {
  const document = vscode.window.activeTextEditor?.document;
  if (document === undefined) {
    void vscode.window.showInformationMessage('rulelens: open a file to see the project rules that apply to it.');
    return;
  }
  const answer = await rulesForPath(server, document.uri);
  if (answer === undefined) {
    void vscode.window.showWarningMessage('rulelens: the server gave no answer for this file. See the rulelens output.');
    return;
  }
  if (answer === null || !await hasRulesFolder(answer)) {
    void vscode.window.showInformationMessage('rulelens: this file is in no project with a rules folder (.ai/rules).');
    return;
  }
  if (answer.kind !== 'source') {
    void vscode.window.showInformationMessage('rulelens: this is a rule file; rules apply to the files its globs match.');
    return;
  }
  if (answer.rules.length === 0) {
    const record = 'Record Rule…';
    const choice = await vscode.window.showInformationMessage('rulelens: no project rule applies to this file.', record);
    if (choice === record) {
      await vscode.commands.executeCommand('rulelens.recordRuleForCurrentFile');
    }
    return;
  }
  type Item = vscode.QuickPickItem & { uri?: string; line?: number };
  const items: Item[] = showRulesRows(answer.rules).map((row) => row.separator
    ? { label: row.label, kind: vscode.QuickPickItemKind.Separator }
    : { label: row.label, description: row.description, detail: row.detail, uri: row.uri, line: row.line });
  const picked = await vscode.window.showQuickPick(items, {
    title: `Project rules for ${answer.path}`,
    placeHolder: 'Choose an entry to open it',
    matchOnDescription: true,
  });
  if (picked?.uri !== undefined) {
    await openAt(vscode.Uri.parse(picked.uri), picked.line ?? 0);
  }
}

async function regenerateIndex(server: ServerManager): Promise<void> {
  // The active file's root, else every folder of the workspace (the server finds their roots).
  const active = vscode.window.activeTextEditor?.document;
  const own = active === undefined ? undefined : await rulesForPath(server, active.uri);
  const roots = own ? [own.rootUri] : (vscode.workspace.workspaceFolders ?? [])
    .filter((f) => f.uri.scheme === 'file').map((f) => f.uri.toString());
  const messages: string[] = [];
  for (const root of new Set(roots)) {
    const args: WriteIndexArgs = { root };
    const reply = (await server.execute(WRITE_INDEX, [args])) as WriteIndexResult | ErrorResult | undefined;
    if (reply !== undefined && 'error' in reply) {
      void vscode.window.showErrorMessage(`rulelens: ${reply.error}`);
    } else if (reply !== undefined) {
      messages.push(reply.written ? 'index rewritten' : 'index already current');
    }
  }
  if (messages.length > 0) {
    void vscode.window.setStatusBarMessage(`$(check) rulelens: ${messages.join('; ')}`, 5000);
  }
}

export async function openAt(uri: vscode.Uri, line: number): Promise<void> {
  const position = new vscode.Position(line, 0);
  await vscode.window.showTextDocument(uri, { selection: new vscode.Range(position, position), preview: false });
}

