/** Asking the person for a rule: glob (quick pick of the server's suggestions), then title and note. */
import * as vscode from 'vscode';
import { GlobSuggestion } from './protocol';

const OTHER = 'Another glob…';

export async function pickGlob(suggested: readonly GlobSuggestion[], fileLabel: string): Promise<string | undefined> {
  const items: Array<vscode.QuickPickItem & { glob?: string }> = suggested.map((s) => ({
    label: s.glob, detail: matchesText(s.count), glob: s.glob,
  }));
  items.push({ label: OTHER, detail: 'Type a glob relative to the project root' });
  const picked = await vscode.window.showQuickPick(items, {
    title: `Record a project rule for ${fileLabel}`,
    placeHolder: 'Which files should the rule apply to?',
    ignoreFocusOut: true,
  });
  if (picked === undefined) {
    return undefined;
  }
  if (picked.glob !== undefined) {
    return picked.glob;
  }
  return vscode.window.showInputBox({
    title: 'Record a project rule: glob',
    prompt: 'A glob relative to the project root, for example app/Models/** or routes/*.php',
    value: suggested[0]?.glob ?? fileLabel,
    ignoreFocusOut: true,
    validateInput: (v) => (v.trim() === '' ? 'A rule needs a glob.' : undefined),
  });
}

function matchesText(count: number): string {
  return `Matches ${count} ${count === 1 ? 'file' : 'files'} of the project`;
}

/** Title, then note; undefined when the person cancels either. */
export async function askTitleAndNote(glob: string): Promise<{ title: string; note: string } | undefined> {
  const title = await vscode.window.showInputBox({
    title: `Record a project rule for ${glob}: title`,
    prompt: 'A short title, shown as the ## heading of the entry',
    ignoreFocusOut: true,
    validateInput: (v) => (v.trim() === '' ? 'A rule needs a title.' : undefined),
  });
  if (title === undefined) {
    return undefined;
  }
  const note = await vscode.window.showInputBox({
    title: `Record a project rule for ${glob}: note`,
    prompt: 'What agents (and people) should know when they edit these files',
    ignoreFocusOut: true,
    validateInput: (v) => (v.trim() === '' ? 'A rule needs a note.' : undefined),
  });
  if (note === undefined) {
    return undefined;
  }
  return { title, note };
}
