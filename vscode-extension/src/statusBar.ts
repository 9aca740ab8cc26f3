/** The status bar item: how many rule entries apply to the active editor; click → Show Rules. */
import * as vscode from 'vscode';
import { appliedRules } from './applied';
import { statusText, statusTooltip } from './rules';
import { projectRootOf } from './project';

export class RulesStatusBar implements vscode.Disposable {
  readonly item: vscode.StatusBarItem;
  private readonly subscriptions: vscode.Disposable[] = [];

  constructor(private readonly serverRunning: () => boolean) {
    this.item = vscode.window.createStatusBarItem('rulelens.status', vscode.StatusBarAlignment.Left, 50);
    this.item.name = 'rulelens: rules for this file';
    this.item.command = 'rulelens.showRules';
    this.subscriptions.push(
      vscode.window.onDidChangeActiveTextEditor(() => this.update()),
      vscode.languages.onDidChangeDiagnostics((e) => {
        const active = vscode.window.activeTextEditor?.document.uri.toString();
        if (active !== undefined && e.uris.some((u) => u.toString() === active)) {
          this.update();
        }
      }),
      vscode.workspace.onDidChangeConfiguration((e) => e.affectsConfiguration('rulelens') && this.update()),
    );
    this.update();
  }

  update(): void {
    const document = vscode.window.activeTextEditor?.document;
    const project = document === undefined ? undefined : projectRootOf(document.uri);
    if (document === undefined || project === undefined || project.isRuleFile) {
      // Rule files get their own diagnostics; a count of rules "applying" to them means nothing.
      this.item.hide();
      return;
    }
    if (!this.serverRunning()) {
      this.item.text = '$(warning) rulelens';
      this.item.tooltip = 'rulelens: the language server is not running. Click to start it.';
      this.item.command = 'rulelens.restartServer';
      this.item.show();
      return;
    }
    this.item.command = 'rulelens.showRules';
    const off = vscode.workspace.getConfiguration('rulelens', document.uri).get('severity') === 'off';
    const rules = off ? undefined : appliedRules(document.uri);
    this.item.text = statusText(rules);
    this.item.tooltip = off ? 'rulelens: counts are shown when rulelens.severity is not "off". Click to show the rules.' : statusTooltip(rules);
    this.item.show();
  }

  dispose(): void {
    this.item.dispose();
    this.subscriptions.forEach((s) => s.dispose());
  }
}
