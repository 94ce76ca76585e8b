import fc from 'fast-check';
import type { Pod } from '../../../lib/types.gen.js';
import { livePod, observe, type PodModel, type PodReal } from './model.js';
import { throwFindings } from '../../../lib/errors.js';
import { isSuccess } from '../../../contract/checks/status.js';

/** updatePod `{locked}`: accepted, and the pod reports the new lock. */
export class LockPodCommand implements fc.AsyncCommand<PodModel, PodReal> {
  constructor(readonly index: number, readonly locked: boolean) {}

  check = (m: Readonly<PodModel>): boolean => livePod(m as PodModel, this.index) !== undefined;

  async run(m: PodModel, r: PodReal): Promise<void> {
    const pod = livePod(m, this.index)!;
    const res = await r.api.op<Pod>('updatePod', { params: { podId: pod.id }, body: { locked: this.locked } });
    throwFindings(isSuccess(res) ? [] : [{ rule: 'POD.RESPONSE.LOCKED', message: `PATCH {locked: ${this.locked}} answered ${res.status}: ${res.text.slice(0, 200)}` }]);
    pod.locked = this.locked;
    if (isSuccess(res) && res.body !== undefined) observe(pod, res.body, `updatePod ${pod.id}`, m.clock);
  }

  toString = (): string => `${this.locked ? 'lock' : 'unlock'}(#${this.index})`;
}

export const lockPodCommand = (): fc.Arbitrary<LockPodCommand> => fc.tuple(fc.nat(7), fc.boolean()).map(([i, l]) => new LockPodCommand(i, l));
