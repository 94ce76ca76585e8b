import { existsSync, readFileSync } from 'node:fs';
import { ConfigError } from '../../lib/errors.js';
import type { ConformanceReport } from '../../reports/model.js';
import { REPORT_SCHEMA_VERSION } from '../../reports/model.js';
import { validateReport } from '../../reports/validate.js';

/**
 * Reads a saved `conformance.json`: it must exist, be JSON, have this suite's major schema
 * version and validate against `reports/report.schema.json`. Anything else is a
 * configuration error (exit 2) naming the file and the first problems.
 */
export function loadReport(path: string): ConformanceReport {
  if (!existsSync(path)) throw new ConfigError(`report not found: ${path}`);
  let doc: unknown;
  try {
    doc = JSON.parse(readFileSync(path, 'utf8'));
  } catch (e) {
    throw new ConfigError(`${path} is not JSON: ${(e as Error).message}`);
  }
  const version = (doc as { schemaVersion?: unknown } | null)?.schemaVersion;
  const major = REPORT_SCHEMA_VERSION.split('.')[0];
  if (typeof version !== 'string' || version.split('.')[0] !== major) throw new ConfigError(`${path} has report schema version ${String(version)}; this suite reads ${major}.x`);
  const check = validateReport(doc);
  if (!check.valid) throw new ConfigError(`${path} is not a valid report: ${check.issues.slice(0, 5).join('; ')}`);
  return doc as ConformanceReport;
}
