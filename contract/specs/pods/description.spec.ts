import type { OpenAPIV3_1 } from 'openapi-types';
import { test } from './support/fixtures.js';
import { conform, must, rules } from '../../support/rules.js';
import type { ApiClient } from '../../../lib/client/api.js';
import { isSuccess } from '../../checks/status.js';

type Schema = OpenAPIV3_1.SchemaObject | OpenAPIV3_1.ReferenceObject;

/** Where targets commonly publish their interface description; the first JSON answer wins. */
const CANDIDATES = ['/v2/openapi.json', '/openapi.json', '/v2/docs/openapi.json'];

async function findDescription(api: ApiClient): Promise<{ path: string; doc: OpenAPIV3_1.Document } | undefined> {
  for (const path of CANDIDATES) {
    const res = await api.call('rest-v2', 'GET', path);
    if (isSuccess(res) && res.body !== null && typeof res.body === 'object') return { path, doc: res.body as OpenAPIV3_1.Document };
  }
  return undefined;
}

const isObject = (v: unknown): v is Record<string, unknown> => v !== null && typeof v === 'object' && !Array.isArray(v);

/** Every Mounts schema in the document: objects whose properties define `persistent` and `network` as schemas (not `true`). */
function mountsSchemas(node: unknown, found: Record<string, Schema>[] = []): Record<string, Schema>[] {
  if (Array.isArray(node)) node.forEach((n) => mountsSchemas(n, found));
  else if (isObject(node)) {
    const props = (node as OpenAPIV3_1.SchemaObject).properties;
    if (isObject(props) && isObject(props.persistent) && isObject(props.network)) found.push(props);
    Object.values(node).forEach((n) => mountsSchemas(n, found));
  }
  return found;
}

/**
 * The schema a local reference (`#/components/schemas/PersistentMount`) points to, by its JSON
 * Pointer within the document; undefined for an external or broken one.
 */
function target(doc: OpenAPIV3_1.Document, ref: string): Schema | undefined {
  if (!ref.startsWith('#/')) return undefined;
  let node: unknown = doc;
  for (const token of ref.slice(2).split('/')) {
    const key = decodeURIComponent(token).replaceAll('~1', '/').replaceAll('~0', '~');
    node = isObject(node) && Object.hasOwn(node, key) ? node[key] : undefined;
  }
  return isObject(node) ? (node as Schema) : undefined;
}

/**
 * A schema and every schema its local `$ref`s lead to, in order. OpenAPI 3.1 lets a `$ref`
 * carry siblings (a `deprecated` or a `description` beside it), so each step counts.
 */
function chain(doc: OpenAPIV3_1.Document, schema: Schema): Schema[] {
  const steps: Schema[] = [schema];
  for (let ref = (schema as { $ref?: unknown }).$ref; typeof ref === 'string';) {
    const next = target(doc, ref);
    if (next === undefined || steps.includes(next)) break;
    steps.push(next);
    ref = (next as { $ref?: unknown }).$ref;
  }
  return steps;
}

/**
 * How a schema is marked deprecated: OpenAPI 3.1's `deprecated` keyword, or its description's
 * prose (the live description: "Deprecated: prefer NetworkMount"), on the schema itself or on
 * one it references. The spec says "marked deprecated" and names no mechanism, so either marks it.
 */
function deprecation(doc: OpenAPIV3_1.Document, schema: Schema): 'keyword' | 'prose' | undefined {
  const steps = chain(doc, schema) as { deprecated?: unknown; description?: unknown }[];
  if (steps.some((s) => s.deprecated === true)) return 'keyword';
  return steps.some((s) => typeof s.description === 'string' && /\bdeprecated\b/i.test(s.description)) ? 'prose' : undefined;
}

// Spec, Versioning: "the interface description version is 2.0.0"; "Persistent mounts are marked
// deprecated in favor of network mounts."
test.describe('the published interface description', () => {
  test('has version 2.0.0 and marks mounts.persistent deprecated', rules('VERSION.REST_V2.DESCRIPTION_2_0_0', 'VERSION.PERSISTENT_DEPRECATED'), async ({ api }) => {
    const found = await findDescription(api);
    test.skip(!found, `the target publishes no interface description at ${CANDIDATES.join(', ')}`);
    const { doc, path } = found!;
    const version = (doc.info as Partial<OpenAPIV3_1.InfoObject> | undefined)?.version;
    const persistent = mountsSchemas(doc).map((m) => m.persistent!);
    const marks = persistent.map((p) => deprecation(doc, p));
    conform(
      must(version === '2.0.0', 'VERSION.REST_V2.DESCRIPTION_2_0_0', `${path}: info.version is ${JSON.stringify(version)}`),
      must(persistent.length > 0, 'VERSION.PERSISTENT_DEPRECATED', `${path}: no Mounts schema with persistent and network properties (external references are not followed)`),
      must(marks.every((m) => m !== undefined), 'VERSION.PERSISTENT_DEPRECATED',
        `${path}: mounts.persistent is marked deprecated neither by the \`deprecated\` keyword nor in its description, nor in a schema it references: ${JSON.stringify(persistent).slice(0, 300)}`),
    );
  });
});
