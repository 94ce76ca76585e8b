import type { ConformanceReport } from '../model.js';
import { resultLabel } from './labels.js';
import type { Renderer } from './renderer.js';
import { html } from './html/escape.js';
import { page } from './html/page.js';
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
import { changesSection } from './html/sections/changes.js';
import { costSection } from './html/sections/cost.js';

const TOC: [string, string][] = [
  ['totals', 'Totals'], ['baseline', 'Baseline'], ['cost', 'Cost'], ['matrix', 'Rule matrix'], ['observed', 'Observed'], ['property', 'Property tests'],
  ['load', 'Load'], ['detection', 'Detection'], ['mutation', 'Mutation'], ['untested', 'Rules without tests'], ['tests', 'Tests'],
];

/** A single self-contained HTML file: inline CSS, JS and SVG, no network access. */
export const htmlRenderer: Renderer = {
  format: 'html',
  fileName: 'report.html',
  render(report: ConformanceReport) {
    const sections = [
      totalsSection(report), baselineSection(report), costSection(report), matrixSection(report), observedSection(report),
      propertySection(report), loadSection(report), detectionSection(report), mutationSection(report), untestedSection(report), testsSection(report),
    ];
    const present = TOC.filter(([id]) => sections.some((s) => s.text.includes(`<section id="${id}"`)));
    return page({
      title: `${resultLabel(report)} · Compute Platform API conformance`, styles: STYLES, script: SCRIPT,
      body: html`${headerSection(report)}
${bannerSection(report)}
${changesSection(report)}
<nav class="toc">${present.map(([id, label]) => html`<a href="#${id}">${label}</a>`)}</nav>
${sections}`,
    });
  },
};
