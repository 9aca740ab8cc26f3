/**
 * The rules that apply to a file, in one shape for the status bar and "Show Rules".
 * They come from the server's `rulelens/rulesForPath` request when it has one, and otherwise
 * from the related information of the server's `rules-apply` diagnostic. Pure: unit tested.
 */

export interface AppliedEntry {
  title: string;
  /** 0-based line of the `## ` heading. */
  line: number;
}

export interface AppliedRule {
  /** URI of the rule file. */
  uri: string;
  /** The `# ` heading or file name, for display. */
  name: string;
  /** The file's globs that matched, when known. */
  globs: string[];
  /** 0-based line of the `# ` heading (or 0). */
  line: number;
  entries: AppliedEntry[];
}

/** A related-information item, reduced to what matters here. */
export interface RelatedItem {
  message: string;
  uri: string;
  line: number;
}

const APPLIES = / applies through (.*)$/;
const SEPARATORS = [' › ', ': '];

/** Reads one line of a rule file (0-based), to take titles from the file rather than prose. */
export type LineReader = (uri: string, line: number) => string | undefined;

/**
 * Rebuild the rules from the diagnostic's related information: the server writes one item
 * per rule file (`<rel> applies through <globs>`, at its `# ` heading) followed by one per
 * entry (at its `## ` heading). Titles come from those heading lines when they can be read,
 * else from the item's message.
 */
export function rulesFromRelated(items: readonly RelatedItem[], readLine: LineReader = () => undefined): AppliedRule[] {
  const out: AppliedRule[] = [];
  for (const item of items) {
    const applies = APPLIES.exec(item.message);
    if (applies) {
      const rel = item.message.slice(0, applies.index);
      const heading = headingText(readLine(item.uri, item.line), '# ');
      out.push({
        uri: item.uri,
        name: heading ?? rel,
        globs: applies[1].split(', ').filter((g) => g !== ''),
        line: item.line,
        entries: [],
      });
      continue;
    }
    let rule = out.length > 0 && out[out.length - 1].uri === item.uri ? out[out.length - 1] : undefined;
    if (rule === undefined) {
      rule = { uri: item.uri, name: item.uri.split('/').pop() ?? item.uri, globs: [], line: 0, entries: [] };
      out.push(rule);
    }
    const title = headingText(readLine(item.uri, item.line), '## ') ?? titleFromMessage(item.message, rule.name);
    rule.entries.push({ title, line: item.line });
  }
  return out;
}

function headingText(line: string | undefined, marker: string): string | undefined {
  if (line === undefined) {
    return undefined;
  }
  const text = line.replace(/^\uFEFF/, '').replace(/\r$/, '');
  return text.startsWith(marker) ? text.slice(marker.length).trim() : undefined;
}

/** `<name> › <title>` or `<name>: <title>`; the name is known, so a `:` in the title is safe. */
function titleFromMessage(message: string, name: string): string {
  for (const sep of SEPARATORS) {
    if (message.startsWith(name + sep)) {
      return message.slice(name.length + sep.length);
    }
  }
  for (const sep of SEPARATORS) {
    const cut = message.indexOf(sep);
    if (cut >= 0) {
      return message.slice(cut + sep.length);
    }
  }
  return message;
}

/** The JSON of `rulelens match --json` for one path (1-based lines), as a server reply. */
export interface MatchJson {
  rules: Array<{
    file: string;
    title: string | null;
    globs: string[];
    uri?: string;
    line?: number;
    entries: Array<{ title: string; line: number }>;
  }>;
}

/** Rules from a `rulelens/rulesForPath` reply shaped like `match --json`. */
export function rulesFromMatch(reply: MatchJson, rootUri: string): AppliedRule[] {
  const base = rootUri.endsWith('/') ? rootUri : `${rootUri}/`;
  return reply.rules.map((r) => ({
    uri: r.uri ?? base + r.file.split('/').map(encodeURIComponent).join('/'),
    name: r.title ?? r.file,
    globs: [...r.globs],
    line: Math.max(0, (r.line ?? 1) - 1),
    entries: r.entries.map((e) => ({ title: e.title, line: Math.max(0, e.line - 1) })),
  }));
}

export function entryCount(rules: readonly AppliedRule[]): number {
  return rules.reduce((n, r) => n + r.entries.length, 0);
}

/** The status bar text: the number of rule entries that apply to the active file. */
export function statusText(rules: readonly AppliedRule[] | undefined): string {
  if (rules === undefined) {
    return '$(book) rulelens';
  }
  const n = entryCount(rules);
  return `$(book) ${n} ${n === 1 ? 'rule' : 'rules'}`;
}

/** The status bar tooltip: which rule files, through which globs. */
export function statusTooltip(rules: readonly AppliedRule[] | undefined): string {
  if (rules === undefined) {
    return 'rulelens: no project rules for this file';
  }
  if (rules.length === 0) {
    return 'rulelens: no project rule applies to this file. Click to see or record one.';
  }
  const lines = rules.map((r) => {
    const globs = r.globs.length > 0 ? ` (${r.globs.join(', ')})` : '';
    return `${r.name}${globs}: ${r.entries.length} ${r.entries.length === 1 ? 'entry' : 'entries'}`;
  });
  return ['rulelens: project rules for this file', ...lines, 'Click to show them.'].join('\n');
}
