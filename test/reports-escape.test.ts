// Renderers keep hostile strings inert: a statement, a body or a title from a target that
// contains markup, a script end tag, an attribute breakout, a Markdown link or table pipes.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { createHash } from 'node:crypto';
import { htmlRenderer } from '../reports/render/html.js';
import { markdownRenderer } from '../reports/render/markdown.js';
import { diffReports } from '../reports/diff.js';
import { diffHtml } from '../reports/render/diff-html.js';
import { diffMarkdown } from '../reports/render/diff-markdown.js';
import { SCRIPT } from '../reports/render/html/script.js';
import { STYLES } from '../reports/render/html/styles.js';
import { html } from '../reports/render/html/escape.js';
import { mdCode, mdText } from '../reports/render/md.js';
import { fixtureReport } from '../reports/test/fixture.js';

/** Markdown outside code: code spans and fenced blocks show their content as text. */
function outsideCode(md: string): string {
  return md.replace(/^(`{3,})[^\n]*\n[\s\S]*?\n\1$/gm, '').replace(/(`+)(?!`)[\s\S]*?(?<!`)\1(?!`)/g, '');
}

const HOSTILE = `</script><img src=x onerror=alert(1)>" onmouseover="alert(2)' x='<svg/onload=alert(3)>[click](javascript:alert(4)) | a | b \`code\` <!-- --> &amp;`;

test('html: hostile strings never become markup', () => {
  const page = htmlRenderer.render(fixtureReport({ hostile: HOSTILE }));
  assert.equal((page.match(/<script/g) ?? []).length, 1, 'only the page\'s own script');
  assert.equal((page.match(/<\/script>/g) ?? []).length, 1);
  assert.ok(!page.includes('<img'), 'no injected img');
  assert.ok(!page.includes('<svg/onload'), 'no injected svg');
  assert.ok(!/\sonmouseover="/.test(page), 'no attribute breakout');
  assert.ok(page.includes('&lt;/script&gt;&lt;img src=x onerror=alert(1)&gt;&quot; onmouseover=&quot;alert(2)&#39;'), 'shown as text');
  assert.ok(!page.includes('<!-- -->'), 'no comment injection');
});

test('html: the page allows only its own script and style (CSP by hash), and fetches nothing', () => {
  const page = htmlRenderer.render(fixtureReport());
  const csp = (/<meta http-equiv="Content-Security-Policy" content="([^"]+)">/.exec(page)?.[1] ?? '').replace(/&#39;/g, "'");
  const hash = (s: string) => `'sha256-${createHash('sha256').update(s).digest('base64')}'`;
  assert.ok(csp.includes("default-src 'none'"), csp);
  assert.ok(csp.includes(`script-src ${hash(SCRIPT)}`), 'script hash');
  assert.ok(csp.includes(`style-src ${hash(STYLES)}`), 'style hash');
  assert.ok(page.includes(`<script>${SCRIPT}</script>`) && page.includes(`<style>${STYLES}</style>`), 'the hashed texts are exactly the inline ones');
  assert.ok(!/\s(?:src|href)="(?:https?:)?\/\//.test(page), 'no external resource');
  assert.ok(!/<link\b/.test(page), 'no linked stylesheet');
});

test('html: the escaping template escapes every interpolation, and only them', () => {
  const v = `<b a="1">'&`;
  assert.equal(html`<i title="${v}">${v}</i>`.text, '<i title="&lt;b a=&quot;1&quot;&gt;&#39;&amp;">&lt;b a=&quot;1&quot;&gt;&#39;&amp;</i>');
  assert.equal(html`<p>${html`<b>${v}</b>`}</p>`.text, '<p><b>&lt;b a=&quot;1&quot;&gt;&#39;&amp;</b></p>', 'nested fragments are not escaped twice');
});

test('markdown: hostile strings stay text, tables keep their columns', () => {
  const full = markdownRenderer.render(fixtureReport({ hostile: HOSTILE }));
  const md = outsideCode(full);
  assert.ok(full.includes('<img'), 'the hostile string is there, inside code');
  assert.ok(!md.includes('<img'), 'no raw img');
  assert.ok(!md.includes('<svg'), 'no raw svg');
  assert.ok(!md.includes('](javascript:'), 'no live link');
  assert.ok(!md.includes('<!--'), 'no comment that would hide the rest');
  for (const table of full.split('\n\n').filter((b) => b.startsWith('| '))) {
    const rows = table.split('\n');
    const cells = (row: string) => row.replace(/\\\|/g, '').split('|').length;
    assert.ok(rows.every((r) => cells(r) === cells(rows[0]!)), `every row has the header's columns:\n${table}`);
  }
  assert.equal(mdText('a|b<c>[d](e)'), 'a\\|b&lt;c&gt;\\[d\\]\\(e\\)');
  assert.equal(mdCode('a ` b'), '``a ` b``', 'a fence longer than any run inside');
  assert.equal(mdCode('x|y'), '`x\\|y`');
});

test('diff outputs: hostile strings stay inert in HTML and Markdown', () => {
  const a = fixtureReport({ hostile: HOSTILE });
  const b = { ...a, rules: a.rules.map((r) => ({ ...r, verdict: 'fail' as const })) };
  const d = diffReports(a, b, [HOSTILE, 'b']);
  const page = diffHtml(d);
  assert.ok(!page.includes('<img') && !page.includes('<script'), 'no markup in the diff page');
  const md = outsideCode(diffMarkdown(d));
  assert.ok(!md.includes('<img') && !md.includes('](javascript:'), 'no markup in the diff summary');
});
