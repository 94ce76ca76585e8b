import { createHash } from 'node:crypto';
import { Html, html } from './escape.js';

const sha256 = (text: string): string => `'sha256-${createHash('sha256').update(text, 'utf8').digest('base64')}'`;

/**
 * A whole page that may run exactly its own script and style (by hash) and fetch nothing at
 * all: it opens from disk, works offline, and an injected `<script>` or `onerror=` would stay
 * inert even if escaping ever failed. Without a script, none may run.
 */
export function page(o: { title: string; styles: string; script?: string; body: Html }): string {
  const csp = `default-src 'none';${o.script ? ` script-src ${sha256(o.script)};` : ''} style-src ${sha256(o.styles)}; img-src data:; base-uri 'none'; form-action 'none'`;
  return html`<!doctype html>
<html lang="en">
<head>
<meta charset="utf-8">
<meta http-equiv="Content-Security-Policy" content="${csp}">
<meta name="viewport" content="width=device-width, initial-scale=1">
<meta name="referrer" content="no-referrer">
<title>${o.title}</title>
<style>${new Html(o.styles)}</style>
</head>
<body>
${o.body}
${o.script ? html`<script>${new Html(o.script)}</script>\n` : ''}</body>
</html>
`.text;
}
