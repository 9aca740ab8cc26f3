/** The rules that apply to a document, read from the server's `rules-apply` diagnostic. */
import * as fs from 'fs';
import * as vscode from 'vscode';
import { AppliedRule, rulesFromRelated } from './rules';

const SOURCE = 'rulelens';
const CODE = 'rules-apply';

/** undefined when the server has said nothing about the document (no root, not open yet). */
export function appliedRules(uri: vscode.Uri): AppliedRule[] {
  const diagnostic = vscode.languages.getDiagnostics(uri).find((d) => d.source === SOURCE && codeOf(d) === CODE);
  if (diagnostic === undefined) {
    return [];
  }
  return rulesFromRelated((diagnostic.relatedInformation ?? []).map((r) => ({
    message: r.message,
    uri: r.location.uri.toString(),
    line: r.location.range.start.line,
  })), readLine);
}

function codeOf(d: vscode.Diagnostic): string | number | undefined {
  return typeof d.code === 'object' ? d.code.value : d.code;
}

/** A line of a rule file: from the open document when there is one (what the person sees), else disk. */
function readLine(uriText: string, line: number): string | undefined {
  const uri = vscode.Uri.parse(uriText);
  const open = vscode.workspace.textDocuments.find((d) => d.uri.toString() === uri.toString());
  if (open !== undefined) {
    return line < open.lineCount ? open.lineAt(line).text : undefined;
  }
  if (uri.scheme !== 'file') {
    return undefined;
  }
  try {
    return fs.readFileSync(uri.fsPath, 'utf8').split('\n')[line];
  } catch {
    return undefined;
  }
}
