/** The `vscode` side of server discovery: settings, PATH, the Python extension, the bundled copy. */
import { execFile } from 'child_process';
import * as fs from 'fs';
import * as path from 'path';
import * as vscode from 'vscode';
import { discoverServer, Discovery, findExecutable } from './discovery';
import { launchSettings, SECTION } from './settings';

const PYTHON_EXTENSION = 'ms-python.python';
/** The extension's folder: this file is bundled into <extension>/dist/extension.js. */
export const EXTENSION_ROOT = path.dirname(__dirname);
/** The start script of the server in the VSIX (filled by scripts/bundle_server.py). */
const BUNDLED_SERVER = path.join(EXTENSION_ROOT, 'bundled', 'tool', 'rulelens_server.py');
const BUNDLED_LIBS = path.join(EXTENSION_ROOT, 'bundled', 'libs', 'rulelens');

export async function findServer(log: vscode.LogOutputChannel): Promise<Discovery> {
  const launch = launchSettings(vscode.workspace.getConfiguration(SECTION));
  const bundled = fs.existsSync(BUNDLED_SERVER) && fs.existsSync(BUNDLED_LIBS) ? BUNDLED_SERVER : undefined;
  if (bundled === undefined) {
    log.appendLine(`This build of the extension has no bundled server (${BUNDLED_LIBS} is missing).`);
  }
  return discoverServer({
    commandSetting: launch.command,
    pythonSetting: launch.python,
    findOnPath: (name) => findExecutable(name, process.env.PATH),
    pythonHasRulelens: (python) => canImport(python, log),
    pythonExtensionInterpreter: () => pythonExtensionInterpreter(log),
    bundledServer: bundled,
    pythonVersion: (python) => pythonVersion(python, log),
  });
}

/** This extension's version, from its package.json. */
export function extensionVersion(): string {
  try {
    const manifest = JSON.parse(fs.readFileSync(path.join(EXTENSION_ROOT, 'package.json'), 'utf8')) as { version?: unknown };
    return typeof manifest.version === 'string' ? manifest.version : 'unknown';
  } catch {
    return 'unknown';
  }
}

function pythonVersion(python: readonly string[], log: vscode.LogOutputChannel): Promise<string | undefined> {
  const [command, ...rest] = python;
  const script = 'import sys; print(".".join(map(str, sys.version_info[:3])))';
  return new Promise((resolve) => {
    execFile(command, [...rest, '-c', script], { timeout: 15000 }, (error, stdout) => {
      if (error) {
        log.appendLine(`${python.join(' ')} did not run: ${error.message}`);
        resolve(undefined);
        return;
      }
      const version = stdout.trim().split(/\s+/).pop();
      log.appendLine(`${python.join(' ')} is Python ${version}`);
      resolve(version);
    });
  });
}

function canImport(python: readonly string[], log: vscode.LogOutputChannel): Promise<boolean> {
  const [command, ...rest] = python;
  return new Promise((resolve) => {
    execFile(command, [...rest, '-c', 'import rulelens.cli.app'], { timeout: 15000 }, (error) => {
      if (error) {
        log.appendLine(`rulelens is not importable with ${python.join(' ')}: ${error.message}`);
      }
      resolve(!error);
    });
  });
}

interface PythonExtensionApi {
  settings?: {
    getExecutionDetails?(resource?: vscode.Uri): { execCommand: string[] | undefined };
  };
  environments?: {
    getActiveEnvironmentPath?(resource?: vscode.Uri): { path: string } | undefined;
  };
}

/** The interpreter the Python extension would run; optional, so any failure means none. */
async function pythonExtensionInterpreter(log: vscode.LogOutputChannel): Promise<string[] | undefined> {
  const extension = vscode.extensions.getExtension<PythonExtensionApi>(PYTHON_EXTENSION);
  if (extension === undefined) {
    return undefined;
  }
  try {
    const api = extension.isActive ? extension.exports : await extension.activate();
    const resource = vscode.workspace.workspaceFolders?.[0]?.uri;
    const details = api.settings?.getExecutionDetails?.(resource)?.execCommand;
    if (details !== undefined && details.length > 0) {
      return [...details];
    }
    const active = api.environments?.getActiveEnvironmentPath?.(resource)?.path;
    return active ? [active] : undefined;
  } catch (error) {
    log.appendLine(`The Python extension did not give an interpreter: ${String(error)}`);
    return undefined;
  }
}
