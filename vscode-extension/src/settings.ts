/**
 * The extension's settings, typed, as Microsoft's python-tools extension template reads them:
 * one function per group, each reading a `WorkspaceConfiguration` the caller scoped. The server's
 * group is read per workspace folder (`"scope": "resource"` in package.json), because the client
 * answers each `workspace/configuration` item for the folder its `scopeUri` names.
 * Pure (types only from `vscode`), so it is unit tested.
 */
import type { ConfigurationChangeEvent, WorkspaceConfiguration } from 'vscode';

export const SECTION = 'rulelens';

export type Severity = 'hint' | 'information' | 'warning' | 'off';
export type HoverMode = 'firstLine' | 'anywhere' | 'off';

/** The `rulelens` section as the server reads it (docs/lsp.md), for one workspace folder. */
export interface ServerSettings {
  severity: Severity;
  codeLens: boolean;
  rulesFolder: string;
  hover: HoverMode;
  /** VS Code prompts for a rule's title and note, so the server sends it commands, not skeletons. */
  prompt: boolean;
  /** An untrusted workspace: the server shows rules and never writes. */
  readOnly: boolean;
}

/** How the server is started; machine-overridable, so never per folder. */
export interface LaunchSettings {
  /** A full command line, or empty. */
  command: string[] | string;
  /** An interpreter with rulelens installed, or empty. */
  python: string;
}

/** What `vscode.WorkspaceConfiguration` gives; narrowed so that tests can pass a map. */
export type ConfigReader = Pick<WorkspaceConfiguration, 'get'>;

const SEVERITIES: readonly Severity[] = ['hint', 'information', 'warning', 'off'];
const HOVER_MODES: readonly HoverMode[] = ['firstLine', 'anywhere', 'off'];

/** The server's settings from a `rulelens` configuration; a value of the wrong type is the default. */
export function serverSettings(config: ConfigReader, trusted: boolean): ServerSettings {
  const folder = config.get<unknown>('rulesFolder');
  return {
    severity: oneOf(config.get<unknown>('severity'), SEVERITIES, 'information'),
    codeLens: flag(config.get<unknown>('codeLens'), true),
    rulesFolder: typeof folder === 'string' && folder.trim() !== '' ? folder : '.ai/rules',
    hover: oneOf(config.get<unknown>('hover'), HOVER_MODES, 'firstLine'),
    prompt: true,
    readOnly: !trusted,
  };
}

export function launchSettings(config: ConfigReader): LaunchSettings {
  const command = config.get<unknown>('server.command');
  const python = config.get<unknown>('server.python');
  return {
    command: typeof command === 'string' || Array.isArray(command) ? command as string[] | string : [],
    python: typeof python === 'string' ? python : '',
  };
}

/** One item of a `workspace/configuration` request, as the server sends it. */
export interface ConfigurationItem {
  section?: string | null;
  scopeUri?: string | null;
}

/**
 * The answer to `workspace/configuration`: each `rulelens` item gets the settings of the folder
 * its `scopeUri` names (the window's without one); other sections keep the client's default.
 */
export function configurationAnswer(
  items: readonly ConfigurationItem[],
  defaults: readonly unknown[],
  settingsFor: (scopeUri: string | undefined) => ServerSettings,
): unknown[] {
  return items.map((item, i) => (item.section === SECTION ? settingsFor(item.scopeUri ?? undefined) : defaults[i] ?? null));
}

/** A change that needs another server process. */
export function affectsLaunch(event: Pick<ConfigurationChangeEvent, 'affectsConfiguration'>): boolean {
  return event.affectsConfiguration(`${SECTION}.server`);
}

function oneOf<T extends string>(value: unknown, allowed: readonly T[], fallback: T): T {
  return allowed.find((a) => a === value) ?? fallback;
}

function flag(value: unknown, fallback: boolean): boolean {
  return typeof value === 'boolean' ? value : fallback;
}
