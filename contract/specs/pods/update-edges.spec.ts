import { test } from './support/fixtures.js';
import type { PodKit } from './support/fixtures.js';
import { conform, creates, must, observe, rules } from '../../support/rules.js';
import { podConformance } from '../../checks/pod-conformance.js';
import { problemJsonConformance } from '../../checks/problem-json.js';
import { picks } from '../../../lib/pod-catalog.js';
import { PROBLEM_RULES } from './support/rule-sets.js';
import type { CreatePodRequest, Pod } from '../../../lib/types.gen.js';
import type { ApiClient } from '../../../lib/client/api.js';
import type { Creates } from '../../../lib/plan.js';
import type { PodPool } from './support/lent.js';

type Picks = ReturnType<typeof picks>;

interface Ineligible {
  title: string;
  rule: string;
  kind: 'gpu' | 'cpu';
  /** Whether the pod must sit in a data center with globalNetwork for the case to mean anything. */
  globalDc: boolean;
  /** Pooled pods of the case's kind, tried in order: the first placed in a data center of the needed kind serves. */
  pools: PodPool[];
  /** The pod the case makes itself (a kind no pool is): none for a case pooled pods serve. */
  body?(p: Picks, pods: PodKit, dcId: string): Promise<CreatePodRequest | undefined>;
  /** What the case creates: its own pod, or the pools it tries. */
  creates: Creates;
}

// Spec, CreatePodRequest rule 5: "`globalNetworking: true` requires an NVIDIA GPU and a data
// center with global networking enabled (both enforced upstream)". However a client asks for it
// (here by updatePod, whose payload and refusal status are not shown), a pod that lacks either
// precondition never ends up globally networked.
//
// A refused PATCH leaves the pod as it was, so a pooled pod serves where one sits in a data
// center of the kind the case needs (the pool's network volume, hence its network pods, in one
// with globalNetwork when the catalog lists one; the persistent GPU pod preferably in one
// without). A non-NVIDIA GPU pod is no pool's: that case makes its own. A case no pooled pod's
// placement fits is skipped rather than make a pod of its own: the plan counts what the run
// makes, and a GPU pod beyond the pooled ones and the non-NVIDIA one would pass the budget
// (POD.CREATE.GLOBAL_NETWORKING_REQUIRES_DATA_CENTER is then decided by createPod, global-networking.spec.ts).
const ineligible: Ineligible[] = [
  {
    title: 'a CPU pod in a data center with globalNetwork', rule: 'POD.CREATE.GLOBAL_NETWORKING_REQUIRES_NVIDIA', kind: 'cpu',
    globalDc: true, pools: ['cpuNetworkPod', 'cpuPod'], creates: { pools: ['cpuNetworkPod', 'cpuPod'] },
  },
  {
    title: 'a non-NVIDIA GPU pod in a data center with globalNetwork', rule: 'POD.CREATE.GLOBAL_NETWORKING_REQUIRES_NVIDIA', kind: 'gpu',
    globalDc: true, pools: [], body: async (p, pods, dcId) => p.nonNvidia && { ...(await pods.gpuBody({ dataCenterIds: [dcId] })), gpu: { id: p.nonNvidia.id } },
    creates: { gpuPods: 1 },
  },
  {
    title: 'an NVIDIA GPU pod in a data center without globalNetwork', rule: 'POD.CREATE.GLOBAL_NETWORKING_REQUIRES_DATA_CENTER', kind: 'gpu',
    globalDc: false, pools: ['gpuPersistentPod', 'gpuPod'], creates: { pools: ['gpuPersistentPod', 'gpuPod'] },
  },
];

/** Where a pod runs: as its answer says, or as a read says when the answer does not tell. */
async function placement(api: ApiClient, pod: Pod): Promise<string | undefined> {
  if (typeof pod.dataCenterId === 'string') return pod.dataCenterId;
  const read = (await api.op<Pod>('getPod', { params: { podId: pod.id } })).body?.dataCenterId;
  return typeof read === 'string' ? read : undefined;
}

test.describe('updatePod: global networking preconditions', () => {
  for (const c of ineligible) {
    test(`PATCH globalNetworking true does not give global networking to ${c.title}`, rules(c.rule, 'POD.UPDATE.MUTABLE_FIELDS', ...PROBLEM_RULES, creates(c.creates)), async ({ api, pods, pools }) => {
      const catalog = await pods.catalog();
      const globalDcs = new Set(catalog.dataCenters.filter((d) => d.globalNetwork).map((d) => d.id));
      const fits = (dcId: string | undefined) => typeof dcId === 'string' && globalDcs.has(dcId) === c.globalDc;
      // A pooled pod serves only in a data center the catalog lists as of the needed kind.
      const listedAs = (dcId: string | undefined) => catalog.dataCenters.find((d) => d.id === dcId)?.globalNetwork === c.globalDc;
      let pod: Pod | undefined;
      let pool: PodPool | undefined;
      for (const name of c.pools) {
        const lent = await pods.pooled(name);
        if (listedAs(await placement(api, lent))) { pod = lent; pool = name; break; }
      }
      test.skip(!pod && !c.body, `setup: no pooled pod (${c.pools.join(', ')}) was placed in a data center ${c.globalDc ? 'with' : 'without'} globalNetwork (dataCenterIds are only preferred)`);
      if (!pod) {
        const p = picks(catalog);
        const dc = c.globalDc ? p.globalDc : p.plainDc;
        test.skip(!dc, 'setup: the target lists no data center of the kind this case needs');
        const body = await c.body!(p, pods, dc!.id);
        test.skip(body === undefined, 'setup: the target\'s catalog offers nothing to build this case from');
        pod = await pods.created(body!);
        const placed = await placement(api, pod);
        test.skip(!fits(placed), `setup: the pod was placed in ${String(placed)}, not in a data center of the kind this case needs`);
      }

      const res = await api.op<Pod>('updatePod', { params: { podId: pod.id }, body: { globalNetworking: true } });
      // An accepted PATCH may have recorded the request on the pooled pod: it is withdrawn afterwards.
      if (pool && res.status >= 200 && res.status < 300) {
        const lentPod = pod;
        pools.restoreAfter(pool, async () => {
          const back = await api.op<Pod>('updatePod', { params: { podId: lentPod.id }, body: { globalNetworking: false } });
          return back.status >= 200 && back.status < 300 && back.body?.globalNetworking?.enabled !== true;
        });
      }
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
