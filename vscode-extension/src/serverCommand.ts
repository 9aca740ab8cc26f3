/**
 * Finding the rulelens language server, in the order the README promises:
 * the `rulelens.server.command` setting, `rulelens` on PATH, `rulelens.server.python`,
 * then the Python extension's interpreter. Pure (no `vscode` import) so it is unit tested.
 */
import * as fs from 'fs';
import * as path from 'path';

export type LaunchSource = 'setting' | 'path' | 'python' | 'pythonExtension';

export interface ServerLaunch {
  command: string;
  args: string[];
  source: LaunchSource;
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
}

export const INSTALL_COMMAND = 'pip install rulelens';

/** The one message shown when no server can be found. */
export function notFoundMessage(triedPython: readonly string[]): string {
  const tried = triedPython.length > 0 ? ` (tried Python: ${triedPython.join(', ')})` : '';
  return `rulelens: the language server was not found${tried}. Install it with "${INSTALL_COMMAND}", `
    + 'or set "rulelens.server.command" to the command that starts it.';
}

/** The first server that can be started, or a list of what was tried when there is none. */
export async function discoverServer(
  inputs: DiscoveryInputs,
): Promise<{ launch: ServerLaunch } | { launch: undefined; triedPython: string[] }> {
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
  return { launch: undefined, triedPython };
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
