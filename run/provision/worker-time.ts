/**
 * The worker time of a run on a deployment (lib/worker-time.ts), split by endpoint: the tests
 * that need the hold endpoint run on the one the run provisions; the other job tests on the
 * provisioned job endpoint, or on CPC_ENDPOINT_ID's, priced by the tier GraphQL lists for it
 * (unknown, its worker time is unpriced). An emulator world runs no real workers: nothing is planned.
 */
import type { ApiClient } from '../../lib/client/api.js';
import type { Creates, PriceTable } from '../../lib/plan.js';
import type { Provision } from '../../lib/protocol.js';
import { needList } from '../../lib/needs.js';
import { addWorkerTime, planWorkerTime, type WorkerTimePlan } from '../../lib/worker-time.js';
import { WORKER_GPU_IDS } from './worker.js';

/** The planned worker time of the tests that run, priced from `prices`; undefined when none sends jobs or the target is an emulator. */
export function plannedWorkerTime(running: readonly Creates[], found: { control: boolean; endpointTier?: string }, provision: Provision, prices: PriceTable | undefined): WorkerTimePlan | undefined {
  if (found.control) return undefined;
  const held = running.filter((t) => needList(t.needs).includes('holdEndpoint'));
  const others = running.filter((t) => !held.includes(t));
  return addWorkerTime(planWorkerTime(others, provision.endpoint ? WORKER_GPU_IDS : found.endpointTier, prices), planWorkerTime(held, WORKER_GPU_IDS, prices));
}

/** The GPU tier of an endpoint of the account (GraphQL `myself { endpoints { id gpuIds } }`); undefined when not listed. */
export async function endpointTier(api: ApiClient, endpointId: string, timeoutMs: number): Promise<string | undefined> {
  const res = await api.graphql<{ data?: { myself?: { endpoints?: { id?: unknown; gpuIds?: unknown }[] } } }>('query { myself { endpoints { id gpuIds } } }', undefined, { timeoutMs });
  const tier = res.body?.data?.myself?.endpoints?.find((e) => e?.id === endpointId)?.gpuIds;
  return typeof tier === 'string' && tier !== '' ? tier : undefined;
}
