/**
 * Glob choices for "Record Rule for Current File", as SPEC §7 lists them: the file itself, its
 * folder (`dir/**`) and its kind in that folder (`dir/*.ext`). Pure, so it is unit tested.
 */
import * as path from 'path';

export interface GlobChoice {
  glob: string;
  label: string;
  detail: string;
}

/** Choices for a root-relative POSIX path such as `app/Models/Invoice.php`. */
export function globChoices(rel: string): GlobChoice[] {
  const clean = rel.replace(/\\/g, '/').replace(/^\.?\//, '');
  if (clean === '') {
    return [];
  }
  const dir = path.posix.dirname(clean);
  const base = path.posix.basename(clean);
  const ext = extensionOf(base);
  const out: GlobChoice[] = [{ glob: clean, label: clean, detail: 'This file only' }];
  if (dir !== '.') {
    if (ext !== '') {
      out.push({ glob: `${dir}/*${ext}`, label: `${dir}/*${ext}`, detail: `The ${ext} files directly in ${dir}/` });
    }
    out.push({ glob: `${dir}/**`, label: `${dir}/**`, detail: `Everything below ${dir}/` });
  } else if (ext !== '') {
    out.push({ glob: `*${ext}`, label: `*${ext}`, detail: `Every ${ext} file in the project` });
  }
  return dedupe(out);
}

/** Merge the server's suggestions (first, they know the rules) with the client's own. */
export function mergeChoices(server: readonly string[], local: readonly GlobChoice[]): GlobChoice[] {
  const out: GlobChoice[] = server.map((glob) => {
    const own = local.find((c) => c.glob === glob);
    return own ?? { glob, label: glob, detail: 'Suggested by the rulelens server' };
  });
  return dedupe([...out, ...local]);
}

function extensionOf(base: string): string {
  const dot = base.lastIndexOf('.');
  return dot > 0 ? base.slice(dot) : '';
}

function dedupe(choices: GlobChoice[]): GlobChoice[] {
  const seen = new Set<string>();
  return choices.filter((c) => (seen.has(c.glob) ? false : (seen.add(c.glob), true)));
}

/** The project root of a file: the nearest folder with the rules folder, within the workspace folder. */
export function projectRoot(
  filePath: string,
  workspaceFolder: string,
  rulesFolder: string,
  exists: (p: string) => boolean,
): string {
  const top = path.resolve(workspaceFolder);
  let dir = path.dirname(path.resolve(filePath));
  for (;;) {
    if (exists(path.join(dir, rulesFolder))) {
      return dir;
    }
    if (dir === top || !isInside(dir, top)) {
      break;
    }
    const parent = path.dirname(dir);
    if (parent === dir) {
      break;
    }
    dir = parent;
  }
  // The workspace folder may itself sit below the project root (SPEC §1: nearest ancestor).
  let up = top;
  for (;;) {
    if (exists(path.join(up, rulesFolder))) {
      return up;
    }
    const parent = path.dirname(up);
    if (parent === up) {
      return top;
    }
    up = parent;
  }
}

/** `file` relative to `root` with `/` separators, or undefined when it is outside. */
export function relativeTo(root: string, file: string): string | undefined {
  const rel = path.relative(root, file);
  if (rel === '' || rel.startsWith('..') || path.isAbsolute(rel)) {
    return undefined;
  }
  return rel.split(path.sep).join('/');
}

function isInside(dir: string, top: string): boolean {
  const rel = path.relative(top, dir);
  return rel === '' || (!rel.startsWith('..') && !path.isAbsolute(rel));
}
