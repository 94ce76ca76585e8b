import { test } from './support/fixtures.js';
import { isSuccess } from '../../checks/status.js';
import { conform, must, observe, rules } from '../../support/rules.js';
import { rejectionConformance } from '../../checks/rejection.js';
import { podConformance } from '../../checks/pod-conformance.js';
import { PROBLEM_RULES } from './support/rule-sets.js';
import type { Pod } from '../../../lib/types.gen.js';

// Spec, Pod: `locked` "When true, the pod cannot be stopped or reset."; States and
// transitions: "A locked pod cannot be stopped or reset." The status is not shown: some 4xx.
// "reset" is not one of the named actions (`start`, `stop`, `restart`, `terminate`), so what a
// locked pod answers to `restart` is recorded (POD.LOCKED.CANNOT_RESET is OBSERVED), never failed.
type Fixtures = Parameters<Parameters<typeof test>[2]>[0];

/** A locked RUNNING GPU pod gets `action`: the pod before, the answer, and the pod a minute later. */
async function actOnLockedPod({ api, pods, emu }: Pick<Fixtures, 'api' | 'pods' | 'emu'>, action: 'stop' | 'restart') {
  const pod = await pods.created(await pods.gpuBody());
  // stop and restart are both valid for a RUNNING pod, so a refusal can only come from the lock.
  const ready = await pods.waitFor(pod.id, ['RUNNING']);
  test.skip(!ready.reached, `the pod did not become RUNNING (${ready.seen.join(' → ')})`);
  const lock = await api.op<Pod>('updatePod', { params: { podId: pod.id }, body: { locked: true } });
  test.skip(!isSuccess(lock) || lock.body?.locked !== true, `the target does not lock pods through updatePod (${lock.status})`);
  const before = (await pods.waitFor(pod.id, ['RUNNING'], { maxMs: 0 })).pod;
  const res = await api.op<Pod>('podAction', { params: { podId: pod.id }, body: { action } });
  if (emu.available) await emu.advance(60_000);
  const after = (await pods.waitFor(pod.id, ['RUNNING'], { maxMs: 0 })).pod;
  return { before, res, after };
}

test.describe('a locked pod cannot be stopped or reset', () => {
  test('records what restart of a locked RUNNING pod does', rules('POD.LOCKED.CANNOT_RESET'), async ({ api, pods, emu }) => {
    const { before, res, after } = await actOnLockedPod({ api, pods, emu }, 'restart');
    observe('POD.LOCKED.CANNOT_RESET', { answer: res.status, status: after?.status ?? null, restarted: after?.startedAt !== before?.startedAt });
  });

  test('stop of a locked RUNNING pod is refused and changes nothing', rules('POD.LOCKED.CANNOT_STOP', ...PROBLEM_RULES), async ({ api, pods, emu }) => {
    const rule = 'POD.LOCKED.CANNOT_STOP';
    const { before, res, after } = await actOnLockedPod({ api, pods, emu }, 'stop');
    conform(
      rejectionConformance(rule, res, 'client-error'),
      must(after.status === 'RUNNING', rule, `after stop the locked pod is ${after.status}`),
      must(after.startedAt === before.startedAt, rule, `startedAt changed from ${before.startedAt} to ${after.startedAt}: the pod restarted`),
      must(after.locked === true, rule, 'the pod is no longer locked'),
      podConformance(after, { kind: 'gpu' }),
    );
  });
});
