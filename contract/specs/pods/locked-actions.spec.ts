import { test } from './support/fixtures.js';
import { isSuccess } from '../../checks/status.js';
import { conform, must, observe, rules } from '../../support/rules.js';
import type { Pod, PodAction } from '../../../lib/types.gen.js';

/** The actions a lock concerns: "cannot be stopped or reset" (restart standing for reset). */
const LOCK_CONCERNS: readonly PodAction[] = ['stop', 'restart'];

// Pod cases beyond the common paths (found by mutation testing, npm run mutation); each holds
// rules of the spec's "States and transitions" and "Mounts" in a situation the other specs
// do not reach.
test.describe('pod states and mounts beyond the common paths', () => {
  test('a locked pod: the actions it lists are recorded, and those the lock does not concern are accepted', rules('POD.ACTIONS.LISTED_ACCEPTED', 'POD.LOCKED.ACTIONS_LISTED'), async ({ api, pods }) => {
    // `actions` lists the "valid state transitions for the current status", and the lock is not
    // a status: a locked RUNNING pod may list stop and restart (the lock then refuses them, which
    // locked.spec.ts checks: "A locked pod cannot be stopped or reset") or leave them out. What
    // it lists beside them must be accepted.
    const pod = await pods.created(await pods.gpuBody());
    const ready = await pods.waitFor(pod.id, ['RUNNING']);
    test.skip(!ready.reached, `the pod did not become RUNNING (${ready.seen.join(' → ')})`);
    const lock = await api.op<Pod>('updatePod', { params: { podId: pod.id }, body: { locked: true } });
    test.skip(!isSuccess(lock) || lock.body?.locked !== true, `the target does not lock pods through updatePod (${lock.status})`);
    const read = await api.op<Pod>('getPod', { params: { podId: pod.id } });
    const actions = Array.isArray(read.body?.actions) ? read.body.actions : [];
    observe('POD.LOCKED.ACTIONS_LISTED', { status: read.body?.status ?? null, actions });
    const action = actions.find((a) => !LOCK_CONCERNS.includes(a));
    test.skip(!isSuccess(read) || action === undefined, `the locked pod lists no action the lock leaves alone (${read.status}: ${JSON.stringify(actions)})`);
    const res = await api.op('podAction', { params: { podId: pod.id }, body: { action } });
    conform(must(res.status >= 200 && res.status < 300, 'POD.ACTIONS.LISTED_ACCEPTED',
      `the locked RUNNING pod lists ${JSON.stringify(actions)}; ${action} answered ${res.status} ${res.text.slice(0, 200)}`));
  });
});
