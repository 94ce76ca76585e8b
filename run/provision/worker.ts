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
import type { ApiClient } from '../../lib/client/api.js';
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
  try {
    const tpl = await api.graphql<{ data?: { saveTemplate?: { id?: string } }; errors?: unknown[] }>(
      `mutation { saveTemplate(input: {name: ${str(name)}, imageName: ${str(run.profile.workerImage)}, containerDiskInGb: 5, volumeInGb: 0, isServerless: true}) { id name } }`);
    const templateId = tpl.body?.data?.saveTemplate?.id;
    if (tpl.status !== 200 || typeof templateId !== 'string') throw new Error(`saveTemplate answered ${tpl.status}: ${tpl.text.slice(0, 200)}`);
    out.templateId = templateId;
    const endpoint = async (suffix: string, workersMax: number): Promise<string> => {
      const ep = await api.graphql<{ data?: { saveEndpoint?: { id?: string } } }>(
        `mutation { saveEndpoint(input: {name: ${str(name + suffix)}, gpuIds: ${str(WORKER_GPU_IDS)}, templateId: ${str(templateId)}, workersMin: 0, workersMax: ${workersMax}, idleTimeout: ${IDLE_TIMEOUT_S}}) { id } }`);
      const id = ep.body?.data?.saveEndpoint?.id;
      if (ep.status !== 200 || typeof id !== 'string') throw new Error(`saveEndpoint answered ${ep.status}: ${ep.text.slice(0, 200)}`);
      return id;
    };
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
