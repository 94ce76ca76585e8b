import { test } from './support/fixtures.js';
import type { PodKit } from './support/fixtures.js';
import { conform, must, observe, rules } from '../../support/rules.js';
import { podConformance } from '../../checks/pod-conformance.js';
import { problemJsonConformance } from '../../checks/problem-json.js';
import { picks } from '../../../lib/pod-catalog.js';
import { PROBLEM_RULES } from './support/rule-sets.js';
import type { CreatePodRequest, Pod } from '../../../lib/types.gen.js';

type Picks = ReturnType<typeof picks>;

interface Ineligible {
  title: string;
  rule: string;
  kind: 'gpu' | 'cpu';
  /** Whether the pod must sit in a data center with globalNetwork for the case to mean anything. */
  globalDc: boolean;
  body(p: Picks, pods: PodKit, dcId: string): Promise<CreatePodRequest | undefined>;
}

// Spec, CreatePodRequest rule 5: "`globalNetworking: true` requires an NVIDIA GPU and a data
// center with global networking enabled (both enforced upstream)". However a client asks for it
// (here by updatePod, whose payload and refusal status are not shown), a pod that lacks either
// precondition never ends up globally networked.
const ineligible: Ineligible[] = [
  {
    title: 'a CPU pod in a data center with globalNetwork', rule: 'POD.CREATE.GLOBAL_NETWORKING_REQUIRES_NVIDIA', kind: 'cpu',
    globalDc: true, body: async (_p, pods, dcId) => pods.cpuBody({ dataCenterIds: [dcId] }),
  },
  {
    title: 'a non-NVIDIA GPU pod in a data center with globalNetwork', rule: 'POD.CREATE.GLOBAL_NETWORKING_REQUIRES_NVIDIA', kind: 'gpu',
    globalDc: true, body: async (p, pods, dcId) => p.nonNvidia && { ...(await pods.gpuBody({ dataCenterIds: [dcId] })), gpu: { id: p.nonNvidia.id } },
  },
  {
    title: 'an NVIDIA GPU pod in a data center without globalNetwork', rule: 'POD.CREATE.GLOBAL_NETWORKING_REQUIRES_DATA_CENTER', kind: 'gpu',
    globalDc: false, body: async (_p, pods, dcId) => pods.gpuBody({ dataCenterIds: [dcId] }),
  },
];

test.describe('updatePod: global networking preconditions', () => {
  for (const c of ineligible) {
    test(`PATCH globalNetworking true does not give global networking to ${c.title}`, rules(c.rule, 'POD.UPDATE.MUTABLE_FIELDS', ...PROBLEM_RULES), async ({ api, pods }) => {
      const catalog = await pods.catalog();
      const p = picks(catalog);
      const dc = c.globalDc ? p.globalDc : p.plainDc;
      test.skip(!dc, 'setup: the target lists no data center of the kind this case needs');
      const body = await c.body(p, pods, dc!.id);
      test.skip(body === undefined, 'setup: the target\'s catalog offers nothing to build this case from');
      const pod = await pods.created(body!);
      const placed = (await api.op<Pod>('getPod', { params: { podId: pod.id } })).body?.dataCenterId ?? pod.dataCenterId;
      const globalDcs = new Set(catalog.dataCenters.filter((d) => d.globalNetwork).map((d) => d.id));
      test.skip(typeof placed !== 'string' || globalDcs.has(placed) !== c.globalDc,
        `setup: the pod was placed in ${String(placed)}, not in a data center of the kind this case needs`);

      const res = await api.op<Pod>('updatePod', { params: { podId: pod.id }, body: { globalNetworking: true } });
      const after = (await api.op<Pod>('getPod', { params: { podId: pod.id } })).body;
      observe('POD.UPDATE.MUTABLE_FIELDS', { case: `globalNetworking true on ${c.title}`, status: res.status, enabled: after?.globalNetworking?.enabled });
      const ok = res.status >= 200 && res.status < 300;
      conform(
        must(!(ok && res.body?.globalNetworking?.enabled === true), c.rule, `PATCH answered ${res.status} with globalNetworking ${JSON.stringify(res.body?.globalNetworking)}`),
        must(after?.globalNetworking?.enabled !== true, c.rule, `after PATCH (${res.status}) getPod reports globalNetworking ${JSON.stringify(after?.globalNetworking)}`),
        res.status >= 400 ? problemJsonConformance(res) : [],
        podConformance(after, { kind: c.kind, where: 'getPod after PATCH globalNetworking true' }),
      );
    });
  }
});
