import fc from 'fast-check';
import type { Pod } from '../../../lib/types.gen.js';
import { statusCodeConformance } from '../../../contract/checks/status.js';
import { livePod, observe, type PodModel, type PodReal } from './model.js';
import { throwFindings } from '../../../lib/errors.js';

/** getPod: 200, and the pod agrees with the model (status moved forward only, mounts, lock). */
export class GetPodCommand implements fc.AsyncCommand<PodModel, PodReal> {
  constructor(readonly index: number) {}

  check = (m: Readonly<PodModel>): boolean => livePod(m as PodModel, this.index) !== undefined;

  async run(m: PodModel, r: PodReal): Promise<void> {
    const pod = livePod(m, this.index)!;
    const res = await r.api.op<Pod>('getPod', { params: { podId: pod.id } });
    throwFindings(statusCodeConformance('POD.CREATE.READINESS_VIA_GET_POD', res, 'success'));
    observe(pod, res.body, `getPod ${pod.id}`, m.clock);
  }

  toString = (): string => `getPod(#${this.index})`;
}

export const getPodCommand = (): fc.Arbitrary<GetPodCommand> => fc.nat(7).map((i) => new GetPodCommand(i));
