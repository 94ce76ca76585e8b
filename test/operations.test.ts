/**
 * One operation vocabulary: lib/operations.gen.ts is generated from schemas/openapi.yaml (and
 * schema.graphql), and the client, the rule catalog and the emulator's route table name
 * operations by its ids.
 */
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import { GRAPHQL_OPERATIONS, OPERATIONS, type OperationId } from '../lib/operations.gen.js';
import { operations } from '../lib/client/operations.js';
import { loadRules } from '../lib/rules.js';
import { ROUTES } from '../emulator/http/route.js';
import { checkOperations } from '../scripts/gen-types.js';

test('lib/operations.gen.ts is what schemas/openapi.yaml and schema.graphql generate (npm run gen)', () => {
  const check = checkOperations();
  assert.ok(check.upToDate, 'lib/operations.gen.ts is stale: run `npm run gen`');
});

test('the client calls operations by the generated table, nothing of its own', () => {
  assert.equal(operations, OPERATIONS);
});

test('every operation the rule catalog names is an operationId of openapi.yaml or a GraphQL operation', () => {
  const known = new Set<string>([...Object.keys(OPERATIONS), ...Object.keys(GRAPHQL_OPERATIONS)]);
  const unknown = loadRules().flatMap((r) => (r.operations ?? []).filter((op) => !known.has(op)).map((op) => `${r.id}: ${op}`));
  assert.deepEqual(unknown, []);
});

/** A path template (`{name}` or `:name` segments) as a pattern that any concrete path of it matches. */
const pattern = (template: string): RegExp => new RegExp(`^${template.replace(/[.*+?^$()|[\]\\]/g, '\\$&').replace(/\{\w+\}/g, '[^/]+')}$`);
const concrete = (emulatorPath: string): string => emulatorPath.replace(/:\w+/g, 'x');

/** The operationId whose method and path template a route serves, if any. */
function servedOperation(method: string, path: string): OperationId | undefined {
  const matches = (Object.keys(OPERATIONS) as OperationId[]).filter((id) => OPERATIONS[id].method === method && pattern(OPERATIONS[id].path).test(concrete(path)));
  // A literal path wins over a template (`/v2/pods` before `/v2/{endpointId}/...`): the most literal characters.
  return matches.sort((a, b) => OPERATIONS[b].path.replace(/\{\w+\}/g, '').length - OPERATIONS[a].path.replace(/\{\w+\}/g, '').length)[0];
}

/** Routes the emulator serves beyond openapi.yaml, with why. */
const EMULATOR_ONLY: Record<string, string> = {
  'GET /v2/openapi.json': 'the live platform publishes its REST v2 description there (platform notes); not an operation of the spec',
  ...Object.fromEntries(['GET job-take/:workerId', 'GET job-take-batch/:workerId', 'POST job-done/:workerId/:jobId', 'POST job-stream/:workerId/:jobId', 'GET job-stop/:workerId', 'GET ping/:workerId']
    .map((r) => [r.replace(' ', ' /v2/:endpointId/'), 'the platform\'s worker side, which workers on the official library call (platform notes); not an operation of the spec'])),
};

test('the emulator\'s routes serve the generated operations under their operationIds and parameter names', () => {
  const wrong: string[] = [];
  for (const r of ROUTES) {
    const key = `${r.method} ${r.path}`;
    const served = servedOperation(r.method, r.path);
    if (served === undefined) {
      if (!(key in EMULATOR_ONLY)) wrong.push(`${key} (${r.operation}) serves no operation of openapi.yaml`);
      continue;
    }
    if (r.operation !== served) wrong.push(`${key} is named ${r.operation}, but serves ${served}`);
    // A route of a concrete resource (a public model's runsync) has no parameters to name.
    const params = [...r.path.matchAll(/:(\w+)/g)].map((m) => m[1]);
    if (params.length > 0 && params.join() !== OPERATIONS[served].params.join()) wrong.push(`${key} names its parameters ${params.join(', ')}, openapi.yaml ${OPERATIONS[served].params.join(', ')}`);
  }
  assert.deepEqual(wrong, []);
});

test('the emulator serves every operation of openapi.yaml', () => {
  const served = new Set(ROUTES.map((r) => servedOperation(r.method, r.path)));
  assert.deepEqual((Object.keys(OPERATIONS) as OperationId[]).filter((id) => !served.has(id)), []);
});

test('the rule catalog schema allows exactly the generated operations', () => {
  const schema = JSON.parse(readFileSync(new URL('../schemas/rule-catalog.schema.json', import.meta.url), 'utf8')) as { $defs?: unknown; properties?: unknown };
  const find = (node: unknown): string[] | undefined => {
    if (!node || typeof node !== 'object') return undefined;
    const o = node as Record<string, unknown>;
    const ops = (o.operations as { items?: { enum?: string[] } } | undefined)?.items?.enum;
    if (ops) return ops;
    for (const v of Object.values(o)) { const found = find(v); if (found) return found; }
    return undefined;
  };
  assert.deepEqual([...(find(schema) ?? [])].sort(), [...Object.keys(OPERATIONS), ...Object.keys(GRAPHQL_OPERATIONS)].sort());
});
