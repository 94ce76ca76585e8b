import { endpointsSlice } from '../state/endpoints.js';
import { templatesSlice } from '../state/templates.js';
import type { World } from '../world.js';
import { jobsSlice } from './store.js';

/** Names of what every world gets, so a test can find them in `emu.world.seeded`. */
export const SEEDED_TEMPLATE_NAME = 'conformance-handler';
export const SEEDED_ENDPOINT_NAME = 'conformance-handler';

/**
 * Seeds a serverless template and a queue-based endpoint running the conformance handler
 * (HANDLER.md) in the account, and returns their ids: `CPC_ENDPOINT_ID` is the variable the
 * suite reads against real targets, printed by `npm run emulator`.
 */
export function seedServerless(world: World, accountId: string): Record<string, unknown> {
  const templates = world.get(templatesSlice);
  const template = templates.findByName(accountId, SEEDED_TEMPLATE_NAME) ?? templates.create(accountId, {
    name: SEEDED_TEMPLATE_NAME, imageName: 'compute-platform/conformance-handler:1.0', containerDiskInGb: 5, volumeInGb: 0,
    dockerArgs: '', env: [], ports: '', readme: 'The conformance handler: its input chooses echo, sleep, fail, timeout, stream or large output.',
    volumeMountPath: '', isServerless: true, containerRegistryAuthId: null,
  });
  world.get(jobsSlice);
  const endpoint = world.get(endpointsSlice).create(accountId, {
    name: SEEDED_ENDPOINT_NAME, templateId: template.id, gpuIds: 'AMPERE_16', gpuTypeIds: ['AMPERE_16'], type: 'QB', idleTimeout: 5,
    locations: null, flashBootType: null, scalerType: 'QUEUE_DELAY', scalerValue: 4, workersMin: 0, workersMax: 3, networkVolumeId: null, origin: 'seed',
  });
  return { CPC_ENDPOINT_ID: endpoint.id, CPC_TEMPLATE_ID: template.id, CPC_MODEL_ENDPOINT_ID: 'image-gen-turbo' };
}
