/**
 * Markdown that stays text: GitHub renders inline HTML and links in Markdown, so every
 * string from a target is escaped before it lands in a summary.
 */

/** Text for a paragraph or a table cell: one line, markup characters escaped. */
export function mdText(s: string, max = 400): string {
  const one = s.replace(/\s+/g, ' ').trim();
  const clipped = one.length > max ? `${one.slice(0, max)}…` : one;
  return clipped
    .replace(/&/g, '&amp;').replace(/</g, '&lt;').replace(/>/g, '&gt;')
    .replace(/([\\`*_[\]|~#!()])/g, '\\$1');
}

/** An inline code span that its content cannot close (one line; `|` escaped for table cells). */
export function mdCode(s: string, max = 300): string {
  const one = s.replace(/\s+/g, ' ').trim().replace(/\|/g, '\\|');
  const clipped = one.length > max ? `${one.slice(0, max)}…` : one;
  const longest = Math.max(0, ...(clipped.match(/`+/g) ?? []).map((r) => r.length));
  const fence = '`'.repeat(longest + 1);
  const pad = clipped.startsWith('`') || clipped.endsWith('`') || clipped === '' ? ' ' : '';
  return `${fence}${pad}${clipped}${pad}${fence}`;
}

/** A fenced block that its content cannot close. */
export function mdBlock(s: string, lang = '', max = 4000): string {
  const clipped = s.length > max ? `${s.slice(0, max)}\n… (${s.length - max} more characters)` : s;
  const longest = Math.max(2, ...(clipped.match(/`+/g) ?? []).map((r) => r.length));
  const fence = '`'.repeat(longest + 1);
  return `${fence}${lang}\n${clipped}\n${fence}`;
}

/** A table from a header row and rows of already-escaped cells. */
export function mdTable(header: readonly string[], rows: readonly (readonly string[])[], align?: readonly ('l' | 'r')[]): string {
  const sep = header.map((_, i) => (align?.[i] === 'r' ? '---:' : '---'));
  return [header, sep, ...rows].map((r) => `| ${r.join(' | ')} |`).join('\n');
}

/** The first `limit` items and a line saying how many were left out. */
export function capped<T>(items: readonly T[], limit: number): { shown: readonly T[]; more: string } {
  return { shown: items.slice(0, limit), more: items.length > limit ? `\n\n…and ${items.length - limit} more (see report.html).` : '' };
}

/** Text inside an HTML element of a Markdown document (`<summary>`): entities only. */
export const htmlText = (s: string, max = 200): string => {
  const one = s.replace(/\s+/g, ' ').trim();
  return (one.length > max ? `${one.slice(0, max)}…` : one).replace(/&/g, '&amp;').replace(/</g, '&lt;').replace(/>/g, '&gt;').replace(/"/g, '&quot;');
};
