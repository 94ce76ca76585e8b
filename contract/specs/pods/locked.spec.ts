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
  // One locked CPU pod for the whole story (no rule here is about GPUs): stop must be refused
  // first, then restart is recorded (and must not leave the pod stopped), and last an action the
  // lock leaves alone (terminate, on most targets) must be accepted, which may end the pod.
  test('a locked RUNNING pod: stop is refused and changes nothing, restart is recorded and does not stop it, and the actions it lists beside them are accepted', rules(
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

    // stop first, on the locked RUNNING pod as locked: nothing before it can have moved the pod
    // out of RUNNING, so the check is always made.
    const rule = 'POD.LOCKED.CANNOT_STOP';
    const before = locked;
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

    // restart: recorded ("reset" is not a named action). A target that does restart the locked
    // pod breaks no rule, but one whose restart leaves it stopped has stopped a locked pod.
    const restart = await api.op<Pod>('podAction', { params: { podId: pod.id }, body: { action: 'restart' } });
    if (emu.available) await emu.advance(60_000);
    // Until it settles (RUNNING again, or stopped); a stop seen is given a minute more in real time
    // to come back, in case the target shows a restart as a stop and a start.
    let afterRestart = await pods.waitFor(pod.id, ['RUNNING', 'EXITED', 'ERROR', 'TERMINATED'], { maxMs: emu.available ? 0 : undefined });
    if (!emu.available && afterRestart.pod?.status !== 'RUNNING') afterRestart = await pods.waitFor(pod.id, ['RUNNING'], { maxMs: 60_000 });
    if (afterRestart.pod?.status !== 'RUNNING') afterRestart = { ...afterRestart, reached: false };
    observe('POD.LOCKED.CANNOT_RESET', { answer: restart.status, status: afterRestart.seen[0] ?? null, restarted: afterRestart.pod?.startedAt !== after.startedAt });
    const ended = afterRestart.seen.at(-1);
    conform(must(afterRestart.reached || (ended !== 'EXITED' && ended !== 'TERMINATED'), rule,
      `after restart the locked pod is ${ended} (${afterRestart.seen.join(' → ')}): the restart stopped it`));
    if (!afterRestart.reached) {
      unchecked('POD.ACTIONS.LISTED_ACCEPTED', `the locked pod was not RUNNING after restart (${afterRestart.seen.join(' → ')}): no RUNNING locked pod to send a listed action to`);
      return;
    }

    // What the locked pod lists beside stop and restart must be accepted (it is a valid
    // transition for its status, and the lock concerns neither).
    const now = Array.isArray(afterRestart.pod.actions) ? afterRestart.pod.actions : [];
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
