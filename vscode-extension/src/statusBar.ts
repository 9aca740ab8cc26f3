/**
 * The status bar item: how many rule entries apply to the active editor, and in its tooltip
 * which rule files agents miss and why, and which other agents load files for it (and which);
 * click → Show Rules. Everything comes from the server's
 * `rulelens/rulesForPath`, so it counts whatever the diagnostic's severity.
 */
import * as vscode from 'vscode';
import { ServerManager } from './client';
import { RulesForPath } from './protocol';
import { hasRulesFolder, rulesForPath } from './queries';
import { loadingAgents, statusText, statusTooltip } from './rules';

/** Rule files change in bursts (a record writes the file, then the index): ask once after them. */
const SETTLE_MS = 150;

/** Source files of a project with rules or with other agents loading files for them; another
 * agent's rule file only when Boost rules reach it. */
async function worthShowing(answer: RulesForPath): Promise<boolean> {
  if (answer.kind === 'agent') {
    return answer.rules.length > 0;
  }
  return answer.kind === 'source' && (loadingAgents(answer).length > 0 || await hasRulesFolder(answer));
}

export class RulesStatusBar implements vscode.Disposable {
  readonly item: vscode.StatusBarItem;
  /** The answer shown now, and whether the item shows at all, for the test-only state dump. */
  shown: RulesForPath | undefined;
  visible = false;
  private readonly subscriptions: vscode.Disposable[] = [];
  private asked = 0;
  private timer: ReturnType<typeof setTimeout> | undefined;

  constructor(private readonly server: ServerManager) {
    this.item = vscode.window.createStatusBarItem('rulelens.status', vscode.StatusBarAlignment.Left, 50);
    this.item.name = 'rulelens: rules for this file';
    this.item.command = 'rulelens.showRules';
    const watcher = vscode.workspace.createFileSystemWatcher('**/*.md');
    this.subscriptions.push(
      watcher,
      watcher.onDidChange(() => this.soon()),
      watcher.onDidCreate(() => this.soon()),
      watcher.onDidDelete(() => this.soon()),
      vscode.window.onDidChangeActiveTextEditor(() => void this.update()),
      // The server republishes diagnostics whenever rules change: a cheap cue to ask again.
      vscode.languages.onDidChangeDiagnostics((e) => {
        const active = vscode.window.activeTextEditor?.document.uri.toString();
        if (active !== undefined && e.uris.some((u) => u.toString() === active)) {
          this.soon();
        }
      }),
      vscode.workspace.onDidChangeConfiguration((e) => e.affectsConfiguration('rulelens') && this.soon()),
      server.changed.event(() => void this.update()),
    );
    void this.update();
  }

  /** Ask again once the current burst of changes has settled. */
  soon(): void {
    clearTimeout(this.timer);
    this.timer = setTimeout(() => void this.update(), SETTLE_MS);
  }

  async update(): Promise<void> {
    const asked = ++this.asked;
    const document = vscode.window.activeTextEditor?.document;
    if (document === undefined || document.uri.scheme !== 'file') {
      this.hide();
      return;
    }
    if (this.server.running === undefined) {
      this.shown = undefined;
      this.item.text = '$(warning) rulelens';
      this.item.tooltip = 'rulelens: the language server is not running. Click to start it.';
      this.item.command = 'rulelens.restartServer';
      this.show();
      return;
    }
    const answer = await rulesForPath(this.server, document.uri);
    const quiet = answer === null || (answer !== undefined && !await worthShowing(answer));
    if (asked !== this.asked) {
      return; // a newer update (another editor, another change) is on its way
    }
    if (quiet) {
      // Outside every root, a project without rules, or a rule file (its own diagnostics say
      // what is wrong with it).
      this.hide();
      return;
    }
    this.shown = answer;
    this.item.command = 'rulelens.showRules';
    this.item.text = statusText(answer);
    this.item.tooltip = statusTooltip(answer);
    this.show();
  }

  private show(): void {
    this.visible = true;
    this.item.show();
  }

  private hide(): void {
    this.shown = undefined;
    this.visible = false;
    this.item.hide();
  }

  dispose(): void {
    clearTimeout(this.timer);
    this.item.dispose();
    this.subscriptions.forEach((s) => s.dispose());
  }
}
