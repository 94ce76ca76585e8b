import { test } from './support/fixtures.js';
import { isSuccess } from '../../checks/status.js';
import { conform, creates, must, observe, rules, unchecked } from '../../support/rules.js';
import { rejectionConformance } from '../../checks/rejection.js';
import { podConformance } from '../../checks/pod-conformance.js';
import { PROBLEM_RULES } from './support/rule-sets.js';
import type { Pod, PodAction } from '../../../lib/types.gen.js';

// Spec, Pod: `locked` "When true, the pod cannot be stopped or reset."; States and
// transitions: "A locked pod cannot be stopped or reset." The status is not shown: some 4xx.
// "reset" is not one of the named actions (`start`, `stop`, `restart`, `terminate`), so what a
// locked pod answers to `restart` is recorded (POD.LOCKED.CANNOT_RESET is OBSERVED), never failed.

/** The actions a lock concerns: "cannot be stopped or reset" (restart standing for reset). */
const LOCK_CONCERNS: readonly PodAction[] = ['stop', 'restart'];

test.describe('a locked pod cannot be stopped or reset', () => {
  // One locked CPU pod for the whole story (no rule here is about GPUs): restart is only
  // recorded, then stop must be refused, and last an action the lock leaves alone (terminate,
  // on most targets) must be accepted, which may end the pod, so it comes last.
  test('a locked RUNNING pod: restart is recorded, stop is refused and changes nothing, and the actions it lists beside them are accepted', rules(
    'POD.LOCKED.CANNOT_RESET', 'POD.LOCKED.CANNOT_STOP', ...PROBLEM_RULES, 'POD.ACTIONS.LISTED_ACCEPTED', 'POD.LOCKED.ACTIONS_LISTED',
    creates({ cpuPods: 1 }),
  ), async ({ api, pods, emu }) => {
    const pod = await pods.created(await pods.cpuBody());
    // stop and restart are both valid for a RUNNING pod, so a refusal can only come from the lock.
    const ready = await pods.waitFor(pod.id, ['RUNNING']);
    test.skip(!ready.reached, `the pod did not become RUNNING (${ready.seen.join(' → ')})`);
    const lock = await api.op<Pod>('updatePod', { params: { podId: pod.id }, body: { locked: true } });
    test.skip(!isSuccess(lock) || lock.body?.locked !== true, `the target does not lock pods through updatePod (${lock.status})`);
    const locked = (await pods.waitFor(pod.id, ['RUNNING'], { maxMs: 0 })).pod;
    // `actions` lists the "valid state transitions for the current status", and the lock is not
    // a status: a locked RUNNING pod may list stop and restart (the lock then refuses them) or
    // leave them out. What it lists is recorded.
    const listed = Array.isArray(locked?.actions) ? locked.actions : [];
    observe('POD.LOCKED.ACTIONS_LISTED', { status: locked?.status ?? null, actions: listed });

    // restart: recorded only. A target that does reset the locked pod breaks no rule, so the
    // pod is waited for until RUNNING again before stop, which must then meet only the lock.
    const restart = await api.op<Pod>('podAction', { params: { podId: pod.id }, body: { action: 'restart' } });
    if (emu.available) await emu.advance(60_000);
    const afterRestart = await pods.waitFor(pod.id, ['RUNNING'], { maxMs: emu.available ? 0 : undefined });
    observe('POD.LOCKED.CANNOT_RESET', { answer: restart.status, status: afterRestart.seen[0] ?? null, restarted: afterRestart.pod?.startedAt !== locked?.startedAt });
    test.skip(!afterRestart.reached, `the locked pod did not come back to RUNNING after restart (${afterRestart.seen.join(' → ')}): no RUNNING locked pod to stop`);

    const rule = 'POD.LOCKED.CANNOT_STOP';
    const before = afterRestart.pod;
    const res = await api.op<Pod>('podAction', { params: { podId: pod.id }, body: { action: 'stop' } });
    if (emu.available) await emu.advance(60_000);
    const after = (await pods.waitFor(pod.id, ['RUNNING'], { maxMs: 0 })).pod;
    conform(
      rejectionConformance(rule, res, 'client-error'),
      must(after.status === 'RUNNING', rule, `after stop the locked pod is ${after.status}`),
      must(after.startedAt === before.startedAt, rule, `startedAt changed from ${before.startedAt} to ${after.startedAt}: the pod restarted`),
      must(after.locked === true, rule, 'the pod is no longer locked'),
      podConformance(after, { kind: 'cpu' }),
    );

    // What the locked pod lists beside stop and restart must be accepted (it is a valid
    // transition for its status, and the lock concerns neither).
    const now = Array.isArray(after.actions) ? after.actions : [];
    const action = now.find((a) => !LOCK_CONCERNS.includes(a));
    if (action === undefined) {
      unchecked('POD.ACTIONS.LISTED_ACCEPTED', `the locked pod lists no action the lock leaves alone (${JSON.stringify(now)}): no listed action to send`);
      return;
    }
    const accepted = await api.op('podAction', { params: { podId: pod.id }, body: { action } });
    conform(must(accepted.status >= 200 && accepted.status < 300, 'POD.ACTIONS.LISTED_ACCEPTED',
      `the locked RUNNING pod lists ${JSON.stringify(now)}; ${action} answered ${accepted.status} ${accepted.text.slice(0, 200)}`));
  });
});
