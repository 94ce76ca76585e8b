/**
 * Validation of the report's own documents with strict Ajv (draft 2020-12): the report
 * (`report.schema.json`), a load summary (its `$defs/loadSummary`) and a baseline file
 * (`baseline.schema.json`). Schemas compile once, on first use.
 */
import { readFileSync } from 'node:fs';
import Ajv2020Import from 'ajv/dist/2020.js';
import type { ErrorObject, ValidateFunction } from 'ajv';
import addFormatsImport from 'ajv-formats';

type Ajv2020Class = typeof Ajv2020Import.default;
type AddFormats = typeof addFormatsImport.default;
// ajv and ajv-formats are CommonJS modules whose `module.exports` also carries a `default`.
const Ajv2020: Ajv2020Class = (Ajv2020Import as unknown as { default?: Ajv2020Class }).default ?? (Ajv2020Import as unknown as Ajv2020Class);
const addFormats: AddFormats = (addFormatsImport as unknown as { default?: AddFormats }).default ?? (addFormatsImport as unknown as AddFormats);

export const REPORT_SCHEMA_URL = new URL('./report.schema.json', import.meta.url);
export const BASELINE_SCHEMA_URL = new URL('./baseline.schema.json', import.meta.url);

export type Check = { valid: true } | { valid: false; issues: string[] };

let compiled: { report: ValidateFunction; load: ValidateFunction; baseline: ValidateFunction } | undefined;

function validators(): NonNullable<typeof compiled> {
  if (compiled) return compiled;
  const ajv = new Ajv2020({ strict: true, allErrors: true, allowUnionTypes: true });
  addFormats(ajv);
  const report = JSON.parse(readFileSync(REPORT_SCHEMA_URL, 'utf8')) as { $id: string };
  const baseline = JSON.parse(readFileSync(BASELINE_SCHEMA_URL, 'utf8')) as object;
  ajv.addSchema(report);
  compiled = {
    report: ajv.getSchema(report.$id)!,
    load: ajv.getSchema(`${report.$id}#/$defs/loadSummary`)!,
    baseline: ajv.compile(baseline),
  };
  return compiled;
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
