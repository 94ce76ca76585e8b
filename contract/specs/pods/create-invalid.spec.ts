import { test } from './support/fixtures.js';
import { conform, creates, must, observe, rules, titled, unchecked } from '../../support/rules.js';
import { errorBodyConformance, rejectionConformance } from '../../checks/rejection.js';
import type { ExpectedStatus } from '../../checks/status.js';
import { madeNothing, pooledCreate, refusals } from './support/creates.js';
import { schemaVcpuCounts, vcpuCounts, type PodCatalog } from '../../../lib/pod-catalog.js';
import { PROBLEM_RULES } from './support/rule-sets.js';
import type { CpuFlavor, Pod } from '../../../lib/types.gen.js';
import type { ApiResult } from '../../../lib/client/api.js';

type Body = Record<string, unknown>;
const without = (body: Body, key: string): Body => { const { [key]: _gone, ...rest } = body; return rest; };

/** A flavor and a count the request schema allows but the flavor's `vcpu` range does not offer. */
function outOfRange(catalog: PodCatalog): { flavor: CpuFlavor; vcpuCount: number } | undefined {
  for (const flavor of catalog.cpus) {
    const offered = vcpuCounts(flavor);
    const vcpuCount = schemaVcpuCounts().find((n) => !offered.includes(n));
    if (offered.length > 0 && vcpuCount !== undefined) return { flavor, vcpuCount };
  }
  return undefined;
}

interface Case {
  title: string;
  rule: string;
  /** The status the spec states; `client-error` (some 4xx) where it says "not shown". */
  expected: ExpectedStatus;
  base: 'gpu' | 'cpu';
  build(base: Body, catalog: PodCatalog): Body | undefined;
  /** OBSERVED rule recording the status where the spec does not show it. */
  observed?: string;
}

const badRequest: ExpectedStatus = [400, 422];

// Spec, CreatePodRequest, GpuConfig, CPU configuration, Limits. Each case breaks one rule.
const cases: Case[] = [
  { title: 'without name', rule: 'POD.CREATE.NAME_REQUIRED', expected: badRequest, base: 'gpu', build: (b) => without(b, 'name') },
  { title: 'with an empty name', rule: 'POD.CREATE.NAME_MIN_LENGTH_1', expected: badRequest, base: 'gpu', build: (b) => ({ ...b, name: '' }) },
  { title: 'without image', rule: 'POD.CREATE.IMAGE_REQUIRED', expected: badRequest, base: 'gpu', build: (b) => without(b, 'image') },
  { title: 'with an unknown property inside gpu', rule: 'POD.CREATE.GPU_UNKNOWN_PROPERTY', expected: badRequest, base: 'gpu', build: (b) => ({ ...b, gpu: { ...(b.gpu as Body), vram: 24 } }) },
  { title: 'with an unknown property inside cpu', rule: 'POD.CREATE.CPU_UNKNOWN_PROPERTY', expected: badRequest, base: 'cpu', build: (b) => ({ ...b, cpu: { ...(b.cpu as Body), threads: 2 } }) },
  { title: 'with gpu lacking id', rule: 'POD.GPU.ID_REQUIRED', expected: badRequest, base: 'gpu', build: (b) => ({ ...b, gpu: { count: 1 } }) },
  { title: 'with cpu lacking id', rule: 'POD.CPU.ID_REQUIRED', expected: badRequest, base: 'cpu', build: (b) => ({ ...b, cpu: without(b.cpu as Body, 'id') }) },
  { title: 'with an empty cpu.id', rule: 'POD.CPU.ID_REQUIRED', expected: badRequest, base: 'cpu', build: (b) => ({ ...b, cpu: { ...(b.cpu as Body), id: '' } }) },
  { title: 'with cpu lacking vcpuCount', rule: 'POD.CPU.VCPU_REQUIRED', expected: badRequest, base: 'cpu', build: (b) => ({ ...b, cpu: without(b.cpu as Body, 'vcpuCount') }) },
  { title: 'with vcpuCount 1', rule: 'LIMIT.POD.VCPU_MIN_2', expected: badRequest, base: 'cpu', build: (b) => ({ ...b, cpu: { ...(b.cpu as Body), vcpuCount: 1 } }) },
  { title: 'with vcpuCount 6 (not a power of two)', rule: 'POD.CPU.VCPU_POWER_OF_TWO', expected: 'client-error', base: 'cpu', build: (b) => ({ ...b, cpu: { ...(b.cpu as Body), vcpuCount: 6 } }) },
  {
    title: 'with a power-of-two vcpuCount the flavor does not offer', rule: 'POD.CPU.VCPU_VALID_FOR_FLAVOR', expected: 'client-error', base: 'cpu',
    build: (b, c) => { const o = outOfRange(c); return o && { ...b, cpu: { id: o.flavor.id, vcpuCount: o.vcpuCount } }; },
  },
  { title: 'with cpu.memory', rule: 'POD.CPU.MEMORY_NOT_ACCEPTED', expected: badRequest, base: 'cpu', build: (b) => ({ ...b, cpu: { ...(b.cpu as Body), memory: 8 } }) },
  { title: 'with a cpu.id the catalog does not list', rule: 'POD.CPU.UNKNOWN_FLAVOR_REJECTED', expected: 'client-error', base: 'cpu', build: (b) => ({ ...b, cpu: { ...(b.cpu as Body), id: 'cpu-no-such-flavor' } }) },
  { title: 'with disk 0', rule: 'LIMIT.POD.DISK_MIN_1', expected: badRequest, base: 'gpu', build: (b) => ({ ...b, disk: 0 }) },
  { title: 'with gpu.count 0', rule: 'LIMIT.POD.GPU_COUNT_MIN_1', expected: badRequest, base: 'gpu', build: (b) => ({ ...b, gpu: { ...(b.gpu as Body), count: 0 } }) },
  { title: 'with a top-level property CreatePodRequest does not define', rule: 'POD.CREATE.UNKNOWN_PROPERTY_REJECTED', expected: badRequest, base: 'gpu', build: (b) => ({ ...b, volumeInGb: 20 }) },
  { title: 'with a key in mounts other than persistent and network', rule: 'MOUNT.NO_ADDITIONAL_PROPERTIES', expected: badRequest, base: 'gpu', build: (b) => ({ ...b, mounts: { scratch: { size: 10, path: '/s' } } }) },
  { title: 'with disk as a string', rule: 'POD.CREATE.FIELD_TYPES', expected: badRequest, base: 'gpu', build: (b) => ({ ...b, disk: '20' }) },
  { title: 'with a fractional disk', rule: 'POD.CREATE.FIELD_TYPES', expected: badRequest, base: 'gpu', build: (b) => ({ ...b, disk: 20.5 }) },
  { title: 'with ports as a string', rule: 'POD.CREATE.FIELD_TYPES', expected: badRequest, base: 'gpu', build: (b) => ({ ...b, ports: '8888/http' }) },
  { title: 'with a numeric port', rule: 'POD.CREATE.FIELD_TYPES', expected: badRequest, base: 'gpu', build: (b) => ({ ...b, ports: [8888] }) },
  { title: 'with a non-string env value', rule: 'POD.CREATE.FIELD_TYPES', expected: badRequest, base: 'gpu', build: (b) => ({ ...b, env: { WORKERS: 4 } }) },
  { title: 'with a ports entry not of the form <port>/<protocol>', rule: 'POD.CREATE.PORTS_FORMAT', expected: badRequest, base: 'gpu', build: (b) => ({ ...b, ports: ['8888'] }) },
  { title: 'with a cloud other than SECURE or COMMUNITY', rule: 'POD.CREATE.CLOUD_VALUES', expected: badRequest, base: 'gpu', build: (b) => ({ ...b, cloud: 'PRIVATE' }) },
  { title: 'with args as an array', rule: 'POD.CREATE.FIELD_TYPES', expected: badRequest, base: 'gpu', build: (b) => ({ ...b, args: ['--port', '8888'] }) },
  {
    title: 'with both gpu and cpu', rule: 'POD.CREATE.GPU_AND_CPU_REJECTED', expected: 'client-error', base: 'cpu', observed: 'POD.CREATE.GPU_AND_CPU_STATUS',
    build: (b, c) => c.gpus[0] && { ...b, gpu: { id: c.gpus[0].id } },
  },
  { title: 'with neither gpu nor cpu', rule: 'POD.CREATE.NEITHER_GPU_NOR_CPU_REJECTED', expected: 'client-error', base: 'gpu', observed: 'POD.CREATE.NEITHER_GPU_NOR_CPU_STATUS', build: (b) => without(b, 'gpu') },
];

test.describe('createPod: invalid requests are refused with problem+json and create nothing', () => {
  // One test per base body (a GPU pod, a CPU pod): a target without either skips only the cases
  // built on it. Every case is sent with a name of its own and judged on its own answer; one
  // listing afterwards tells which of them made a pod (each listing a request of a rate-limited account).
  for (const kind of ['gpu', 'cpu'] as const) {
    const group = cases.filter((c) => c.base === kind);
    const declared = [...new Set(group.flatMap((c) => [c.rule, ...(c.observed ? [c.observed] : [])]))];
    test(`createPod with a ${kind.toUpperCase()} pod body broken one rule at a time is refused each time and creates nothing (${group.length} cases)`,
      rules(...declared, 'POD.CREATE.ERRORS_HAVE_BODY', ...PROBLEM_RULES), async ({ api, pods, uniqueName }) => {
        const catalog = await pods.catalog();
        const base = (kind === 'gpu' ? await pods.gpuBody() : await pods.cpuBody()) as unknown as Body;
        const built: { c: Case; body: Body; own: boolean }[] = [];
        for (const c of group) {
          const name = uniqueName('bad');
          const body = c.build({ ...base, name }, catalog);
          if (body === undefined) {
            for (const rule of [c.rule, ...(c.observed ? [c.observed] : [])]) unchecked(rule, `the target's catalog offers nothing to build the case "${c.title}" from`);
          } else built.push({ c, body, own: body.name === name });
        }
        // Bodies without a name of the test's own go last: each is then told apart by one listing more (refusals()).
        built.sort((x, y) => Number(y.own) - Number(x.own));
        const refused = refusals({ api, pods, uniqueName });
        const sent: { c: Case; res: ApiResult<Pod> }[] = [];
        for (const { c, body } of built) {
          const res = await refused.send(body, {}, c.title);
          if (c.observed) observe(c.observed, { status: res.status, contentType: res.contentType });
          sent.push({ c, res });
        }
        const made = await refused.madeBy();
        conform(...sent.map(({ c, res }) => titled(c.title, [
          ...rejectionConformance(c.rule, res, c.expected),
          ...errorBodyConformance('POD.CREATE.ERRORS_HAVE_BODY', res),
          ...madeNothing(made, c.title, c.rule),
        ])));
      });
  }

  // Spec, Errors: `errors` holds "Individual request-validation failures, one string each". Two
  // unknown top-level properties are two failures: an `errors` array, when sent, names both.
  test('errors[] has one string per validation failure', rules('ERR.REST_V2.ERRORS_PER_FAILURE', ...PROBLEM_RULES), async ({ api, pods, uniqueName }) => {
    const rule = 'ERR.REST_V2.ERRORS_PER_FAILURE';
    const res = await refusals({ api, pods, uniqueName }).send({ ...(await pods.gpuBody()), colour: 'blue', flavour: 'mint' } as unknown as Body);
    const errors = (res.body as { errors?: unknown } | undefined)?.errors;
    conform(
      rejectionConformance(rule, res, badRequest),
      must(errors === undefined || (Array.isArray(errors) && errors.length >= 2), rule, `two unknown properties were refused with errors ${JSON.stringify(errors)}`),
    );
  });

  test('createPod without a body is refused', rules('POD.CREATE.BODY_REQUIRED', 'POD.CREATE.ERRORS_HAVE_BODY'), async ({ api, pods, uniqueName }) => {
    const refused = refusals({ api, pods, uniqueName });
    const res = await refused.send(undefined, { contentType: 'application/json' });
    conform(rejectionConformance('POD.CREATE.BODY_REQUIRED', res, 'client-error'), await refused.madeNothing('POD.CREATE.BODY_REQUIRED', 'a pod was created'));
  });

  // "CPU flavor identifier as listed by `GET /v2/catalog/cpus`", with a `vcpuCount` that "must be
  // valid for the flavor": a listed flavor with a count its range offers is created. Each count
  // would be a pod of its own; the pooled CPU pod sends its flavor's smallest count, and the
  // container-field pod of create-valid the same flavor's largest: the range's two ends.
  test('a vcpuCount a listed flavor offers is accepted', rules('POD.CPU.ID_FROM_CATALOG', creates({ pools: ['cpuPod'] })), async ({ pods }) => {
    const { sent, pod } = await pooledCreate(pods, 'cpuPod', 'POD.CPU.ID_FROM_CATALOG');
    const flavor = (await pods.catalog()).cpus.find((f) => f.id === sent.cpu!.id)!;
    conform(must(pod.cpu?.id === flavor.id, 'POD.CPU.ID_FROM_CATALOG',
      `vcpuCount ${sent.cpu!.vcpuCount} of ${flavor.id} (range ${flavor.vcpu.min}..${flavor.vcpu.max}) was answered with cpu ${JSON.stringify(pod.cpu)}`));
  });
});
