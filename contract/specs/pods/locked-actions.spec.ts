import { test } from './support/fixtures.js';
import { conform, must, rules } from '../../support/rules.js';
import type { Pod } from '../../../lib/types.gen.js';

// Pod cases beyond the common paths (found by mutation testing, npm run mutation); each holds
// rules of the spec's "States and transitions" and "Mounts" in a situation the other specs
// do not reach.
test.describe('pod states and mounts beyond the common paths', () => {
  test('an action a locked pod lists is accepted: the lock shows in its actions', rules('POD.ACTIONS.LISTED_ACCEPTED'), async ({ api, pods }) => {
    // "A locked pod cannot be stopped or reset", and `actions` lists the "valid state
    // transitions": whatever a locked RUNNING pod lists must be accepted. The action tried is
    // the one the lock concerns when listed (stop, restart), else terminate.
    const pod = await pods.created(await pods.gpuBody());
    const ready = await pods.waitFor(pod.id, ['RUNNING']);
    test.skip(!ready.reached, `the pod did not become RUNNING (${ready.seen.join(' → ')})`);
    const lock = await api.op<Pod>('updatePod', { params: { podId: pod.id }, body: { locked: true } });
    test.skip(lock.status !== 200 || lock.body?.locked !== true, `the target does not lock pods through updatePod (${lock.status})`);
    const read = await api.op<Pod>('getPod', { params: { podId: pod.id } });
    const actions = Array.isArray(read.body?.actions) ? read.body.actions : [];
    const action = ['stop', 'restart', 'terminate'].find((a) => actions.includes(a as Pod['actions'][number]));
    test.skip(read.status !== 200 || action === undefined, `the locked pod lists no stop, restart or terminate (${read.status}: ${JSON.stringify(actions)})`);
    const res = await api.op('podAction', { params: { podId: pod.id }, body: { action } });
    conform(must(res.status >= 200 && res.status < 300, 'POD.ACTIONS.LISTED_ACCEPTED',
      `the locked RUNNING pod lists ${JSON.stringify(actions)}; ${action} answered ${res.status} ${res.text.slice(0, 200)}`));
  });
});
