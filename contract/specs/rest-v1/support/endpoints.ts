import type { ApiClient, ApiResult, AuthChoice } from '../../../../lib/client/api.js';
import { test, type Emu } from '../../../support/fixtures.js';
import { uniqueNameFactory } from '../../../../lib/cleanup.js';
import { conform, must } from '../../../support/rules.js';
import { graphqlConformance } from '../../../checks/graphql-conformance.js';
import { runConfig } from '../../../../lib/run-config.js';
import { provisioned } from '../../../../lib/provisioned.js';
import { SetupError } from '../../../../lib/errors.js';
import { loadUndici } from '../../../../lib/client/transport.js';
import { listOf, type PodCatalog } from '../../../../lib/pod-catalog.js';
import { existsSync, readFileSync } from 'node:fs';
import { lacking } from '../../../support/needs.js';

/**
 * A serverless template to create endpoints from: the one seeded in the emulator world, or
 * `CPC_TEMPLATE_ID` on a real target (creating endpoints there needs one the account owns).
 */
export function templateId(emu: Emu): string {
  const id = (emu.world?.seeded.CPC_TEMPLATE_ID as string | undefined) ?? runConfig().templateId ?? (emu.world ? undefined : provisioned().templateId);
  return id ?? lacking(test.info(), 'template');
}

/** A GPU type of the target's catalog, and the serverless pool the catalog places it in, if it names one. */
export interface CatalogGpu { id: string; pool?: string }

/** How many GPU types a creation body names, in priority order. */
export const CANDIDATES = 3;

/** A deployment's GPU catalog, read once per worker (or taken from the run's preflight): it does not change under the tests. */
const workerCatalogs = new Map<string, Promise<unknown[]>>();

/** The catalog's GPU list: an emulator world's own, read for the test; a deployment's, once. */
function listedGpus(api: ApiClient, emu: Emu): Promise<unknown[]> {
  const read = async () => listOf<unknown>((await api.op('listGpuTypes')).body, 'gpus') ?? [];
  if (emu.world) return read();
  const key = api.urls.baseUrl;
  if (!workerCatalogs.has(key)) {
    const file = runConfig().catalogFile;
    workerCatalogs.set(key, file && existsSync(file) ? Promise.resolve((JSON.parse(readFileSync(file, 'utf8')) as PodCatalog).gpus) : read());
  }
  return workerCatalogs.get(key)!;
}

/**
 * GPU types for REST v1's `gpuTypeIds` ("GPU types in priority order"): ids as the target's
 * REST v2 catalog lists them (`GET /v2/catalog/gpus`), which the live REST v1 takes, refusing
 * the GraphQL tier codes (platform notes). Types the catalog places in a serverless pool come
 * first, one per pool, so the endpoint's GPU tier shows which of them was allocated.
 */
export async function catalogGpus(api: ApiClient, emu: Emu): Promise<CatalogGpu[]> {
  const listed = (await listedGpus(api, emu) as { id?: unknown; pool?: unknown }[]).filter((g) => typeof g?.id === 'string');
  const pooled = listed.filter((g) => typeof g.pool === 'string');
  const onePerPool = pooled.filter((g, i) => pooled.findIndex((o) => o.pool === g.pool) === i);
  const others = onePerPool.length >= CANDIDATES ? [] : listed.filter((g) => !onePerPool.includes(g));
  const gpus = [...onePerPool, ...others].slice(0, CANDIDATES).map((g) => ({ id: g.id as string, ...(typeof g.pool === 'string' ? { pool: g.pool } : {}) }));
  test.skip(gpus.length === 0, 'the target\'s GPU catalog (GET /v2/catalog/gpus) lists no GPU type id to name in gpuTypeIds');
  return gpus;
}

let made = 0;

/** A creation body with every field the spec lists; workers stay at 0 so nothing runs or bills. Its name is unique to the run and test. */
export function endpointBody(template: string, gpus: readonly CatalogGpu[], overrides: Record<string, unknown> = {}): Record<string, unknown> {
  const info = test.info();
  return { name: `${uniqueNameFactory(info.testId, info.repeatEachIndex, info.retry).prefix}v1${(++made).toString(36)}`, templateId: template, gpuTypeIds: gpus.map((g) => g.id), workersMin: 0, workersMax: 0, idleTimeout: 5, ...overrides };
}

const created: string[] = [];

/** POST /v1/endpoints; the endpoint it creates (if the answer names it) is deleted after the test. */
export async function createEndpoint(api: ApiClient, body: unknown, auth: AuthChoice = 'main'): Promise<ApiResult> {
  const res = await api.op('createEndpointV1', { body, auth });
  const id = (res.body as { id?: unknown } | undefined)?.id;
  if (res.status >= 200 && res.status < 300 && typeof id === 'string') created.push(id);
  return res;
}

/**
 * Deletes what the test created (GraphQL `deleteEndpoint`; workers are 0, so deletion is
 * allowed). Best effort: a real target keeps no test endpoints; an emulator world is dropped anyway.
 */
export async function deleteCreated(api: ApiClient): Promise<void> {
  for (const id of created.splice(0)) {
    await api.graphql(`mutation { deleteEndpoint(id: ${JSON.stringify(id)}) }`).catch(() => undefined);
  }
}

/**
 * The caller's endpoints as GraphQL `myself` lists them (id and GPU tier), to see what creation
 * did. An answer without them is a finding of myself's own rules (GQL.MYSELF.ENDPOINTS,
 * GQL.HTTP.RESULT_SHAPE), which blocks the calling test instead of failing its rules.
 */
export async function myEndpoints(api: ApiClient): Promise<{ id: string; name?: string; gpuIds?: string }[]> {
  const res = await api.graphql('{ myself { endpoints { id name gpuIds } } }');
  const { findings, value } = graphqlConformance<{ endpoints?: { id: string; name?: string; gpuIds?: string }[] | null } | null>(res, 'myself', 'GQL.MYSELF.ENDPOINTS');
  const endpoints = value?.endpoints;
  conform(findings);
  conform(must(Array.isArray(endpoints), 'GQL.MYSELF.ENDPOINTS', `myself answered no list of endpoints: ${res.text.slice(0, 200)}`));
  return endpoints!;
}

/** Marks GPU types as having no capacity in the emulator world (the test must have called emu.require). */
export async function setUnavailable(emu: Emu, unavailable: readonly string[]): Promise<void> {
  const { request } = await loadUndici();
  const res = await request(`${emu.control!.baseUrl}/__emulator/worlds/${emu.world!.id}/gpu-availability`, {
    method: 'PUT', headers: { 'content-type': 'application/json' }, body: JSON.stringify({ unavailable }),
  });
  const text = await res.body.text();
  if (res.statusCode !== 200) throw new SetupError(`setting GPU availability answered ${res.statusCode}: ${text}`, res.statusCode);
}
