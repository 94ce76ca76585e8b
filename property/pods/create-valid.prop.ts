import { test } from '../../contract/specs/pods/support/fixtures.js';
import { creates, rules } from '../../contract/support/rules.js';
import { POD_SHAPE_RULES } from '../../contract/specs/pods/support/rule-sets.js';
import { checkProperty, runSeed } from '../support/run.js';
import { loadPodContext } from './support/context.js';
import { validCreateProperty } from './properties/create-valid.js';
import { podPropertyCreates, propertyRuns, realTargetSkip } from './support/budget.js';
import { fastClient } from './support/fast-client.js';

test(`every valid CreatePodRequest is created as sent, PROVISIONING (seed ${runSeed()})`, rules(
  'POD.CREATE.201_POD', 'SERVICE.POD.GPU_OR_CPU', 'POD.RESPONSE.CONTAINER_CONFIG', 'POD.CREATE.CLOUD_DEFAULT_SECURE', 'POD.GPU.COUNT_DEFAULT_1',
  'POD.CREATE.GLOBAL_NETWORKING_DEFAULT_FALSE', 'POD.CREATE.GLOBAL_NETWORKING_ELIGIBLE', 'POD.CPU.MEMORY_DERIVED', 'POD.CPU.ID_FROM_CATALOG',
  'POD.STATUS.CREATED_PROVISIONING', 'POD.RESPONSE.STARTED_AT_NULL_ON_CREATE', 'MOUNT.PERSISTENT.ACCEPTED_ON_GPU', 'MOUNT.NETWORK.CUSTOM_PATH',
  'MOUNT.NETWORK.SAME_DATA_CENTER', 'POD.CREATE.DATA_CENTER_IDS_SCHEDULER', ...POD_SHAPE_RULES,
  // Each run creates the pod it draws; the volumes are the context's.
  creates(podPropertyCreates({ volumes: 2, podsPerRun: 1 })),
), async ({ api, emu, pods }) => {
  const skip = realTargetSkip(emu.available, 'creates a pod');
  test.skip(skip !== undefined, skip ?? '');
  const ctx = await loadPodContext(api, (dc) => pods.volume(dc));
  const fast = fastClient(api);
  try {
    await checkProperty(validCreateProperty(fast.api, ctx, (id) => pods.track(id)), { numRuns: propertyRuns() });
  } finally {
    await fast.close();
  }
});
