/** The palette commands: Record Rule, Show Rules, Regenerate Index, Restart Server. */
import * as vscode from 'vscode';
import { appliedRules } from './applied';
import { RECORD_RULE, RecordReply, reportRecord, ServerManager, WRITE_INDEX } from './client';
import { globChoices, mergeChoices } from './globs';
import { projectRootOf } from './project';
import { askTitleAndNote, pickGlob } from './prompts';

const RECORD_KIND = 'source.rulelens.record';

export function registerCommands(server: ServerManager): vscode.Disposable[] {
  return [
    vscode.commands.registerCommand('rulelens.recordRuleForCurrentFile', () => recordForCurrentFile(server)),
    vscode.commands.registerCommand('rulelens.showRules', () => showRules()),
    vscode.commands.registerCommand('rulelens.regenerateIndex', () => regenerateIndex(server)),
    vscode.commands.registerCommand('rulelens.restartServer', async () => {
      await server.restart();
      void vscode.window.setStatusBarMessage('$(check) rulelens: server restarted', 5000);
    }),
  ];
}

/** The record code action's prompt: the server sends `{glob, root, uri}`, the person adds the rest. */
export async function promptForRecord(args: Record<string, unknown>): Promise<Record<string, unknown> | undefined> {
  const glob = typeof args.glob === 'string' ? args.glob : undefined;
  if (glob === undefined) {
    return undefined;
  }
  const answers = await askTitleAndNote(glob);
  return answers === undefined ? undefined : { ...args, ...answers };
}

async function recordForCurrentFile(server: ServerManager): Promise<RecordReply | undefined> {
  const document = vscode.window.activeTextEditor?.document;
  const project = document === undefined ? undefined : projectRootOf(document.uri);
  if (document === undefined || project === undefined) {
    void vscode.window.showInformationMessage(
      'rulelens: open a file of a project that has a rules folder (.ai/rules) to record a rule for it.');
    return undefined;
  }
  const choices = mergeChoices(await serverGlobs(document), globChoices(project.rel));
  const glob = await pickGlob(choices, project.rel);
  if (glob === undefined) {
    return undefined;
  }
  const answers = await askTitleAndNote(glob);
  if (answers === undefined) {
    return undefined;
  }
  const args = { glob, ...answers, root: vscode.Uri.file(project.root).toString(), uri: document.uri.toString() };
  return reportRecord((await server.execute(RECORD_RULE, [args])) as RecordReply | undefined);
}

/** The server's own glob suggestions, taken from its record code actions. */
async function serverGlobs(document: vscode.TextDocument): Promise<string[]> {
  try {
    const actions = await vscode.commands.executeCommand<Array<vscode.CodeAction | vscode.Command>>(
      'vscode.executeCodeActionProvider', document.uri, new vscode.Range(0, 0, 0, 0), RECORD_KIND);
    const globs: string[] = [];
    for (const action of actions ?? []) {
      const command = typeof action.command === 'string' ? action as vscode.Command : (action as vscode.CodeAction).command;
      const first = command?.arguments?.[0] as { glob?: unknown } | undefined;
      if (command?.command === RECORD_RULE && typeof first?.glob === 'string') {
        globs.push(first.glob);
      }
    }
    return globs;
  } catch {
    return [];
  }
}

async function showRules(): Promise<void> {
  const document = vscode.window.activeTextEditor?.document;
  if (document === undefined) {
    void vscode.window.showInformationMessage('rulelens: open a file to see the project rules that apply to it.');
    return;
  }
  const rules = appliedRules(document.uri);
  if (rules.length === 0) {
    const record = 'Record Rule…';
    const choice = await vscode.window.showInformationMessage('rulelens: no project rule applies to this file.', record);
    if (choice === record) {
      await vscode.commands.executeCommand('rulelens.recordRuleForCurrentFile');
    }
    return;
  }
  type Item = vscode.QuickPickItem & { uri?: string; line?: number };
  const items: Item[] = [];
  for (const rule of rules) {
    items.push({ label: rule.name, kind: vscode.QuickPickItemKind.Separator });
    items.push({
      label: `$(file) ${rule.name}`,
      description: rule.globs.join(', '),
      detail: 'Open the rule file',
      uri: rule.uri,
      line: rule.line,
    });
    for (const entry of rule.entries) {
      items.push({ label: entry.title, description: rule.globs.join(', '), uri: rule.uri, line: entry.line });
    }
  }
  const picked = await vscode.window.showQuickPick(items, {
    title: 'Project rules for this file',
    placeHolder: 'Choose an entry to open it',
    matchOnDescription: true,
  });
  if (picked?.uri !== undefined) {
    await openAt(vscode.Uri.parse(picked.uri), picked.line ?? 0);
  }
}

async function regenerateIndex(server: ServerManager): Promise<void> {
  const roots = new Map<string, string>();
  const active = vscode.window.activeTextEditor?.document;
  const own = active === undefined ? undefined : projectRootOf(active.uri);
  if (own !== undefined) {
    roots.set(own.root, own.root);
  } else {
    for (const folder of vscode.workspace.workspaceFolders ?? []) {
      if (folder.uri.scheme === 'file') {
        roots.set(folder.uri.fsPath, folder.uri.fsPath);
      }
    }
  }
  const messages: string[] = [];
  for (const root of roots.keys()) {
    const reply = (await server.execute(WRITE_INDEX, [{ root: vscode.Uri.file(root).toString() }])) as
      { written?: boolean; error?: string } | undefined;
    if (reply?.error !== undefined) {
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

