import { test } from './support/fixtures.js';
import { conform, must, rules } from '../../support/rules.js';
import type { ApiClient } from '../../../lib/client/api.js';
import { isSuccess } from '../../checks/status.js';

/** Where targets commonly publish their interface description; the first JSON answer wins. */
const CANDIDATES = ['/v2/openapi.json', '/openapi.json', '/v2/docs/openapi.json'];

async function findDescription(api: ApiClient): Promise<{ path: string; doc: Record<string, unknown> } | undefined> {
  for (const path of CANDIDATES) {
    const res = await api.call('rest-v2', 'GET', path);
    if (isSuccess(res) && res.body !== null && typeof res.body === 'object') return { path, doc: res.body as Record<string, unknown> };
  }
  return undefined;
}

/** Every Mounts schema in the document: objects whose properties define `persistent` and `network` as schemas (not `true`). */
function mountsSchemas(node: unknown, found: Record<string, unknown>[] = []): Record<string, unknown>[] {
  if (Array.isArray(node)) node.forEach((n) => mountsSchemas(n, found));
  else if (node !== null && typeof node === 'object') {
    const props = (node as { properties?: Record<string, unknown> }).properties;
    if (props && typeof props.persistent === 'object' && typeof props.network === 'object') found.push(props);
    Object.values(node).forEach((n) => mountsSchemas(n, found));
  }
  return found;
}

/**
 * How a schema is marked deprecated: OpenAPI 3.1's `deprecated` keyword, or its description's
 * prose (the live description: "Deprecated: prefer NetworkMount"). The spec says "marked
 * deprecated" and names no mechanism, so either marks it.
 */
function deprecation(schema: { deprecated?: unknown; description?: unknown } | undefined): 'keyword' | 'prose' | undefined {
  if (schema?.deprecated === true) return 'keyword';
  return typeof schema?.description === 'string' && /\bdeprecated\b/i.test(schema.description) ? 'prose' : undefined;
}

// Spec, Versioning: "the interface description version is 2.0.0"; "Persistent mounts are marked
// deprecated in favor of network mounts."
test.describe('the published interface description', () => {
  test('has version 2.0.0 and marks mounts.persistent deprecated', rules('VERSION.REST_V2.DESCRIPTION_2_0_0', 'VERSION.PERSISTENT_DEPRECATED'), async ({ api }) => {
    const found = await findDescription(api);
    test.skip(!found, `the target publishes no interface description at ${CANDIDATES.join(', ')}`);
    const version = (found!.doc.info as { version?: unknown } | undefined)?.version;
    const mounts = mountsSchemas(found!.doc);
    const persistent = mounts.map((m) => m.persistent as { deprecated?: unknown; description?: unknown; $ref?: unknown });
    const marks = persistent.map(deprecation);
    conform(
      must(version === '2.0.0', 'VERSION.REST_V2.DESCRIPTION_2_0_0', `${found!.path}: info.version is ${JSON.stringify(version)}`),
      must(persistent.length > 0, 'VERSION.PERSISTENT_DEPRECATED', `${found!.path}: no Mounts schema with persistent and network properties (external references are not followed)`),
      must(marks.every((m) => m !== undefined), 'VERSION.PERSISTENT_DEPRECATED',
        `${found!.path}: mounts.persistent is marked deprecated neither by the \`deprecated\` keyword nor in its description: ${JSON.stringify(persistent).slice(0, 300)}`),
    );
  });
});
