/**
 * Provisioning from the worker image (the profile's `workerImage`, CPC_WORKER_IMAGE or
 * `--worker-image`): on a deployment, the run makes a serverless template of the image and a
 * queue-based endpoint on it, so the job tests and the REST v1 creation checks run without a
 * hand-made endpoint or template, and a second endpoint with `workersMax` 1, where a long job
 * holds later ones in the queue (the queue's rules decided in real time). Both are named by the run and recorded in its cleanup record
 * like every creation, so the run's teardown deletes them (the endpoint scaled to 0 first).
 *
 * The endpoint has `workersMin` 0 (no always-on worker), `workersMax` {@link WORKERS_MAX} and
 * `idleTimeout` 5 s (the worker-time bound's idle allowance, lib/worker-time.ts).
 * CPC_ENDPOINT_ID and CPC_TEMPLATE_ID still name existing ones: then nothing of that kind is made.
 */
import { writeFileSync } from 'node:fs';
import type { ApiClient, ApiResult } from '../../lib/client/api.js';
import { Registry, TestTracker } from '../../lib/cleanup.js';
import type { Provision, RunConfig } from '../../lib/protocol.js';
import type { Provisioned } from '../../lib/provisioned.js';
import { WORKER_ALLOWANCE } from '../../lib/worker-time.js';

/** Workers of the provisioned endpoint: enough for the job tests of one Playwright worker to overlap a little. */
export const WORKERS_MAX = 3;
/** The GPU tier the provisioned endpoint asks for (the spec's first `gpuIds` value). */
export const WORKER_GPU_IDS = 'AMPERE_16';

/** Seconds an idle worker is kept: the idle allowance of the worker-time bound (lib/worker-time.ts). */
const IDLE_TIMEOUT_S = WORKER_ALLOWANCE.idleMs / 1000;

/** The test title provisioning's creations are recorded under. */
export const PROVISIONING = '(provisioning from the worker image)';

const str = (s: string): string => JSON.stringify(s);

/** What the run provisions: from preflight's decision, else whatever the image can stand in for. */
export function provisionChoice(run: RunConfig, endpointId: string | undefined): Provision {
  if (!run.profile.workerImage) return { endpoint: false, hold: false, template: false };
  if (run.provision) return run.provision;
  return { endpoint: endpointId === undefined, hold: true, template: run.templateId === undefined };
}

/**
 * Makes the template and the endpoint `choice` asks for with `api` (whose creations the record
 * keeps), and writes their ids to the run's provision file for the workers; a refusal is
 * written there too, so the tests that needed it skip saying why.
 */
export async function provision(api: ApiClient, run: RunConfig, choice: Provision, log: (line: string) => void): Promise<Provisioned> {
  const out: Provisioned = {};
  if (!run.profile.workerImage || !run.provisionFile || (!choice.endpoint && !choice.hold && !choice.template)) return out;
  const tracker = new TestTracker(run.cleanupFile ? new Registry(run.cleanupFile) : undefined, PROVISIONING);
  tracker.attach(api);
  const name = `cpc-${run.runId ?? 'local'}-worker`;
  const image = run.profile.workerImage;
  try {
    const templateId = await saved('saveTemplate', () => api.graphql(
      `mutation { saveTemplate(input: {name: ${str(name)}, imageName: ${str(image)}, containerDiskInGb: 5, volumeInGb: 0, isServerless: true}) { id name } }`));
    out.templateId = templateId;
    const endpoint = (suffix: string, workersMax: number): Promise<string> => saved('saveEndpoint', () => api.graphql(
      `mutation { saveEndpoint(input: {name: ${str(name + suffix)}, gpuIds: ${str(WORKER_GPU_IDS)}, templateId: ${str(templateId)}, workersMin: 0, workersMax: ${workersMax}, idleTimeout: ${IDLE_TIMEOUT_S}}) { id } }`),
    () => endpointNamed(api, name + suffix));
    if (choice.endpoint) out.endpointId = await endpoint('', WORKERS_MAX);
    if (choice.hold) out.holdEndpointId = await endpoint('-hold', 1);
    log(`provisioned from ${run.profile.workerImage}: template ${name}${out.endpointId ? `, queue-based endpoint ${out.endpointId} (workersMin 0, workersMax ${WORKERS_MAX})` : ''}${out.holdEndpointId ? `, endpoint ${out.holdEndpointId} (workersMin 0, workersMax 1)` : ''}; deleted when the run ends`);
  } catch (e) {
    out.error = `provisioning from ${run.profile.workerImage} failed: ${(e as Error).message}`;
    log(out.error);
  }
  // The template serves the REST v1 creation checks only where no CPC_TEMPLATE_ID names one.
  if (!choice.template) delete out.templateId;
  writeFileSync(run.provisionFile, JSON.stringify(out), { mode: 0o600 });
  return out;
}

/**
 * One creation of provisioning, by a GraphQL save that answers `{id}`. An answer lost on the way
 * (a reset, or a gateway's 502 or 504 page: the save may have happened) is not the target's
 * refusal: the endpoint is looked for by its name (the account lists its endpoints), and the save
 * is sent again only when it is not there; a template, which no query lists, is saved again under
 * the same name. Two tries in all; any other answer is final.
 */
export async function saved(operation: 'saveTemplate' | 'saveEndpoint', send: () => Promise<ApiResult>, find?: () => Promise<string | undefined>): Promise<string> {
  let last = '';
  for (let attempt = 0; attempt < 2; attempt++) {
    let res: ApiResult | undefined;
    try {
      res = await send();
    } catch (e) {
      last = (e as Error).message;
    }
    if (res) {
      const id = (res.body as { data?: Record<string, { id?: unknown } | undefined> } | undefined)?.data?.[operation]?.id;
      if (res.status === 200 && typeof id === 'string') return id;
      last = `${res.status}: ${res.text.slice(0, 200)}`;
      if (!isGatewayPage(res)) break;
    }
    const found = await find?.();
    if (found) return found;
  }
  throw new Error(`${operation} answered ${last}`);
}

/** A gateway's own 502 or 504 (not JSON): the service's answer was lost, not given. */
const isGatewayPage = (res: ApiResult): boolean => (res.status === 502 || res.status === 504) && !res.contentType.endsWith('json');

/** The id of the account's endpoint named `name`, if it lists one. */
async function endpointNamed(api: ApiClient, name: string): Promise<string | undefined> {
  const res = await api.graphql<{ data?: { myself?: { endpoints?: { id?: unknown; name?: unknown }[] } } }>('query { myself { endpoints { id name } } }').catch(() => undefined);
  const hit = res?.body?.data?.myself?.endpoints?.find((e) => e.name === name);
  return typeof hit?.id === 'string' ? hit.id : undefined;
}
