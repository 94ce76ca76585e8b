import { createHash } from 'node:crypto';
import type { ConformanceReport } from '../model.js';
import { resultLabel } from './labels.js';
import type { Renderer } from './renderer.js';
import { Html, html } from './html/escape.js';
import { STYLES } from './html/styles.js';
import { SCRIPT } from './html/script.js';
import { bannerSection, headerSection } from './html/sections/header.js';
import { totalsSection } from './html/sections/totals.js';
import { baselineSection } from './html/sections/baseline.js';
import { matrixSection } from './html/sections/matrix.js';
import { observedSection } from './html/sections/observed.js';
import { propertySection } from './html/sections/property.js';
import { loadSection } from './html/sections/load.js';
import { untestedSection } from './html/sections/untested.js';
import { testsSection } from './html/sections/tests.js';
import { detectionSection } from './html/sections/detection.js';
import { mutationSection } from './html/sections/mutation.js';

const sha256 = (text: string): string => `'sha256-${createHash('sha256').update(text, 'utf8').digest('base64')}'`;

/**
 * The page may run exactly its own script and style (by hash) and fetch nothing at all: it
 * opens from disk, works offline, and an injected `<script>` or `onerror=` would stay inert
 * even if escaping ever failed.
 */
const CSP = `default-src 'none'; script-src ${sha256(SCRIPT)}; style-src ${sha256(STYLES)}; img-src data:; base-uri 'none'; form-action 'none'`;

const TOC: [string, string][] = [
  ['totals', 'Totals'], ['baseline', 'Baseline'], ['matrix', 'Rule matrix'], ['observed', 'Observed'], ['property', 'Property tests'],
  ['load', 'Load'], ['detection', 'Detection'], ['mutation', 'Mutation'], ['untested', 'Rules without tests'], ['tests', 'Tests'],
];

/** A single self-contained HTML file: inline CSS, JS and SVG, no network access. */
export const htmlRenderer: Renderer = {
  format: 'html',
  fileName: 'report.html',
  render(report: ConformanceReport) {
    const sections = [
      totalsSection(report), baselineSection(report), matrixSection(report), observedSection(report),
      propertySection(report), loadSection(report), detectionSection(report), mutationSection(report), untestedSection(report), testsSection(report),
    ];
    const present = TOC.filter(([id]) => sections.some((s) => s.text.includes(`<section id="${id}"`)));
    return html`<!doctype html>
<html lang="en">
<head>
<meta charset="utf-8">
<meta http-equiv="Content-Security-Policy" content="${CSP}">
<meta name="viewport" content="width=device-width, initial-scale=1">
<meta name="referrer" content="no-referrer">
<title>${resultLabel(report)} · Compute Platform API conformance</title>
<style>${new Html(STYLES)}</style>
</head>
<body>
${headerSection(report)}
${bannerSection(report)}
<nav class="toc">${present.map(([id, label]) => html`<a href="#${id}">${label}</a>`)}</nav>
${sections}
<script>${new Html(SCRIPT)}</script>
</body>
</html>
`.text;
  },
};
