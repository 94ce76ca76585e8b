import { isDeepStrictEqual } from 'node:util';
import type { CreatePodRequest, Pod } from '../../lib/types.gen.js';
import { schemaOf } from '../../lib/schema-registry.js';
import type { Finding } from '../support/rules.js';

/** A default the request schema states (`default`), read from the schema, never copied by hand. */
function schemaDefault(pointer: readonly string[]): unknown {
  let node: unknown = schemaOf('create-pod-request');
  for (const key of pointer) node = (node as Record<string, unknown> | undefined)?.[key];
  return (node as { default?: unknown } | undefined)?.default;
}

const same = (a: unknown, b: unknown): boolean => isDeepStrictEqual(a, b);
const show = (v: unknown): string => JSON.stringify(v) ?? 'undefined';

/**
 * The 201 of createPod echoes the request with the spec's defaults applied (spec,
 * CreatePodRequest and Pod): the container configuration sent; `cloud` (default `SECURE`);
 * `gpu.id` and `gpu.count` (default 1) or `cpu.id` and `vcpuCount`; the mounts sent;
 * `globalNetworking.enabled` false when global networking was not asked for (default false); and the initial
 * state: `PROVISIONING`, `startedAt` null, `runtime` null.
 */
export function createdPodConformance(sent: CreatePodRequest, pod: Pod): Finding[] {
  const f: Finding[] = [];
  const check = (ok: boolean, rule: string, message: string) => { if (!ok) f.push({ rule, message }); };

  for (const field of ['name', 'image', 'args', 'disk', 'ports', 'env', 'registry'] as const) {
    if (sent[field] !== undefined) check(same(pod[field], sent[field]), 'POD.RESPONSE.CONTAINER_CONFIG', `${field} sent ${show(sent[field])}, answered ${show(pod[field])}`);
  }
  const cloud = sent.cloud ?? schemaDefault(['properties', 'cloud']);
  check(pod.cloud === cloud, sent.cloud === undefined ? 'POD.CREATE.CLOUD_DEFAULT_SECURE' : 'POD.CREATE.201_POD', `cloud ${sent.cloud === undefined ? 'omitted' : `sent ${sent.cloud}`}, answered ${show(pod.cloud)} (expected ${show(cloud)})`);

  if (sent.gpu) {
    check(pod.gpu?.id === sent.gpu.id, 'POD.GPU.RESPONSE', `gpu.id sent ${show(sent.gpu.id)}, answered ${show(pod.gpu?.id)}`);
    const count = sent.gpu.count ?? schemaDefault(['properties', 'gpu', 'properties', 'count']) ?? 1;
    if (pod.gpu?.count !== undefined) {
      check(pod.gpu.count === count, sent.gpu.count === undefined ? 'POD.GPU.COUNT_DEFAULT_1' : 'POD.GPU.RESPONSE', `gpu.count ${sent.gpu.count === undefined ? 'omitted' : `sent ${sent.gpu.count}`}, answered ${pod.gpu.count} (expected ${show(count)})`);
    }
  }
  if (sent.cpu) {
    check(pod.cpu?.id === sent.cpu.id, 'POD.CPU.ID_FROM_CATALOG', `cpu.id sent ${show(sent.cpu.id)}, answered ${show(pod.cpu?.id)}`);
    check(pod.cpu?.vcpuCount === sent.cpu.vcpuCount, 'POD.CPU.RESPONSE', `cpu.vcpuCount sent ${sent.cpu.vcpuCount}, answered ${show(pod.cpu?.vcpuCount)}`);
    check(Number.isInteger(pod.cpu?.memory) && (pod.cpu?.memory ?? 0) >= 1, 'POD.CPU.MEMORY_DERIVED', `the service must derive cpu.memory (an integer of at least 1), answered ${show(pod.cpu?.memory)}`);
  }
  if (sent.mounts?.persistent) {
    check(same(pod.mounts?.persistent, sent.mounts.persistent), 'MOUNT.PERSISTENT.ACCEPTED_ON_GPU', `mounts.persistent sent ${show(sent.mounts.persistent)}, answered ${show(pod.mounts?.persistent)}`);
  }
  if (sent.mounts?.network) {
    check(same(pod.mounts?.network, sent.mounts.network), 'MOUNT.NETWORK.CUSTOM_PATH', `mounts.network sent ${show(sent.mounts.network)}, answered ${show(pod.mounts?.network)}`);
  }
  // `enabled` is "Derived from whether the pod has an assigned global-network address": a pod that
  // asked for global networking may get its address after the 201, so only the default is checked here.
  const gn = sent.globalNetworking ?? schemaDefault(['properties', 'globalNetworking']);
  if (sent.globalNetworking === undefined) {
    check(pod.globalNetworking?.enabled === gn, 'POD.CREATE.GLOBAL_NETWORKING_DEFAULT_FALSE', `globalNetworking omitted, answered enabled=${show(pod.globalNetworking?.enabled)}`);
  }

  check(pod.status === 'PROVISIONING', 'POD.STATUS.CREATED_PROVISIONING', `status is ${show(pod.status)}, not PROVISIONING`);
  check(pod.runtime === null, 'POD.STATUS.CREATED_PROVISIONING', `runtime is ${show(pod.runtime)}, not null`);
  check(pod.startedAt === null, 'POD.RESPONSE.STARTED_AT_NULL_ON_CREATE', `startedAt is ${show(pod.startedAt)}, not null`);
  return f;
}
