import { test } from './support/fixtures.js';
import { conform, must, observe, rules } from '../../support/rules.js';
import { acceptedConformance, statusCodeConformance } from '../../checks/status.js';
import { podConformance } from '../../checks/pod-conformance.js';
import { createdPodConformance } from '../../checks/pod-echo.js';
import { picks, vcpuCounts } from '../../../lib/pod-catalog.js';
import { POD_SHAPE_RULES } from './support/rule-sets.js';
import type { CreateCpuConfig, CreatePodRequest } from '../../../lib/types.gen.js';

// Spec, Endpoints (createPod): "201 | Pod object (status `PROVISIONING`)"; States and
// transitions: "201 returned immediately; `startedAt` null; `runtime` null."
test.describe('createPod: valid requests answer 201 with the pod', () => {
  test('a minimal GPU pod and a minimal CPU pod are both created', rules(
    'SERVICE.POD.GPU_OR_CPU', 'POD.CREATE.201_POD', 'POD.CREATE.CONTAINER_FIELDS_OPTIONAL', 'POD.STATUS.CREATED_PROVISIONING',
    'POD.RESPONSE.STARTED_AT_NULL_ON_CREATE', ...POD_SHAPE_RULES,
  ), async ({ pods }) => {
    for (const [kind, body] of [['gpu', await pods.gpuBody()], ['cpu', await pods.cpuBody()]] as const) {
      const res = await pods.place(body);
      conform(statusCodeConformance('POD.CREATE.201_POD', res, 201), acceptedConformance('SERVICE.POD.GPU_OR_CPU', 'POD.CREATE.201_POD', res, 201),
        acceptedConformance('POD.CREATE.CONTAINER_FIELDS_OPTIONAL', 'POD.CREATE.201_POD', res, 201));
      conform(
        podConformance(res.body, { kind, where: `createPod (${kind}) → 201` }),
        createdPodConformance(body, res.body),
      );
    }
  });

  test('every container field sent is echoed with the values sent', rules('POD.RESPONSE.CONTAINER_CONFIG', 'POD.GPU.RESPONSE', 'POD.CREATE.201_POD'), async ({ pods, uniqueName }) => {
    const gpu = picks(await pods.catalog()).nvidia!;
    const body = await pods.gpuBody({
      name: uniqueName('echo'), args: 'python -m http.server 8888', disk: 37, ports: ['8888/http', '22/tcp'],
      env: { MODEL: 'llama', EMPTY: '' }, registry: null, cloud: 'COMMUNITY', gpu: { id: gpu.id, count: 2 },
    });
    const pod = await pods.created(body);
    // The Pod's shape is the Pod rules' (podConformance attributes each breach), not POD.CREATE.201_POD's.
    conform(createdPodConformance(body, pod), podConformance(pod, { kind: 'gpu' }));
  });

  test('omitted cloud, gpu.count and globalNetworking take the spec\'s defaults', rules(
    'POD.CREATE.CLOUD_DEFAULT_SECURE', 'POD.GPU.COUNT_DEFAULT_1', 'POD.CREATE.GLOBAL_NETWORKING_DEFAULT_FALSE',
  ), async ({ pods }) => {
    const body = await pods.gpuBody();
    const pod = await pods.created(body);
    const fetched = await pods.waitFor(pod.id, ['PROVISIONING', 'STARTING', 'RUNNING'], { maxMs: 0 });
    conform(
      createdPodConformance(body, pod),
      must(fetched.pod?.cloud === 'SECURE', 'POD.CREATE.CLOUD_DEFAULT_SECURE', `getPod reports cloud ${fetched.pod?.cloud}`),
      must(fetched.pod?.gpu?.count === undefined || fetched.pod.gpu.count === 1, 'POD.GPU.COUNT_DEFAULT_1', `getPod reports gpu.count ${fetched.pod?.gpu?.count}`),
    );
  });

  test('a CPU pod sends only flavor and vCPU count; the service derives memory', rules(
    'POD.CPU.MEMORY_DERIVED', 'POD.CPU.ID_FROM_CATALOG', 'POD.CPU.RESPONSE', 'LIMIT.POD.CPU_MEMORY_MIN_1', 'POD.CPU.MEMORY_FORMULA',
  ), async ({ pods }) => {
    const catalog = await pods.catalog();
    const flavors = catalog.cpus.filter((f) => vcpuCounts(f).length > 0);
    test.skip(flavors.length === 0, 'the target\'s CPU catalog lists no usable flavor');
    const formula: unknown[] = [];
    for (const flavor of flavors) {
      const counts = vcpuCounts(flavor);
      const body: CreatePodRequest = { name: `cpc-${flavor.id}`, image: 'busybox:latest', cpu: { id: flavor.id, vcpuCount: counts[counts.length - 1] as CreateCpuConfig['vcpuCount'] } };
      const pod = await pods.created(body);
      conform(createdPodConformance(body, pod), podConformance(pod, { kind: 'cpu' }));
      formula.push({ flavor: flavor.id, vcpuCount: body.cpu!.vcpuCount, ramGbPerVcpu: flavor.ramGbPerVcpu, memory: pod.cpu?.memory,
        matches: pod.cpu?.memory === body.cpu!.vcpuCount * flavor.ramGbPerVcpu });
    }
    observe('POD.CPU.MEMORY_FORMULA', formula);
  });

  test('without dataCenterIds, or with an empty list, the scheduler chooses the data center', rules(
    'POD.CREATE.DATA_CENTER_IDS_SCHEDULER', 'POD.CREATE.DATA_CENTER_IDS_PREFERRED',
  ), async ({ pods }) => {
    for (const dataCenterIds of [undefined, []]) {
      const body = await pods.gpuBody(dataCenterIds ? { dataCenterIds } : {});
      const res = await pods.place(body);
      // A refusal is judged by its status alone: its problem body is no pod to check.
      conform(acceptedConformance('POD.CREATE.DATA_CENTER_IDS_SCHEDULER', 'POD.CREATE.201_POD', res, 201));
      conform(podConformance(res.body));
    }
    const dc = (await pods.catalog()).dataCenters.at(-1);
    test.skip(!dc, 'the target lists no data center');
    const pod = await pods.created(await pods.gpuBody({ dataCenterIds: [dc!.id] }));
    const later = await pods.waitFor(pod.id, ['RUNNING'], { maxMs: 20_000 });
    observe('POD.CREATE.DATA_CENTER_IDS_PREFERRED', { preferred: [dc!.id], created: pod.dataCenterId, later: later.pod?.dataCenterId ?? null });
  });
});
