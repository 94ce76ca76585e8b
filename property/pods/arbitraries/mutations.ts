import fc from 'fast-check';
import type { PodContext } from '../support/context.js';
import { cpuConfig } from './compute.js';
import { enumOf, minimumOf, propertiesOf, requiredOf } from './schema-facts.js';
import { mountPath } from './valid-create-pod-request.js';

export type Body = Record<string, unknown>;
export type Need = 'gpu' | 'cpu' | 'volumes' | 'cpu-flavors';
/** What the spec states for the broken rule: a status, a set, or "some 4xx" where it says "not shown". */
export type Expected = number | readonly number[] | 'client-error';

/** One labelled way to break exactly one rule of a valid CreatePodRequest. */
export interface Mutation {
  label: string;
  rule: string;
  expected: Expected;
  /** What the mutation needs: a GPU or a CPU body to start from, volumes, CPU flavors in the catalog. */
  needs: readonly Need[];
  mutate(body: Body, ctx: PodContext): fc.Arbitrary<Body>;
}

const VALIDATION: Expected = [400, 422];
const REQ = 'create-pod-request' as const;
const without = (b: Body, ...keys: string[]): Body => Object.fromEntries(Object.entries(b).filter(([k]) => !keys.includes(k)));
const gpuOf = (b: Body) => b.gpu as Body | undefined;
const cpuOf = (b: Body) => b.cpu as Body | undefined;
const mountsOf = (b: Body) => b.mounts as { persistent?: Body; network?: Body[] } | undefined;
/** A body whose mounts no longer tie it to a data center or a network setting. */
const unplaced = (b: Body): Body => without(b, 'mounts', 'dataCenterIds', 'globalNetworking');

/** Builds an arbitrary once per key: compiling them per draw would dominate a run's time. */
function memo<K, T>(make: (key: K) => T): (key: K) => T {
  const made = new Map<K, T>();
  return (key) => { if (!made.has(key)) made.set(key, make(key)); return made.get(key)!; };
}

type ClosedSchema = 'create-pod-request' | 'gpu-config' | 'cpu-config-request' | 'mounts' | 'persistent-mount' | 'network-mount';
/**
 * Names a live deployment accepts beyond the spec's (schemas/create-pod-live-fields): a legal
 * superset, so never sent as "unknown".
 */
const liveNames = memo((schema: ClosedSchema): readonly string[] =>
  schema === 'create-pod-request' ? propertiesOf('create-pod-live-fields', '') : schema === 'gpu-config' ? propertiesOf('create-pod-live-fields', '/properties/gpu') : []);
/** A property name the closed schema does not define. */
const unknownKey = memo((schema: ClosedSchema) =>
  fc.stringMatching(/^[a-zA-Z][a-zA-Z0-9]{0,10}$/).filter((k) => !propertiesOf(schema, '').includes(k) && !liveNames(schema).includes(k) && k !== 'memory'));
const JUNK: fc.Arbitrary<unknown> = fc.oneof(fc.integer(), fc.string({ maxLength: 8 }), fc.boolean(), fc.constant(null));
const junk = (): fc.Arbitrary<unknown> => JUNK;
type JsonType = 'string' | 'integer' | 'boolean' | 'array' | 'object' | 'null';
/** A JSON value that is not of the named types. */
const notA = memo((types: JsonType) => fc.oneof(
  ...(types !== 'string' ? [fc.string({ maxLength: 6 })] : []),
  ...(types !== 'integer' ? [fc.integer()] : [fc.double({ noNaN: true, noDefaultInfinity: true }).filter((d) => !Number.isInteger(d))]),
  ...(types !== 'boolean' ? [fc.boolean()] : []),
  ...(types !== 'array' ? [fc.array(fc.integer(), { maxLength: 2 })] : []),
  ...(types !== 'object' ? [fc.constant({ x: 1 })] : []),
  fc.constant(null),
));
const volumeMount = memo((ctx: PodContext) => fc.tuple(fc.constantFrom(...ctx.volumes), mountPath()).map(([v, path]) => ({ volumeId: v.id, path })));
// Built on first use, as the mount path it draws from (a process that only lists the tests never draws).
let persistent: fc.Arbitrary<{ size: number; path: string }> | undefined;
const persistentMount = () => (persistent ??= fc.record({ size: fc.integer({ min: minimumOf('persistent-mount', '/properties/size'), max: 500 }), path: mountPath() }, { noNullPrototype: true }));

/**
 * Every rule the issue lists, broken one at a time (spec, CreatePodRequest, GpuConfig, CPU
 * configuration, Mounts, Errors). `expected` is the spec's status: 400 for "both present",
 * 422 for "an incomplete mount entry", 400 or 422 for other validation failures, and some 4xx
 * where the spec says "not shown".
 */
export const MUTATIONS: readonly Mutation[] = [
  { label: 'missing name', rule: 'POD.CREATE.NAME_REQUIRED', expected: VALIDATION, needs: [], mutate: (b) => fc.constant(without(b, 'name')) },
  { label: 'empty name', rule: 'POD.CREATE.NAME_MIN_LENGTH_1', expected: VALIDATION, needs: [], mutate: (b) => fc.constant({ ...b, name: '' }) },
  { label: 'missing image', rule: 'POD.CREATE.IMAGE_REQUIRED', expected: VALIDATION, needs: [], mutate: (b) => fc.constant(without(b, 'image')) },
  {
    label: 'both gpu and cpu', rule: 'POD.CREATE.GPU_AND_CPU_REJECTED', expected: 'client-error', needs: ['gpu', 'cpu-flavors'],
    mutate: (b, c) => cpuConfig(c.catalog.cpus).map((cpu) => ({ ...unplaced(b), cpu })),
  },
  { label: 'neither gpu nor cpu', rule: 'POD.CREATE.NEITHER_GPU_NOR_CPU_REJECTED', expected: 'client-error', needs: [], mutate: (b) => fc.constant(without(unplaced(b), 'gpu', 'cpu')) },
  { label: 'unknown root property', rule: 'POD.CREATE.UNKNOWN_PROPERTY_REJECTED', expected: VALIDATION, needs: [], mutate: (b) => fc.tuple(unknownKey(REQ), junk()).map(([k, v]) => ({ ...b, [k]: v })) },
  { label: 'unknown property in gpu', rule: 'POD.CREATE.GPU_UNKNOWN_PROPERTY', expected: VALIDATION, needs: ['gpu'], mutate: (b) => fc.tuple(unknownKey('gpu-config'), junk()).map(([k, v]) => ({ ...b, gpu: { ...gpuOf(b), [k]: v } })) },
  { label: 'unknown property in cpu', rule: 'POD.CREATE.CPU_UNKNOWN_PROPERTY', expected: VALIDATION, needs: ['cpu'], mutate: (b) => fc.tuple(unknownKey('cpu-config-request'), junk()).map(([k, v]) => ({ ...b, cpu: { ...cpuOf(b), [k]: v } })) },
  { label: 'unknown property in mounts', rule: 'MOUNT.NO_ADDITIONAL_PROPERTIES', expected: VALIDATION, needs: [], mutate: (b) => fc.tuple(unknownKey('mounts'), junk()).map(([k, v]) => ({ ...b, mounts: { ...mountsOf(b), [k]: v } })) },
  { label: 'unknown property in the persistent mount', rule: 'MOUNT.PERSISTENT.NO_ADDITIONAL_PROPERTIES', expected: VALIDATION, needs: ['gpu'], mutate: (b) => fc.tuple(persistentMount(), unknownKey('persistent-mount'), junk()).map(([p, k, v]) => ({ ...unplaced(b), mounts: { persistent: { ...p, [k]: v } } })) },
  { label: 'unknown property in a network mount', rule: 'MOUNT.NETWORK.NO_ADDITIONAL_PROPERTIES', expected: VALIDATION, needs: ['volumes'], mutate: (b, c) => fc.tuple(volumeMount(c), unknownKey('network-mount'), junk()).map(([m, k, v]) => ({ ...unplaced(b), mounts: { network: [{ ...m, [k]: v }] } })) },
  { label: 'gpu.count below its minimum', rule: 'LIMIT.POD.GPU_COUNT_MIN_1', expected: VALIDATION, needs: ['gpu'], mutate: (b) => fc.integer({ min: -8, max: minimumOf('gpu-config', '/properties/count') - 1 }).map((count) => ({ ...b, gpu: { ...gpuOf(b), count } })) },
  { label: 'vcpuCount below 2', rule: 'LIMIT.POD.VCPU_MIN_2', expected: VALIDATION, needs: ['cpu'], mutate: (b) => fc.integer({ min: -8, max: minimumOf('cpu-config-request', '/properties/vcpuCount') - 1 }).map((vcpuCount) => ({ ...b, cpu: { ...cpuOf(b), vcpuCount } })) },
  {
    label: 'vcpuCount not a power of two', rule: 'POD.CPU.VCPU_POWER_OF_TWO', expected: 'client-error', needs: ['cpu'],
    mutate: (b, c) => {
      const flavor = c.catalog.cpus.find((f) => f.id === cpuOf(b)!.id)!;
      const powers = enumOf<number>('cpu-config-request', '/properties/vcpuCount');
      return fc.integer({ min: Math.max(flavor.vcpu.min, minimumOf('cpu-config-request', '/properties/vcpuCount')), max: flavor.vcpu.max })
        .filter((n) => !powers.includes(n)).map((vcpuCount) => ({ ...b, cpu: { ...cpuOf(b), vcpuCount } }));
    },
  },
  { label: 'cpu.memory sent', rule: 'POD.CPU.MEMORY_NOT_ACCEPTED', expected: VALIDATION, needs: ['cpu'], mutate: (b) => fc.integer({ min: 1, max: 512 }).map((memory) => ({ ...b, cpu: { ...cpuOf(b), memory } })) },
  { label: 'both mount kinds', rule: 'MOUNT.BOTH_KINDS_400', expected: 400, needs: ['gpu', 'volumes'], mutate: (b, c) => fc.tuple(persistentMount(), volumeMount(c)).map(([p, n]) => ({ ...unplaced(b), mounts: { persistent: p, network: [n] } })) },
  { label: 'two network mounts', rule: 'LIMIT.POD.NETWORK_MAX_1', expected: VALIDATION, needs: ['volumes'], mutate: (b, c) => fc.tuple(volumeMount(c), mountPath()).map(([n, path]) => ({ ...unplaced(b), mounts: { network: [n, { ...n, path }] } })) },
  { label: 'persistent size below its minimum', rule: 'LIMIT.POD.PERSISTENT_SIZE_MIN_10', expected: VALIDATION, needs: ['gpu'], mutate: (b) => fc.tuple(fc.integer({ min: -5, max: minimumOf('persistent-mount', '/properties/size') - 1 }), mountPath()).map(([size, path]) => ({ ...unplaced(b), mounts: { persistent: { size, path } } })) },
  { label: 'persistent mount on a CPU pod', rule: 'MOUNT.PERSISTENT.CPU_INVALID', expected: VALIDATION, needs: ['cpu'], mutate: (b) => persistentMount().map((persistent) => ({ ...unplaced(b), mounts: { persistent } })) },
  {
    label: 'incomplete persistent mount', rule: 'ERR.CREATE_POD.422_INCOMPLETE_MOUNT', expected: 422, needs: ['gpu'],
    mutate: (b) => fc.tuple(persistentMount(), fc.constantFrom(...requiredOf('persistent-mount', ''))).map(([p, drop]) => ({ ...unplaced(b), mounts: { persistent: without(p, drop) } })),
  },
  {
    label: 'incomplete network mount', rule: 'ERR.CREATE_POD.422_INCOMPLETE_MOUNT', expected: 422, needs: ['volumes'],
    mutate: (b, c) => fc.tuple(volumeMount(c), fc.constantFrom(...requiredOf('network-mount', ''))).map(([n, drop]) => ({ ...unplaced(b), mounts: { network: [without(n, drop)] } })),
  },
  {
    label: 'a field of the wrong type', rule: 'POD.CREATE.FIELD_TYPES', expected: VALIDATION, needs: [],
    mutate: (b) => fc.oneof(
      notA('string').map((v) => ({ ...b, args: v })),
      notA('integer').map((v) => ({ ...b, disk: v })),
      notA('array').map((v) => ({ ...b, ports: v })),
      notA('string').map((v) => ({ ...b, env: { KEY: v } })),
      notA('string').filter((v) => v !== null).map((v) => ({ ...b, registry: v })),
      notA('string').map((v) => ({ ...b, image: v })),
      notA('string').map((v) => ({ ...b, name: v })),
    ),
  },
];
