/**
 * A test-only command for the end-to-end test: it writes what the extension shows (status bar
 * text and tooltip, the rules diagnostic, the server's answer behind the status bar, the Project
 * Rules view's tree) to the file
 * named by RULELENS_E2E_STATE. It exists only when that variable is set, and is hidden from the
 * palette otherwise (context key `rulelens.testMode`).
 */
import * as fs from 'fs';
import * as vscode from 'vscode';
import { ViewNode } from './rulesTree';
import { RulesView } from './rulesView';
import { RulesStatusBar } from './statusBar';

export function registerTestCommands(status: RulesStatusBar, view: RulesView): vscode.Disposable[] {
  const target = process.env.RULELENS_E2E_STATE;
  if (!target) {
    return [];
  }
  void vscode.commands.executeCommand('setContext', 'rulelens.testMode', true);
  return [vscode.commands.registerCommand('rulelens.test.dumpState', async () => {
    const document = vscode.window.activeTextEditor?.document;
    await status.update();
    await view.refresh();
    const state = {
      activeFile: document?.uri.fsPath ?? null,
      statusBar: { text: status.item.text, tooltip: String(status.item.tooltip ?? ''), visible: status.visible },
      diagnostics: document === undefined ? [] : vscode.languages.getDiagnostics(document.uri).map((d) => ({
        source: d.source ?? null,
        code: typeof d.code === 'object' ? d.code.value : (d.code ?? null),
        severity: vscode.DiagnosticSeverity[d.severity],
        message: d.message,
        line: d.range.start.line,
      })),
      rulesForPath: status.shown ?? null,
      rulesView: { empty: view.empty, nodes: view.nodes.map(outline) },
    };
    fs.writeFileSync(target, JSON.stringify(state, null, 2));
    return state;
  })];
}

/** A node as label, description, fix and children: what the view draws. */
function outline(node: ViewNode): object {
  return {
    label: node.label, description: node.description ?? null, kind: node.kind, unseen: node.unseen ?? false,
    fix: node.fix ?? null, line: node.line ?? null, children: node.children.map(outline),
  };
}
