/** Entry point: start the server, the status bar, the Project Rules view and the commands; restart on trust and setting changes. */
import * as vscode from 'vscode';
import { ServerManager } from './client';
import { promptForRecord, registerCommands } from './commands';
import { affectsLaunch } from './settings';
import { RulesView } from './rulesView';
import { RulesStatusBar } from './statusBar';
import { registerTestCommands } from './testing';

let manager: ServerManager | undefined;

export async function activate(context: vscode.ExtensionContext): Promise<void> {
  const log = vscode.window.createOutputChannel('rulelens', { log: true });
  manager = new ServerManager(log, promptForRecord);
  const status = new RulesStatusBar(manager);
  const view = new RulesView(manager);
  context.subscriptions.push(log, manager, status, view, ...registerCommands(manager),
    ...registerTestCommands(status, view));
  context.subscriptions.push(
    vscode.workspace.onDidGrantWorkspaceTrust(() => manager?.restart()),
    vscode.workspace.onDidChangeConfiguration((e) => {
      if (affectsLaunch(e)) {
        void manager?.restart();
      }
    }),
  );
  await manager.start();
}

export async function deactivate(): Promise<void> {
  await manager?.stop();
}
