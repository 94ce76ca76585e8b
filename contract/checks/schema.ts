import { formatIssues, validate, type SchemaName } from '../../lib/schema-registry.js';
import type { Finding } from '../support/rules.js';

/** The value conforms to the named JSON Schema from `schemas/`. */
export function schemaConformance(rule: string, schema: SchemaName, value: unknown): Finding[] {
  const result = validate(schema, value);
  if (result.valid) return [];
  return [{ rule, message: `does not conform to ${schema}:\n${formatIssues(result.issues)}` }];
}
