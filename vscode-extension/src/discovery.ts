/** The `vscode` side of server discovery: settings, PATH, and the Python extension. */
import { execFile } from 'child_process';
import * as vscode from 'vscode';
import { discoverServer, findExecutable, ServerLaunch, notFoundMessage } from './serverCommand';
import { launchSettings, SECTION } from './settings';

const PYTHON_EXTENSION = 'ms-python.python';

export async function findServer(log: vscode.LogOutputChannel): Promise<ServerLaunch | string> {
  const launch = launchSettings(vscode.workspace.getConfiguration(SECTION));
  const result = await discoverServer({
    commandSetting: launch.command,
    pythonSetting: launch.python,
    findOnPath: (name) => findExecutable(name, process.env.PATH),
    pythonHasRulelens: (python) => canImport(python, log),
    pythonExtensionInterpreter: () => pythonExtensionInterpreter(log),
  });
  return result.launch ?? notFoundMessage(result.triedPython);
}

function canImport(python: readonly string[], log: vscode.LogOutputChannel): Promise<boolean> {
  const [command, ...rest] = python;
  return new Promise((resolve) => {
    execFile(command, [...rest, '-c', 'import rulelens.cli'], { timeout: 15000 }, (error) => {
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
