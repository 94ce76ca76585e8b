import { test } from './support/fixtures.js';
import { conform, creates, must, observe, rules } from '../../support/rules.js';
import { acceptedConformance, statusCodeConformance } from '../../checks/status.js';
import { podConformance } from '../../checks/pod-conformance.js';
import { createdPodConformance } from '../../checks/pod-echo.js';
import { vcpuCounts } from '../../../lib/pod-catalog.js';
import { POD_SHAPE_RULES } from './support/rule-sets.js';
import { pooledCreate } from './support/creates.js';
import type { CreateCpuConfig } from '../../../lib/types.gen.js';

// Spec, Endpoints (createPod): "201 | Pod object (status `PROVISIONING`)"; States and
// transitions: "201 returned immediately; `startedAt` null; `runtime` null."
//
// The pooled pods (lib/plan.ts) are valid creates of the kinds these rules speak of: a minimal
// GPU pod (name, image, args, `gpu`) and a minimal CPU pod (name, image, args, `cpu` with a
// flavor and a vCPU count), nothing else sent. Their 201 answers are judged here as a create of
// the test's own would be; one CPU pod of this file's own carries everything the pools do not
// send (every container field, an empty `dataCenterIds`, the flavor's largest vCPU count).
test.describe('createPod: valid requests answer 201 with the pod', () => {
  test('a minimal GPU pod and a minimal CPU pod are both created', rules(
    'SERVICE.POD.GPU_OR_CPU', 'POD.CREATE.201_POD', 'POD.CREATE.CONTAINER_FIELDS_OPTIONAL', 'POD.STATUS.CREATED_PROVISIONING',
    'POD.RESPONSE.STARTED_AT_NULL_ON_CREATE', ...POD_SHAPE_RULES, creates({ pools: ['gpuPod', 'cpuPod'] }),
  ), async ({ pods }) => {
    for (const [kind, pool] of [['gpu', 'gpuPod'], ['cpu', 'cpuPod']] as const) {
      // "dedicated GPU or CPU container instances"; "Container configuration fields (all optional by the schema unless stated)".
      const { sent, pod } = await pooledCreate(pods, pool, 'SERVICE.POD.GPU_OR_CPU', 'POD.CREATE.CONTAINER_FIELDS_OPTIONAL');
      conform(
        podConformance(pod, { kind, where: `createPod (${kind}) → 201` }),
        createdPodConformance(sent, pod),
      );
    }
  });

  // One CPU pod carries what no pooled pod sends, the rules not interfering: every container field
  // (spec: "A pod combines the container configuration fields with the fields below"), an empty
  // `dataCenterIds` ("omit or pass an empty array to let the scheduler choose") and the largest
  // vCPU count its flavor offers (the pooled CPU pod has the smallest: "CPU flavor identifier as
  // listed by `GET /v2/catalog/cpus`" with a count "valid for the flavor"). The GPU object's echo
  // ("`id` | string | yes | GPU type identifier") is judged on the pooled GPU pod's answer.
  test('every container field sent is echoed with the values sent, on a CPU pod with an empty dataCenterIds', rules(
    'POD.RESPONSE.CONTAINER_CONFIG', 'POD.GPU.RESPONSE', 'POD.CREATE.201_POD', 'POD.CREATE.DATA_CENTER_IDS_SCHEDULER', 'POD.CPU.ID_FROM_CATALOG',
    'POD.CPU.MEMORY_DERIVED', creates({ cpuPods: 1, pools: ['gpuPod'] }),
  ), async ({ pods, uniqueName }) => {
    const gpu = await pooledCreate(pods, 'gpuPod');
    conform(createdPodConformance(gpu.sent, gpu.pod), podConformance(gpu.pod, { kind: 'gpu' }));

    const base = await pods.cpuBody();
    const flavor = (await pods.catalog()).cpus.find((f) => f.id === base.cpu!.id)!;
    const body = {
      ...base, name: uniqueName('echo'), args: 'python -m http.server 8888', disk: 17, ports: ['8888/http', '22/tcp'],
      env: { MODEL: 'llama', EMPTY: '' }, registry: null, dataCenterIds: [],
      cpu: { id: flavor.id, vcpuCount: vcpuCounts(flavor).at(-1)! as CreateCpuConfig['vcpuCount'] },
    };
    const res = await pods.create(body);
    // A refusal breaks what each part of the body stood for: a valid create, and the empty list.
    conform(statusCodeConformance('POD.CREATE.201_POD', res, 201),
      acceptedConformance('POD.CREATE.DATA_CENTER_IDS_SCHEDULER', 'POD.CREATE.201_POD', res, 201, 'createPod of a CPU pod with every container field and dataCenterIds []'));
    // The Pod's shape is the Pod rules' (podConformance attributes each breach), not POD.CREATE.201_POD's.
    conform(createdPodConformance(body, res.body), podConformance(res.body, { kind: 'cpu' }));
  });

  test('omitted cloud, gpu.count and globalNetworking take the spec\'s defaults', rules(
    'POD.CREATE.CLOUD_DEFAULT_SECURE', 'POD.GPU.COUNT_DEFAULT_1', 'POD.CREATE.GLOBAL_NETWORKING_DEFAULT_FALSE', creates({ pools: ['gpuPod'] }),
  ), async ({ pods }) => {
    // The pooled GPU pod sends none of the three: its answer and a read of it show the defaults.
    const { sent, pod } = await pooledCreate(pods, 'gpuPod');
    const fetched = await pods.waitFor(pod.id, ['PROVISIONING', 'STARTING', 'RUNNING'], { maxMs: 0 });
    conform(
      createdPodConformance(sent, pod),
      must(fetched.pod?.cloud === 'SECURE', 'POD.CREATE.CLOUD_DEFAULT_SECURE', `getPod reports cloud ${fetched.pod?.cloud}`),
      must(fetched.pod?.gpu?.count === undefined || fetched.pod.gpu.count === 1, 'POD.GPU.COUNT_DEFAULT_1', `getPod reports gpu.count ${fetched.pod?.gpu?.count}`),
    );
  });

  // "`cloud` | string (Cloud) | no | Default `SECURE`" with `COMMUNITY` the other value; GpuConfig
  // "`count` | integer | no | Minimum 1, default 1". The pooled persistent GPU pod (a deployment's
  // one pod with these values; contract/specs/pods/support/fixtures.ts POOLED) asks for COMMUNITY
  // hardware and 2 GPUs: its answer and a read of it keep both, so a target that ignores either fails.
  test('cloud COMMUNITY and gpu.count 2 are created as sent', rules(
    'POD.CREATE.201_POD', 'POD.GPU.RESPONSE', creates({ pools: ['gpuPersistentPod'] }),
  ), async ({ pods }) => {
    const { sent, pod } = await pooledCreate(pods, 'gpuPersistentPod', 'POD.GPU.RESPONSE');
    const read = (await pods.waitFor(pod.id, [], { maxMs: 0 })).pod;
    conform(
      createdPodConformance(sent, pod), podConformance(pod, { kind: 'gpu' }),
      // The create's echo of what was sent (pod-echo.ts lays a cloud answered otherwise to the create itself).
      must(pod.cloud === 'COMMUNITY' && read?.cloud === 'COMMUNITY', 'POD.CREATE.201_POD', `cloud COMMUNITY sent; createPod answered ${JSON.stringify(pod.cloud)}, getPod ${JSON.stringify(read?.cloud)}`),
      must(pod.gpu?.count === 2 && read?.gpu?.count === 2, 'POD.GPU.RESPONSE', `gpu.count 2 sent; createPod answered ${JSON.stringify(pod.gpu?.count)}, getPod ${JSON.stringify(read?.gpu?.count)}`),
    );
  });

  // "For CPU pods the memory is derived by the service from the CPU flavor's RAM multiplier; the
  // client sends only the flavor and the vCPU count." The pooled CPU pod sends just that.
  test('a CPU pod sends only flavor and vCPU count; the service derives memory', rules(
    'POD.CPU.MEMORY_DERIVED', 'POD.CPU.ID_FROM_CATALOG', 'POD.CPU.RESPONSE', 'LIMIT.POD.CPU_MEMORY_MIN_1', 'POD.CPU.MEMORY_FORMULA', creates({ pools: ['cpuPod'] }),
  ), async ({ pods }) => {
    const { sent, pod } = await pooledCreate(pods, 'cpuPod');
    const flavor = (await pods.catalog()).cpus.find((f) => f.id === sent.cpu!.id)!;
    conform(createdPodConformance(sent, pod), podConformance(pod, { kind: 'cpu' }));
    observe('POD.CPU.MEMORY_FORMULA', [{ flavor: flavor.id, vcpuCount: sent.cpu!.vcpuCount, ramGbPerVcpu: flavor.ramGbPerVcpu, memory: pod.cpu?.memory,
      matches: pod.cpu?.memory === sent.cpu!.vcpuCount * flavor.ramGbPerVcpu }]);
  });

  // "omit or pass an empty array to let the scheduler choose": the pooled GPU pod omits
  // `dataCenterIds` (the empty array is sent by the container-field pod above). "Preferred data
  // centers": the pooled network CPU pod names one, its volume's, and where it runs is recorded.
  test('without dataCenterIds the scheduler chooses the data center; where a preferred one places the pod is recorded', rules(
    'POD.CREATE.DATA_CENTER_IDS_SCHEDULER', 'POD.CREATE.DATA_CENTER_IDS_PREFERRED', creates({ pools: ['gpuPod', 'cpuNetworkPod'] }),
  ), async ({ pods }) => {
    const { pod } = await pooledCreate(pods, 'gpuPod', 'POD.CREATE.DATA_CENTER_IDS_SCHEDULER');
    conform(podConformance(pod));
    const preferred = await pooledCreate(pods, 'cpuNetworkPod');
    const later = await pods.waitFor(preferred.pod.id, ['RUNNING'], { maxMs: 20_000 });
    observe('POD.CREATE.DATA_CENTER_IDS_PREFERRED', { preferred: preferred.sent.dataCenterIds, created: preferred.pod.dataCenterId, later: later.pod?.dataCenterId ?? null });
  });
});
