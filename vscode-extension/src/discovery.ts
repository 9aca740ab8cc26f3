/**
 * Finding the rulelens language server, in the order the README promises: the
 * `rulelens.server.command` setting, `rulelens` on PATH, `rulelens.server.python` or the Python
 * extension's interpreter when rulelens is installed there, and last the server bundled in the
 * VSIX, run by the first Python 3.10+ among those two and `python3`/`python` on PATH.
 * Pure (no `vscode` import) so it is unit tested.
 */
import * as fs from 'fs';
import * as path from 'path';

export type LaunchSource = 'setting' | 'path' | 'python' | 'pythonExtension' | 'bundled';

export interface ServerLaunch {
  command: string;
  args: string[];
  source: LaunchSource;
  /** The interpreter's version (`3.11.2`), for the bundled server. */
  pythonVersion?: string;
}

export interface DiscoveryInputs {
  /** `rulelens.server.command`: a full command line, or empty. */
  commandSetting: readonly string[] | string | undefined;
  /** `rulelens.server.python`: an interpreter path, or empty. */
  pythonSetting: string | undefined;
  /** Resolves an executable name on PATH. */
  findOnPath: (name: string) => string | undefined;
  /** Whether `python -m rulelens` can run with this interpreter command line. */
  pythonHasRulelens: (python: readonly string[]) => Promise<boolean>;
  /** The Python extension's active interpreter command line, when that extension is there. */
  pythonExtensionInterpreter: () => Promise<readonly string[] | undefined>;
  /** The bundled server's start script, when the extension carries one. */
  bundledServer: string | undefined;
  /** The interpreter's version (`3.11.2`), or undefined when it does not run. */
  pythonVersion: (python: readonly string[]) => Promise<string | undefined>;
}

/** A Python that was asked to run the bundled server: its version, or none when it did not run. */
export interface TriedPython {
  python: string;
  version: string | undefined;
}

export type Discovery =
  | { launch: ServerLaunch }
  | { launch: undefined; triedPython: string[]; bundled: TriedPython[] | undefined };

export const INSTALL_COMMAND = 'pip install rulelens';
export const MIN_PYTHON: readonly [number, number] = [3, 10];
export const PYTHON_DOWNLOAD = 'https://www.python.org/downloads/';
/** Names of Python on PATH, tried in this order after the settings and the Python extension. */
export const PYTHON_NAMES = ['python3', 'python'] as const;

/** The one message shown when no server can be found. */
export function notFoundMessage(found: Discovery): string {
  if (found.launch !== undefined) {
    return '';
  }
  if (found.bundled !== undefined) {
    return noPythonMessage(found.bundled);
  }
  const tried = found.triedPython.length > 0 ? ` (tried Python: ${found.triedPython.join(', ')})` : '';
  return `rulelens: the language server was not found${tried}. Install it with "${INSTALL_COMMAND}", `
    + 'or set "rulelens.server.command" to the command that starts it.';
}

/** No Python 3.10+ for the bundled server: what was found, and what to install. */
export function noPythonMessage(tried: readonly TriedPython[]): string {
  const old = tried.filter((t) => t.version !== undefined);
  const found = old.length > 0
    ? `found only ${old.map((t) => `Python ${t.version} (${t.python})`).join(', ')}`
    : `found no Python (tried ${tried.length > 0 ? tried.map((t) => t.python).join(', ') : PYTHON_NAMES.join(' and ')})`;
  return `rulelens needs Python ${MIN_PYTHON.join('.')} or newer to run its language server, and ${found}. `
    + 'Install Python from python.org or your package manager, or set "rulelens.server.python" to a Python 3.10+ interpreter.';
}

/** Whether `version` (`3.11.2`) is at least `MIN_PYTHON`. */
export function recentEnough(version: string | undefined): boolean {
  const [major, minor] = (version ?? '').split('.').map((part) => Number.parseInt(part, 10));
  if (!Number.isFinite(major) || !Number.isFinite(minor)) {
    return false;
  }
  return major > MIN_PYTHON[0] || (major === MIN_PYTHON[0] && minor >= MIN_PYTHON[1]);
}

/** The first server that can be started, or what was tried when there is none. */
export async function discoverServer(inputs: DiscoveryInputs): Promise<Discovery> {
  const setting = normaliseCommand(inputs.commandSetting);
  if (setting.length > 0) {
    const [command, ...args] = setting;
    return { launch: { command, args: args.length > 0 ? args : ['serve'], source: 'setting' } };
  }
  const onPath = inputs.findOnPath('rulelens');
  if (onPath !== undefined) {
    return { launch: { command: onPath, args: ['serve'], source: 'path' } };
  }
  const triedPython: string[] = [];
  const python = (inputs.pythonSetting ?? '').trim();
  if (python !== '') {
    triedPython.push(python);
    if (await inputs.pythonHasRulelens([python])) {
      return { launch: pythonLaunch([python], 'python') };
    }
  }
  const fromExtension = await inputs.pythonExtensionInterpreter();
  if (fromExtension !== undefined && fromExtension.length > 0) {
    triedPython.push(fromExtension.join(' '));
    if (await inputs.pythonHasRulelens(fromExtension)) {
      return { launch: pythonLaunch(fromExtension, 'pythonExtension') };
    }
  }
  if (inputs.bundledServer === undefined) {
    return { launch: undefined, triedPython, bundled: undefined };
  }
  const candidates: (readonly string[])[] = [];
  if (python !== '') {
    candidates.push([python]);
  }
  if (fromExtension !== undefined && fromExtension.length > 0) {
    candidates.push(fromExtension);
  }
  for (const name of PYTHON_NAMES) {
    const found = inputs.findOnPath(name);
    if (found !== undefined) {
      candidates.push([found]);
    }
  }
  const bundled: TriedPython[] = [];
  const seen = new Set<string>();
  for (const candidate of candidates) {
    const key = candidate.join(' ');
    if (seen.has(key)) {
      continue;
    }
    seen.add(key);
    const version = await inputs.pythonVersion(candidate);
    bundled.push({ python: key, version });
    if (recentEnough(version)) {
      const [command, ...rest] = candidate;
      // -I: no PYTHONPATH, no user site-packages; the script puts the bundled libs first.
      return { launch: { command, args: [...rest, '-I', inputs.bundledServer, 'serve'], source: 'bundled', pythonVersion: version } };
    }
  }
  return { launch: undefined, triedPython, bundled };
}

/** What to log about the server that started; `mismatch` when its version is not the extension's. */
export function versionNote(
  launch: ServerLaunch, serverVersion: string | undefined, extensionVersion: string,
): { text: string; mismatch: boolean } {
  if (launch.source === 'bundled') {
    return {
      text: `Using the rulelens server bundled with the extension, version ${serverVersion ?? extensionVersion}, `
        + `on Python ${launch.pythonVersion ?? '(unknown version)'} (${launch.command}).`,
      mismatch: false,
    };
  }
  const where = `${launch.source === 'path' ? 'on PATH' : `from ${launch.source}`}: ${launch.command}`;
  if (serverVersion === undefined || serverVersion === extensionVersion) {
    return { text: `Using rulelens ${serverVersion ?? '(version not reported)'} (${where}).`, mismatch: false };
  }
  return {
    text: `Using rulelens ${serverVersion} (${where}), but this extension is version ${extensionVersion} and bundles `
      + 'that version of the server. Features may differ: update one of them, or remove the other rulelens '
      + 'from PATH and the settings to use the bundled copy.',
    mismatch: true,
  };
}

function pythonLaunch(python: readonly string[], source: LaunchSource): ServerLaunch {
  const [command, ...rest] = python;
  return { command, args: [...rest, '-m', 'rulelens', 'serve'], source };
}

/** A setting value as a command line: a string is one executable, an array is argv. */
export function normaliseCommand(value: readonly string[] | string | undefined): string[] {
  if (typeof value === 'string') {
    return value.trim() === '' ? [] : [value.trim()];
  }
  if (!Array.isArray(value)) {
    return [];
  }
  const argv = value.filter((item): item is string => typeof item === 'string');
  return argv.length > 0 && argv[0].trim() !== '' ? argv : [];
}

/** `which`: the first executable called `name` in the PATH list (with PATHEXT on Windows). */
export function findExecutable(
  name: string,
  pathEnv: string | undefined,
  platform: NodeJS.Platform = process.platform,
  pathExt: string | undefined = process.env.PATHEXT,
  isExecutable: (file: string) => boolean = defaultIsExecutable,
): string | undefined {
  if (!pathEnv) {
    return undefined;
  }
  const sep = platform === 'win32' ? ';' : ':';
  const exts = platform === 'win32' ? ['', ...(pathExt ?? '.EXE;.CMD;.BAT').split(';')] : [''];
  for (const dir of pathEnv.split(sep)) {
    if (dir === '') {
      continue;
    }
    for (const ext of exts) {
      const candidate = path.join(dir, name + ext);
      if (isExecutable(candidate)) {
        return candidate;
      }
    }
  }
  return undefined;
}

function defaultIsExecutable(file: string): boolean {
  try {
    const stat = fs.statSync(file);
    if (!stat.isFile()) {
      return false;
    }
    fs.accessSync(file, fs.constants.X_OK);
    return true;
  } catch {
    return false;
  }
}
