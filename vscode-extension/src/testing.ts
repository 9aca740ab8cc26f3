/**
 * A test-only command for the end-to-end test: it writes what the extension shows (status bar
 * text and tooltip, the rules diagnostic, the server's answer behind the status bar) to the file
 * named by RULELENS_E2E_STATE. It exists only when that variable is set, and is hidden from the
 * palette otherwise (context key `rulelens.testMode`).
 */
import * as fs from 'fs';
import * as vscode from 'vscode';
import { RulesStatusBar } from './statusBar';

export function registerTestCommands(status: RulesStatusBar): vscode.Disposable[] {
  const target = process.env.RULELENS_E2E_STATE;
  if (!target) {
    return [];
  }
  void vscode.commands.executeCommand('setContext', 'rulelens.testMode', true);
  return [vscode.commands.registerCommand('rulelens.test.dumpState', async () => {
    const document = vscode.window.activeTextEditor?.document;
    await status.update();
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
    };
    fs.writeFileSync(target, JSON.stringify(state, null, 2));
    return state;
  })];
}
