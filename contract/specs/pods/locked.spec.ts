import { test } from './support/fixtures.js';
import { conform, must, rules } from '../../support/rules.js';
import { rejectionConformance } from '../../checks/rejection.js';
import { podConformance } from '../../checks/pod-conformance.js';
import { PROBLEM_RULES } from './support/rule-sets.js';
import type { Pod } from '../../../lib/types.gen.js';

// Spec, Pod: `locked` "When true, the pod cannot be stopped or reset."; States and
// transitions: "A locked pod cannot be stopped or reset." The status is not shown: some 4xx.
const cases = [
  { action: 'stop', rule: 'POD.LOCKED.CANNOT_STOP' },
  { action: 'restart', rule: 'POD.LOCKED.CANNOT_RESET' },
] as const;

test.describe('a locked pod cannot be stopped or reset', () => {
  for (const c of cases) {
    test(`${c.action} of a locked RUNNING pod is refused and changes nothing`, rules(c.rule, ...PROBLEM_RULES), async ({ api, pods, emu }) => {
      const pod = await pods.created(await pods.gpuBody());
      // Both actions are valid for a RUNNING pod, so a refusal can only come from the lock.
      const ready = await pods.waitFor(pod.id, ['RUNNING']);
      test.skip(!ready.reached, `the pod did not become RUNNING (${ready.seen.join(' → ')})`);
      const lock = await api.op<Pod>('updatePod', { params: { podId: pod.id }, body: { locked: true } });
      test.skip(lock.status !== 200 || lock.body?.locked !== true, `the target does not lock pods through updatePod (${lock.status})`);
      const before = (await pods.waitFor(pod.id, ['RUNNING'], { maxMs: 0 })).pod;
      const res = await api.op<Pod>('podAction', { params: { podId: pod.id }, body: { action: c.action } });
      if (emu.available) await emu.advance(60_000);
      const after = (await pods.waitFor(pod.id, ['RUNNING'], { maxMs: 0 })).pod;
      conform(
        rejectionConformance(c.rule, res, 'client-error'),
        must(after.status === 'RUNNING', c.rule, `after ${c.action} the locked pod is ${after.status}`),
        must(after.startedAt === before.startedAt, c.rule, `startedAt changed from ${before.startedAt} to ${after.startedAt}: the pod restarted`),
        must(after.locked === true, c.rule, 'the pod is no longer locked'),
        podConformance(after, { kind: 'gpu' }),
      );
    });
  }
});
