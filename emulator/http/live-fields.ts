import { schemaOf, validate, type SchemaName, type ValidationIssue } from '../../lib/schema-registry.js';

/**
 * The live platform's request fields beyond a spec schema (platform-notes): a schema of their
 * own (`schemas/*-live-fields.schema.json`) whose top-level properties, and the properties of
 * an object property (`gpu`), name what the emulator accepts besides the spec's fields.
 */
export interface LiveFields {
  schema: SchemaName;
  /** JSON pointers of the live names: `/templateId`, `/gpu/minCudaVersion`. */
  pointers: ReadonlySet<string>;
}

export function liveFields(schema: SchemaName): LiveFields {
  const props = (schemaOf(schema).properties ?? {}) as Record<string, { properties?: Record<string, unknown> }>;
  return {
    schema,
    pointers: new Set(Object.entries(props).flatMap(([key, sub]) =>
      sub.properties ? Object.keys(sub.properties).map((inner) => `/${key}/${inner}`) : [`/${key}`])),
  };
}

/**
 * The issues of a body once its live names are no longer unknown: their "unknown property"
 * issues give way to the live schema's own issues about their values. Only a body the spec's
 * schema refuses can carry a live name, so a body without them costs nothing more.
 */
export function withLiveFields(live: LiveFields, body: unknown, issues: readonly ValidationIssue[]): readonly ValidationIssue[] {
  const kept = issues.filter((i) => !((i.keyword === 'additionalProperties' || i.keyword === 'unevaluatedProperties') && live.pointers.has(i.path)));
  if (kept.length === issues.length) return issues;
  const result = validate(live.schema, body);
  return result.valid ? kept : [...kept, ...result.issues];
}
