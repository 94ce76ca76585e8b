/**
 * Safe HTML by construction: `html\`...\`` escapes every interpolated value unless it is
 * already `Html` (built the same way). Hostile strings from a target (a statement, a body,
 * a header) therefore always land as text, never as markup.
 */
export class Html {
  constructor(readonly text: string) {}
  toString(): string {
    return this.text;
  }
}

export type Part = Html | string | number | null | undefined | false | readonly Part[];

const ENTITIES: Record<string, string> = { '&': '&amp;', '<': '&lt;', '>': '&gt;', '"': '&quot;', "'": '&#39;' };

/** Escapes text for element content and quoted attribute values alike. */
export const esc = (s: string): string => s.replace(/[&<>"']/g, (c) => ENTITIES[c]!);

function render(v: Part): string {
  if (v === null || v === undefined || v === false) return '';
  if (v instanceof Html) return v.text;
  if (Array.isArray(v)) return v.map(render).join('');
  return esc(String(v));
}

/** Tagged template: literal parts are trusted markup, interpolations are escaped. */
export function html(strings: TemplateStringsArray, ...values: Part[]): Html {
  let out = strings[0]!;
  values.forEach((v, i) => {
    out += render(v) + strings[i + 1]!;
  });
  return new Html(out);
}

/** Joins fragments without a separator. */
export const join = (parts: readonly Part[]): Html => new Html(render(parts));
