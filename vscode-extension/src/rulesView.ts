/**
 * The Project Rules view in the Explorer: for the active editor's file, what each agent loads
 * (rulesTree.ts builds it from the server's `rulelens/rulesForPath`). It asks again when the
 * active editor changes, when the server says rules changed (`rulelens/rulesChanged`) and on
 * Refresh. An empty view shows a welcome text chosen by the `rulelens.view` context key.
 */
import * as vscode from 'vscode';
import { ServerManager } from './client';
import {
  isVerifyResult, RulesForPath, VERIFY, VERIFY_CANCEL, VerifyArgs, VerifyResult, WRITE_INDEX, WriteIndexArgs,
} from './protocol';
import { hasRulesFolder, rulesForPath } from './queries';
import { Empty, emptyReason, ViewNode, viewNodes } from './rulesTree';
import { verifyNodes, verifySummary } from './verifyTree';

export const VIEW_ID = 'rulelens.projectRules';

export class RulesView implements vscode.TreeDataProvider<ViewNode>, vscode.Disposable {
  private readonly changed = new vscode.EventEmitter<void>();
  readonly onDidChangeTreeData = this.changed.event;
  readonly view: vscode.TreeView<ViewNode>;
  /** What the view shows now, for the test-only state dump. */
  nodes: ViewNode[] = [];
  answer: RulesForPath | null | undefined;
  empty: Empty = 'noEditor';
  /** The last `rulelens.verify` answer, shown above the rules until the next one. */
  verification: VerifyResult | undefined;
  private readonly subscriptions: vscode.Disposable[] = [];
  private asked = 0;

  constructor(private readonly server: ServerManager) {
    this.view = vscode.window.createTreeView(VIEW_ID, { treeDataProvider: this, showCollapseAll: true });
    this.subscriptions.push(
      this.view,
      vscode.window.onDidChangeActiveTextEditor(() => void this.refresh()),
      server.rulesChanged.event(() => void this.refresh()),
      server.changed.event(() => void this.refresh()),
      this.view.onDidChangeVisibility((e) => e.visible && void this.refresh()),
      vscode.commands.registerCommand('rulelens.view.refresh', () => this.refresh()),
      vscode.commands.registerCommand('rulelens.view.recordRule',
        () => vscode.commands.executeCommand('rulelens.recordRuleForCurrentFile')),
      vscode.commands.registerCommand('rulelens.view.writeIndex', (node?: ViewNode) => this.writeIndex(node)),
      vscode.commands.registerCommand('rulelens.view.quoteGlobs', (node?: ViewNode) => this.quoteGlobs(node)),
      vscode.commands.registerCommand('rulelens.verifyWithAgents', () => this.verify()),
    );
    void this.refresh();
  }

  /** Ask the server again for the active editor's file and redraw. */
  async refresh(): Promise<void> {
    const asked = ++this.asked;
    const document = vscode.window.activeTextEditor?.document;
    let answer: RulesForPath | null | undefined;
    let empty: Empty;
    if (document === undefined || document.uri.scheme !== 'file') {
      empty = 'noEditor';
    } else if (this.server.running === undefined) {
      empty = 'noServer';
    } else {
      answer = await rulesForPath(this.server, document.uri);
      const folder = answer !== null && answer !== undefined && await hasRulesFolder(answer);
      empty = emptyReason(answer, folder);
    }
    if (asked !== this.asked) {
      return; // a newer refresh is on its way
    }
    this.answer = answer;
    this.empty = empty;
    const rules = empty === null && answer ? viewNodes(answer) : [];
    this.nodes = this.verification ? [...verifyNodes(this.verification), ...rules] : rules;
    this.view.description = answer ? answer.path : undefined;
    this.view.message = empty === null && rules.length === 0 && this.nodes.length === 0
      ? `No agent loads a rule file for ${answer?.path}.` : undefined;
    await vscode.commands.executeCommand('setContext', 'rulelens.view', empty ?? 'rules');
    this.changed.fire();
  }

  getChildren(node?: ViewNode): ViewNode[] {
    return node === undefined ? this.nodes : node.children;
  }

  getTreeItem(node: ViewNode): vscode.TreeItem {
    const open = node.expanded ?? (node.kind === 'agent' || node.kind === 'group');
    const state = node.children.length === 0 ? vscode.TreeItemCollapsibleState.None
      : open ? vscode.TreeItemCollapsibleState.Expanded : vscode.TreeItemCollapsibleState.Collapsed;
    const item = new vscode.TreeItem(node.label, state);
    item.id = node.id;
    item.description = node.description;
    item.tooltip = node.tooltip;
    if (node.warning || node.unseen) {
      item.iconPath = new vscode.ThemeIcon(node.unseen ? 'eye-closed' : 'warning',
        new vscode.ThemeColor('list.warningForeground'));
    } else if (node.icon !== undefined) {
      item.iconPath = new vscode.ThemeIcon(node.icon);
    }
    item.contextValue = node.unseen ? `unseen${node.fix ? `.${node.fix}` : ''}` : node.kind;
    if (node.uri !== undefined) {
      const line = node.line ?? 0;
      item.resourceUri = node.kind === 'file' ? vscode.Uri.parse(node.uri) : undefined;
      item.command = {
        command: 'vscode.open', title: 'Open',
        arguments: [vscode.Uri.parse(node.uri), { selection: new vscode.Range(line, 0, line, 0) }],
      };
    }
    return item;
  }

  getParent(): undefined {
    return undefined;
  }

  /**
   * "Verify with Installed Agents": the server runs each agent on its PATH on a scratch copy for
   * the active file (or the workspace's first folder: a few paths its rules name); the answer
   * goes above the rules, differences as warnings.
   */
  async verify(): Promise<VerifyResult | undefined> {
    const document = vscode.window.activeTextEditor?.document;
    const folder = vscode.workspace.workspaceFolders?.find((f) => f.uri.scheme === 'file');
    const uri = document?.uri.scheme === 'file' ? document.uri.toString() : folder?.uri.toString();
    if (uri === undefined) {
      void vscode.window.showInformationMessage('rulelens: open a file or a folder to verify.');
      return undefined;
    }
    const args: VerifyArgs = { uri };
    // Cancel asks the server to end the running agent's process group (`rulelens.verifyCancel`);
    // verify then answers at once with the runs done, the stopped one marked.
    const reply = await vscode.window.withProgress(
      {
        location: vscode.ProgressLocation.Notification, cancellable: true,
        title: 'rulelens: running the installed agents on a scratch copy…',
      },
      async (_progress, token) => {
        const cancel = token.onCancellationRequested(() => void this.server.execute(VERIFY_CANCEL, [{}]));
        try {
          return await this.server.execute(VERIFY, [args]);
        } finally {
          cancel.dispose();
        }
      });
    if (!isVerifyResult(reply)) {
      const error = typeof reply === 'object' && reply !== null && 'error' in reply ? String(reply.error) : 'no answer';
      void vscode.window.showErrorMessage(`rulelens: verify failed: ${error}`);
      return undefined;
    }
    this.verification = reply;
    const say = reply.exit === 0 ? vscode.window.showInformationMessage : vscode.window.showWarningMessage;
    void say(`rulelens verify: ${verifySummary(reply)}.`);
    await vscode.commands.executeCommand(`${VIEW_ID}.focus`);
    await this.refresh();
    return reply;
  }

  private async writeIndex(node?: ViewNode): Promise<void> {
    const root = this.answer?.rootUri;
    const args: WriteIndexArgs = root === undefined ? {} : { root };
    await this.server.execute(WRITE_INDEX, [args]);
    void vscode.window.setStatusBarMessage(`$(check) rulelens: regenerated the index${node ? ` for ${node.label}` : ''}`,
      5000);
    await this.refresh();
  }

  /**
   * Quote the rule file's globs with the server's quick fix (the same one the light bulb offers
   * on its finding), and save; without that fix, open the file at its `paths` with the reason.
   */
  private async quoteGlobs(node?: ViewNode): Promise<void> {
    if (node?.uri === undefined) {
      return;
    }
    const uri = vscode.Uri.parse(node.uri);
    const document = await vscode.workspace.openTextDocument(uri);
    const whole = new vscode.Range(0, 0, document.lineCount, 0);
    let fix: vscode.CodeAction | undefined;
    // A document opened just now may reach the server after the first request: ask a few times.
    for (let attempt = 0; attempt < 10 && fix === undefined; attempt++) {
      if (attempt > 0) {
        await new Promise((resolve) => setTimeout(resolve, 300));
      }
      const actions = await vscode.commands.executeCommand<vscode.CodeAction[]>(
        'vscode.executeCodeActionProvider', uri, whole, vscode.CodeActionKind.QuickFix.value) ?? [];
      fix = actions.find((a) => a.title.startsWith('Quote the globs') && a.edit !== undefined);
    }
    if (fix?.edit !== undefined && await vscode.workspace.applyEdit(fix.edit)) {
      await document.save();
      void vscode.window.setStatusBarMessage(`$(check) rulelens: quoted the globs of ${node.label}`, 5000);
      await this.refresh();
      return;
    }
    const line = Math.max(0, document.getText().split(/\r?\n/).findIndex((l) => /^paths\s*:/.test(l)));
    await vscode.window.showTextDocument(uri, { selection: new vscode.Range(line, 0, line, 0) });
    if (node.tooltip !== undefined) {
      void vscode.window.showInformationMessage(node.tooltip);
    }
  }

  dispose(): void {
    this.changed.dispose();
    this.subscriptions.forEach((s) => s.dispose());
  }
}
