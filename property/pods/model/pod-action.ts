import fc from 'fast-check';
import type { Pod, PodAction } from '../../../lib/types.gen.js';
import { rejectionConformance } from '../../../contract/checks/rejection.js';
import { isSuccess, statusCodeConformance } from '../../../contract/checks/status.js';
import { livePod, observe, type ModelPod, type PodModel, type PodReal } from './model.js';
import { throwFindings } from '../../../lib/errors.js';

// "A locked pod cannot be stopped or reset": stop is a named action; "reset" is not, so what a
// locked pod does with restart is learned from the answer like any other action's effect.
const LOCK_RULE: Partial<Record<PodAction, string>> = { stop: 'POD.LOCKED.CANNOT_STOP' };
// The actions a lock concerns ("cannot be stopped or reset", restart read as reset): a locked
// pod that lists restart may still refuse it, or accept it; either answer is legal.
const LOCK_MAY_REFUSE: readonly PodAction[] = ['restart'];

async function read(r: PodReal, m: PodModel, pod: ModelPod, where: string): Promise<Pod> {
  const res = await r.api.op<Pod>('getPod', { params: { podId: pod.id } });
  throwFindings(statusCodeConformance('POD.CREATE.READINESS_VIA_GET_POD', res, 'success').map((f) => ({ ...f, message: `${where}: ${f.message}` })));
  observe(pod, res.body, where, m.clock);
  return res.body;
}

/**
 * podAction: a locked pod refuses stop with a 4xx problem and stays as it was
 * (spec: "A locked pod cannot be stopped or reset."); an action the pod lists in `actions`
 * ("Valid state transitions for the current status") is accepted. The effect of an accepted
 * action is not shown, so the model learns it from the answer.
 */
export class PodActionCommand implements fc.AsyncCommand<PodModel, PodReal> {
  constructor(readonly index: number, readonly action: PodAction) {}

  check = (m: Readonly<PodModel>): boolean => livePod(m as PodModel, this.index) !== undefined;

  async run(m: PodModel, r: PodReal): Promise<void> {
    const pod = livePod(m, this.index)!;
    const before = await read(r, m, pod, `getPod ${pod.id} before ${this.action}`);
    const res = await r.api.op<Pod>('podAction', { params: { podId: pod.id }, body: { action: this.action } });
    const lockRule = pod.locked ? LOCK_RULE[this.action] : undefined;
    if (lockRule) {
      throwFindings(rejectionConformance(lockRule, res, 'client-error'));
      const after = await read(r, m, pod, `getPod ${pod.id} after a refused ${this.action}`);
      throwFindings(before.status === 'RUNNING' && after.status === 'RUNNING' && after.startedAt !== before.startedAt
        ? [{ rule: lockRule, message: `startedAt moved from ${before.startedAt} to ${after.startedAt}: the locked pod restarted` }] : []);
      return;
    }
    const lockMayRefuse = pod.locked && LOCK_MAY_REFUSE.includes(this.action);
    if (before.actions.includes(this.action) && !lockMayRefuse) {
      throwFindings(res.status >= 200 && res.status < 300 ? [] : [{ rule: 'POD.ACTIONS.LISTED_ACCEPTED', message: `${this.action} is listed for a ${before.status} pod but answered ${res.status}: ${res.text.slice(0, 200)}` }]);
    } else if (Array.isArray(before.actions) && !before.actions.includes(this.action)) {
      // Not listed: not a valid transition for the current status, so it is refused.
      throwFindings(res.status >= 400 && res.status < 500 ? [] : [{ rule: 'POD.ACTIONS.UNLISTED_REFUSED', message: `${this.action} is not listed for a ${before.status} pod (${JSON.stringify(before.actions)}) but answered ${res.status}: ${res.text.slice(0, 200)}` }]);
    }
    if (res.status >= 200 && res.status < 300) pod.since = m.clock;
    if (res.status === 204 && this.action === 'terminate') pod.status = 'TERMINATED';
    else if (isSuccess(res) && res.body !== undefined) observe(pod, res.body, `podAction ${this.action} → ${res.status}`, m.clock, false);
  }

  toString = (): string => `${this.action}(#${this.index})`;
}

export const podActionCommand = (): fc.Arbitrary<PodActionCommand> =>
  fc.tuple(fc.nat(7), fc.constantFrom<PodAction>('start', 'stop', 'restart', 'terminate')).map(([i, a]) => new PodActionCommand(i, a));
