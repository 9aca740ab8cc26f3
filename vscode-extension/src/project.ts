/** Which project root (the folder with the rules folder) a document belongs to, client-side. */
import * as fs from 'fs';
import * as vscode from 'vscode';
import { projectRoot, relativeTo } from './globs';

export interface ProjectFile {
  root: string;
  rel: string;
  /** Inside the rules folder (a rule file or the index). */
  isRuleFile: boolean;
}

/** The root of a `file:` document inside a workspace folder that has a rules folder; else undefined. */
export function projectRootOf(uri: vscode.Uri): ProjectFile | undefined {
  if (uri.scheme !== 'file') {
    return undefined;
  }
  const folder = vscode.workspace.getWorkspaceFolder(uri);
  if (folder === undefined || folder.uri.scheme !== 'file') {
    return undefined;
  }
  const rulesFolder = vscode.workspace.getConfiguration('rulelens', uri).get<string>('rulesFolder') || '.ai/rules';
  const root = projectRoot(uri.fsPath, folder.uri.fsPath, rulesFolder, (p) => fs.existsSync(p));
  const rel = relativeTo(root, uri.fsPath);
  if (rel === undefined || !fs.existsSync(`${root}/${rulesFolder}`)) {
    return undefined;
  }
  const folderPrefix = `${rulesFolder.replace(/\\/g, '/').replace(/^\.\//, '').replace(/\/+$/, '')}/`;
  return { root, rel, isRuleFile: rel.startsWith(folderPrefix) };
}
