/**
 * The language client: one rulelens server for the whole (multi-root) workspace, started on
 * stdio without `--stdio` (the server takes none), restarted on demand and on trust changes.
 */
import * as vscode from 'vscode';
import {
  CodeAction,
  Command,
  ExecuteCommandRequest,
  LanguageClient,
  LanguageClientOptions,
  RevealOutputChannelOn,
  ServerOptions,
} from 'vscode-languageclient/node';
import { extensionVersion, findServer } from './serverCommand';
import { RECORD_RULE, RecordRuleArgs, RecordRuleResult, RULES_CHANGED, RulesChanged, VERIFY, WRITE_INDEX } from './protocol';
import { INSTALL_COMMAND, notFoundMessage, PYTHON_DOWNLOAD, versionNote } from './discovery';
import { configurationAnswer, SECTION, ServerSettings, serverSettings } from './settings';

// Refused in an untrusted workspace: the writes, and verify (it runs the agents on the project).
const WRITE_COMMANDS = new Set([RECORD_RULE, WRITE_INDEX, VERIFY]);

/** Fills in what the server's record command needs from the person (title and note). */
export type RecordPrompter = (args: RecordRuleArgs) => Promise<RecordRuleArgs | undefined>;

export class ServerManager implements vscode.Disposable {
  private client: LanguageClient | undefined;
  private starting: Promise<void> | undefined;
  private warnedMissing = false;
  readonly changed = new vscode.EventEmitter<void>();
  /** The server's `rulelens/rulesChanged`: rules or agent files of these roots changed. */
  readonly rulesChanged = new vscode.EventEmitter<RulesChanged>();

  constructor(
    readonly log: vscode.LogOutputChannel,
    private readonly prompter: RecordPrompter,
  ) {}

  get running(): LanguageClient | undefined {
    return this.client?.isRunning() ? this.client : undefined;
  }

  start(): Promise<void> {
    this.starting ??= this.doStart().finally(() => {
      this.starting = undefined;
    });
    return this.starting;
  }

  async restart(): Promise<void> {
    await this.stop();
    this.warnedMissing = false;
    await this.start();
  }

  async stop(): Promise<void> {
    const client = this.client;
    this.client = undefined;
    if (client !== undefined) {
      try {
        await client.stop();
      } catch (error) {
        this.log.appendLine(`Stopping the server: ${String(error)}`);
      }
      this.changed.fire();
    }
  }

  dispose(): void {
    void this.stop();
    this.changed.dispose();
    this.rulesChanged.dispose();
  }

  /** Send one of rulelens's own requests; undefined when no server runs or the request fails. */
  async request(method: string, params: object): Promise<unknown> {
    const client = this.running;
    if (client === undefined) {
      return undefined;
    }
    try {
      return await client.sendRequest(method, params);
    } catch (error) {
      this.log.appendLine(`${method} failed: ${String(error)}`);
      return undefined;
    }
  }

  /** Run a server command (through the middleware, so writes honour workspace trust). */
  async execute(command: string, args: unknown[]): Promise<unknown> {
    if (!vscode.workspace.isTrusted && WRITE_COMMANDS.has(command)) {
      void vscode.window.showWarningMessage(
        'rulelens is read-only in an untrusted workspace: trust the workspace to record rules, rewrite the index or run the agents.');
      return undefined;
    }
    const client = this.running ?? (await this.start(), this.running);
    if (client === undefined) {
      return undefined;
    }
    return client.sendRequest(ExecuteCommandRequest.type, { command, arguments: args });
  }

  private async doStart(): Promise<void> {
    const discovery = await findServer(this.log);
    const found = discovery.launch;
    if (found === undefined) {
      const message = notFoundMessage(discovery);
      this.log.appendLine(message);
      if (!this.warnedMissing) {
        this.warnedMissing = true;
        void this.offerInstall(message, discovery.bundled !== undefined);
      }
      return;
    }
    this.log.appendLine(`Starting the rulelens server (${found.source}): ${[found.command, ...found.args].join(' ')}`);
    const cwd = vscode.workspace.workspaceFolders?.find((f) => f.uri.scheme === 'file')?.uri.fsPath;
    const serverOptions: ServerOptions = { command: found.command, args: found.args, options: { cwd } };
    const client = new LanguageClient('rulelens', 'rulelens', serverOptions, this.clientOptions());
    this.client = client;
    client.onDidChangeState(() => this.changed.fire());
    client.onNotification(RULES_CHANGED, (params: RulesChanged) => this.rulesChanged.fire(params));
    try {
      await client.start();
      const note = versionNote(found, client.initializeResult?.serverInfo?.version, extensionVersion());
      if (note.mismatch) {
        this.log.warn(note.text);
      } else {
        this.log.info(note.text);
      }
    } catch (error) {
      this.log.appendLine(`The rulelens server did not start: ${String(error)}`);
      void vscode.window.showErrorMessage(
        `rulelens: the language server did not start (${found.command}). See the rulelens output for details.`,
        'Show Output').then((choice) => choice && this.log.show());
    }
    this.changed.fire();
  }

  private clientOptions(): LanguageClientOptions {
    const trusted = (): boolean => vscode.workspace.isTrusted;
    return {
      documentSelector: [{ scheme: 'file' }],
      outputChannel: this.log,
      revealOutputChannelOn: RevealOutputChannelOn.Never,
      initializationOptions: settingsFor(undefined, trusted()),
      synchronize: { configurationSection: SECTION },
      middleware: {
        workspace: {
          // Each item names the folder it is for (scopeUri): answer with that folder's values.
          configuration: async (params, token, next) => {
            const defaults = await next(params, token);
            if (!Array.isArray(defaults)) {
              return defaults;
            }
            return configurationAnswer(params.items, defaults,
              (scopeUri) => settingsFor(scopeUri === undefined ? undefined : vscode.Uri.parse(scopeUri), trusted()));
          },
          // Send no values (settings: null): the server asks again, folder by folder, above.
          didChangeConfiguration: (_sections, next) => next(undefined),
        },
        executeCommand: async (command, args, next) => {
          if (WRITE_COMMANDS.has(command) && !trusted()) {
            void vscode.window.showWarningMessage('rulelens is read-only in an untrusted workspace.');
            return undefined;
          }
          if (command === RECORD_RULE) {
            const given = (args[0] ?? {}) as RecordRuleArgs;
            const filled = given.title === undefined || given.note === undefined
              ? await this.prompter(given) : given;
            if (filled === undefined) {
              return undefined;
            }
            return reportRecord(await next(command, [filled, ...args.slice(1)]) as RecordRuleResult | undefined);
          }
          return next(command, args);
        },
        provideCodeActions: async (document, range, context, token, next) => {
          const actions = await next(document, range, context, token);
          if (actions === null || actions === undefined || trusted()) {
            return actions;
          }
          return actions.filter((a) => !writes(a));
        },
      },
    };
  }

  /** The error with its remedies: Python's download page when Python is what is missing. */
  private async offerInstall(message: string, needsPython: boolean): Promise<void> {
    const copy = 'Copy Install Command';
    const download = 'Download Python';
    const settings = 'Open Settings';
    const choice = await vscode.window.showErrorMessage(message, needsPython ? download : copy, settings);
    if (choice === download) {
      await vscode.env.openExternal(vscode.Uri.parse(PYTHON_DOWNLOAD));
    } else if (choice === copy) {
      await vscode.env.clipboard.writeText(INSTALL_COMMAND);
    } else if (choice === settings) {
      await vscode.commands.executeCommand('workbench.action.openSettings', 'rulelens.server');
    }
  }
}

function writes(action: vscode.CodeAction | vscode.Command | CodeAction | Command): boolean {
  const command = 'command' in action ? action.command : undefined;
  const id = typeof command === 'string' ? command : command?.command;
  return (id !== undefined && WRITE_COMMANDS.has(id)) || ('edit' in action && action.edit !== undefined);
}

/** Tell the person what happened: the server already showed the rule file at the new entry. */
export function reportRecord(reply: RecordRuleResult | undefined): RecordRuleResult | undefined {
  // An error the server has already shown as a message; a skeleton is shown in its file.
  if (reply !== undefined && 'message' in reply) {
    void vscode.window.setStatusBarMessage(`$(check) ${reply.message}`, 8000);
  }
  return reply;
}

/** The server's settings for one folder (or the window, without a scope), as plain JSON. */
function settingsFor(scope: vscode.Uri | undefined, trusted: boolean): ServerSettings {
  return serverSettings(vscode.workspace.getConfiguration(SECTION, scope), trusted);
}
