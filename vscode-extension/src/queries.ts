/**
 * The facts the views show, asked of the server: which rules apply to a document (and its
 * root), and which globs to offer when recording. The client computes neither itself.
 */
import * as vscode from 'vscode';
import { ServerManager } from './client';
import {
  isRulesForPath, isSuggestGlobs, RULES_FOR_PATH, RulesForPath, SUGGEST_GLOBS, SuggestGlobs, DocumentParams,
} from './protocol';

/** A reply, `null` for a document outside every root, or `undefined` when there is no answer. */
export type Answer<T> = T | null | undefined;

export async function rulesForPath(server: ServerManager, uri: vscode.Uri): Promise<Answer<RulesForPath>> {
  return checked(server, RULES_FOR_PATH, uri, isRulesForPath);
}

export async function suggestGlobs(server: ServerManager, uri: vscode.Uri): Promise<Answer<SuggestGlobs>> {
  return checked(server, SUGGEST_GLOBS, uri, isSuggestGlobs);
}

async function checked<T>(server: ServerManager, method: string, uri: vscode.Uri,
  valid: (value: unknown) => value is T): Promise<Answer<T>> {
  const params: DocumentParams = { uri: uri.toString() };
  const reply = await server.request(method, params);
  if (reply === null || reply === undefined) {
    return reply;
  }
  if (!valid(reply)) {
    server.log.appendLine(`${method}: the server's answer has another shape than this extension expects `
      + `(is the server a different rulelens version?): ${JSON.stringify(reply).slice(0, 500)}`);
    return undefined;
  }
  return reply;
}

/**
 * Whether the answer's project has its rules folder on disk. A root found through `.git` or
 * the workspace folder alone has none: the views then stay quiet instead of saying "0 rules"
 * in every project that does not use rules.
 */
export async function hasRulesFolder(answer: RulesForPath): Promise<boolean> {
  try {
    const stat = await vscode.workspace.fs.stat(vscode.Uri.joinPath(vscode.Uri.parse(answer.rootUri), answer.rulesFolder));
    return (stat.type & vscode.FileType.Directory) !== 0;
  } catch {
    return false;
  }
}
