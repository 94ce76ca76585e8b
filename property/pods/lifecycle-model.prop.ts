import { test } from '../../contract/specs/pods/support/fixtures.js';
import { creates, rules } from '../../contract/support/rules.js';
import { checkProperty, runSeed } from '../support/run.js';
import { podLifecycleProperty } from './model/pod-lifecycle.js';
import type { PodReal } from './model/model.js';
import { fastClient } from './support/fast-client.js';
import { propertyRuns } from './support/budget.js';

test(`a pod's life agrees with the model of the spec's rules (seed ${runSeed()})`, rules(
  'POD.STATUS.PROVISIONING_TO_STARTING', 'POD.STATUS.STARTING_TO_RUNNING', 'POD.LOCKED.CANNOT_STOP', 'POD.ACTIONS.LISTED_ACCEPTED', 'POD.ACTIONS.UNLISTED_REFUSED',
  'MOUNT.UPDATE.OMITTED_UNCHANGED', 'MOUNT.UPDATE.EMPTY_OBJECT_UNCHANGED', 'MOUNT.UPDATE.NETWORK_EMPTY_ARRAY_400', 'MOUNT.UPDATE.PERSISTENT_ON_NETWORK_POD_400',
  'MOUNT.UPDATE.NETWORK_ON_PERSISTENT_POD_400', 'MOUNT.UPDATE.MOUNT_ON_UNMOUNTED_POD_400', 'MOUNT.UPDATE.DIFFERENT_VOLUME_ID_400',
  'MOUNT.UPDATE.INCOMPLETE_PERSISTENT_422', 'MOUNT.UPDATE.INCOMPLETE_NETWORK_422', 'MOUNT.UPDATE.PERSISTENT_PATH_CHANGEABLE', 'MOUNT.UPDATE.NETWORK_PATH_CHANGEABLE',
  'POD.RESPONSE.COST_ZERO_WHEN_STOPPED', 'POD.RESPONSE.RUNTIME_NULL_UNLESS_RUNNING', 'POD.STATUS.CREATED_PROVISIONING',
  // Only where the virtual clock moves (an emulator world): its pods go through the run's own
  // client; the two volumes (an existing or new one, and a fresh one) through the test's.
  creates({ networkVolumes: 2, needs: 'control' }),
), async ({ api, emu, pods }) => {
  emu.require('move the virtual clock between commands');
  const dc = (await pods.catalog()).dataCenters[0];
  test.skip(!dc, 'the target lists no data center');
  const fast = fastClient(api);
  const real: PodReal = {
    api: fast.api,
    advance: async (ms) => { await emu.advance(ms); },
    volume: await pods.volume(dc!.id),
    otherVolume: await pods.volume(dc!.id, { fresh: true }),
    gpuBody: await pods.gpuBody(),
    gpuCandidates: (await pods.gpuCandidates()).map((g) => g.id),
    cpuBody: await pods.cpuBody(),
  };
  try {
    await checkProperty(podLifecycleProperty(async () => real), { numRuns: propertyRuns() });
  } finally {
    await fast.close();
  }
});
