import { mkdirSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import type { ConformanceReport } from './model.js';
import type { Renderer } from './render/renderer.js';
import { jsonRenderer } from './render/json.js';
import { junitRenderer } from './render/junit.js';
import { htmlRenderer } from './render/html.js';
import { markdownRenderer } from './render/markdown.js';
import { harvestValue, redactText, redactValue } from '../lib/redact.js';

/** Every format the suite writes, behind one interface. */
export const renderers: readonly Renderer[] = [jsonRenderer, junitRenderer, htmlRenderer, markdownRenderer];

/**
 * Renders every format into `dir`. The model is scrubbed of keys before rendering, and each
 * file's text once more after (a renderer may join strings into a new credential-shaped line).
 */
export function writeReports(report: ConformanceReport, dir: string, formats: readonly Renderer[] = renderers): string[] {
  mkdirSync(dir, { recursive: true });
  const keys = harvestValue(report);
  const clean = redactValue(report, keys);
  return formats.map((r) => {
    const path = join(dir, r.fileName);
    writeFileSync(path, redactText(r.render(clean), keys));
    return path;
  });
}

/** Writes one text file into `dir`, scrubbed like the reports. */
export function writeScrubbed(dir: string, fileName: string, text: string): string {
  mkdirSync(dir, { recursive: true });
  const path = join(dir, fileName);
  writeFileSync(path, redactText(text, harvestValue(text)));
  return path;
}
