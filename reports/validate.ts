/**
 * Validation of the report's own documents with strict Ajv (draft 2020-12): the report
 * (`report.schema.json`), a load summary (its `$defs/loadSummary`) and a baseline file
 * (`baseline.schema.json`). `cpc` checks its report once the suites have ended, so these come
 * compiled ahead of time (`reports/validators.gen.cjs`, lib/precompiled.ts), used while they
 * match the schema files; otherwise they compile once, on first use.
 */
import { readFileSync } from 'node:fs';
import { basename } from 'node:path';
import { fileURLToPath } from 'node:url';
import type { ErrorObject, ValidateFunction } from 'ajv';
import { createAjv, loadPrecompiled, schemasDigest, type Ajv2020Instance, type SchemaSource } from '../lib/precompiled.js';

export const REPORT_SCHEMA_URL = new URL('./report.schema.json', import.meta.url);
export const BASELINE_SCHEMA_URL = new URL('./baseline.schema.json', import.meta.url);
export const PRECOMPILED_REPORT_FILE = new URL('./validators.gen.cjs', import.meta.url);

/** The options the report's schemas compile with, here and ahead of time (scripts/gen-validators.ts). */
export const REPORT_AJV_OPTIONS = { strict: true, allErrors: true, allowUnionTypes: true } as const;

export type Check = { valid: true } | { valid: false; issues: string[] };

const NAMES = ['report', 'load', 'baseline'] as const;
type Name = (typeof NAMES)[number];

/** The report's schema files as read, in a fixed order. */
export function reportSchemaSources(): SchemaSource[] {
  return [REPORT_SCHEMA_URL, BASELINE_SCHEMA_URL].map((url) => ({ file: basename(fileURLToPath(url)), text: readFileSync(url, 'utf8') }));
}

/** An Ajv holding the report's schemas, and the id of each validator by name (what the generator compiles). */
export function reportAjv(extra: Parameters<typeof createAjv>[0] = {}, sources: readonly SchemaSource[] = reportSchemaSources()): { ajv: Ajv2020Instance; refs: Record<Name, string> } {
  const ajv = createAjv({ ...REPORT_AJV_OPTIONS, ...extra });
  const [report, baseline] = sources.map((s) => JSON.parse(s.text) as { $id: string });
  ajv.addSchema(report!);
  ajv.addSchema(baseline!);
  return { ajv, refs: { report: report!.$id, load: `${report!.$id}#/$defs/loadSummary`, baseline: baseline!.$id } };
}

let compiled: Record<Name, ValidateFunction> | undefined;

function validators(): Record<Name, ValidateFunction> {
  if (compiled) return compiled;
  const sources = reportSchemaSources();
  const ahead = loadPrecompiled(PRECOMPILED_REPORT_FILE, schemasDigest(sources));
  // Compiled now only for what has no precompiled validator (the schema files changed since `npm run gen`).
  let now: ReturnType<typeof reportAjv> | undefined;
  const validator = (name: Name): ValidateFunction => ahead.get(name) ?? (now ??= reportAjv({}, sources)).ajv.getSchema(now.refs[name])!;
  compiled = { report: validator('report'), load: validator('load'), baseline: validator('baseline') };
  return compiled;
}

/** Whether the report's validators are the ones compiled ahead of time (they match the schema files on disk). */
export function usesPrecompiledReportValidators(): boolean {
  const ahead = loadPrecompiled(PRECOMPILED_REPORT_FILE, schemasDigest(reportSchemaSources()));
  return NAMES.every((name) => ahead.has(name));
}

const issuesOf = (errors: readonly ErrorObject[] | null | undefined): string[] =>
  (errors ?? []).map((e) => `${e.instancePath || '/'}: ${e.message ?? e.keyword}${e.keyword === 'additionalProperties' ? ` (${String((e.params as { additionalProperty?: string }).additionalProperty)})` : ''}`);

function check(fn: ValidateFunction, data: unknown): Check {
  return fn(data) ? { valid: true } : { valid: false, issues: issuesOf(fn.errors) };
}

/** Checks a report against `report.schema.json`. */
export const validateReport = (data: unknown): Check => check(validators().report, data);
/** Checks one load summary (after unknown fields were dropped). */
export const validateLoadSummary = (data: unknown): Check => check(validators().load, data);
/** Checks a baseline file against `baseline.schema.json`. */
export const validateBaseline = (data: unknown): Check => check(validators().baseline, data);
