import type { ApiResult } from '../../../../lib/client/api.js';
import { formatIssues, validate } from '../../../../lib/schema-registry.js';
import { errorSummary, GQL_RULES } from '../../../checks/graphql-conformance.js';
import type { Finding } from '../../../support/rules.js';

/**
 * Answers to a document of several mutation fields (documents.ts `doc.mutation`), read field by
 * field: GraphQL answers each field under its alias in `data`, and an error of one field names
 * it first in its `path`. A field is held to what graphqlConformance holds a one-field document
 * to (spec, GraphQL: "Results are returned as `{data: {<operation>: <result>}}`", under the
 * alias when the document gives one), but only the errors of its own path count against it: a
 * refusal of the whole request (a non-2xx status, an error without a path) counts against every field.
 */

export interface FieldCheck {
  /** The alias the document gives the field (or the operation's name, written without alias). */
  alias: string;
  /** The rule that says this field succeeds. */
  rule: string;
}

interface GqlBody { data?: Record<string, unknown> | null; errors?: { message?: unknown; path?: unknown }[] }

export interface FieldsAnswer {
  /** Findings about the answer as a whole (its shape): every field's, reported once. */
  shape: Finding[];
  /** Each field's findings (its rule) and its result, `data.<alias>`. */
  fields: Record<string, { findings: Finding[]; value: unknown }>;
}

export function fieldsConformance(res: ApiResult, checks: readonly FieldCheck[]): FieldsAnswer {
  const body = typeof res.body === 'object' && res.body !== null && !Array.isArray(res.body) ? res.body as GqlBody : undefined;
  const fields: FieldsAnswer['fields'] = {};
  const shape: Finding[] = [];
  if (res.status < 200 || res.status >= 300) {
    for (const c of checks) fields[c.alias] = { findings: [{ rule: c.rule, message: `${c.alias} → ${res.status}: the request was refused: ${errorSummary(res)}` }], value: undefined };
    return { shape, fields };
  }
  if (!body) {
    shape.push({ rule: GQL_RULES.shape, message: `${res.status}: the body is not a JSON object (${res.contentType || 'no content type'}): ${res.text.slice(0, 200)}` });
    for (const c of checks) fields[c.alias] = { findings: [], value: undefined };
    return { shape, fields };
  }
  const valid = validate('graphql-response', body);
  if (!valid.valid) shape.push({ rule: GQL_RULES.shape, message: `${res.status}: not a GraphQL response:\n${formatIssues(valid.issues)}` });
  const errors = Array.isArray(body.errors) ? body.errors : [];
  const data = body.data;
  for (const c of checks) {
    const own = errors.filter((e) => !Array.isArray(e?.path) || e.path[0] === c.alias);
    const findings: Finding[] = own.length > 0
      ? [{ rule: c.rule, message: `${c.alias} → ${res.status}: the operation failed: ${own.map((e) => String(e?.message)).join(' | ').slice(0, 300)}` }]
      : [];
    if (typeof data !== 'object' || data === null || !Object.hasOwn(data, c.alias)) {
      shape.push({ rule: GQL_RULES.shape, message: `${res.status}: the result of ${c.alias} is not under data.${c.alias}: ${res.text.slice(0, 200)}` });
      fields[c.alias] = { findings, value: undefined };
    } else fields[c.alias] = { findings, value: data[c.alias] };
  }
  return { shape, fields };
}
