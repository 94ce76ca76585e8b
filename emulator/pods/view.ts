import type { Pod, PodLiveFields, PodRuntime, SshAccess } from '../../lib/types.gen.js';
import type { World } from '../world.js';
import { INTERNAL_DOMAIN } from './catalog.js';
import { availableActions, BILLED } from './lifecycle.js';
import { hash32, type PodRecord } from './pod-record.js';

/** The public address of a pod's TCP ports (TEST-NET-3, a documentation range). */
const publicIpFor = (podId: string): string => `203.0.113.${(hash32(podId) % 254) + 1}`;

/** The public port a pod's TCP port is reachable on (deterministic per pod and port). */
const publicPortFor = (podId: string, port: string): number => 10000 + (hash32(`${podId}:${port}`) % 50000);

/** The SSH proxy's host name (the emulator's own; the live platform runs its own proxy). */
export const SSH_PROXY_HOST = 'ssh.compute-platform.test';

/**
 * The live `ssh` block (platform-notes): while a pod created with `startSsh` runs, the proxy
 * reaches it, and so does a direct connection when it exposes `22/tcp`; otherwise both null.
 */
export function sshOf(pod: PodRecord): PodLiveFields['ssh'] {
  if (!pod.ssh || pod.status !== 'RUNNING') return { proxy: null, direct: null };
  const user = `${pod.id}-${(hash32(`${pod.id}:ssh`) & 0xffff).toString(16).padStart(4, '0')}`;
  const proxy: SshAccess = { host: SSH_PROXY_HOST, port: 22, username: user, command: `ssh ${user}@${SSH_PROXY_HOST} -i ~/.ssh/id_ed25519` };
  if (!pod.ports.includes('22/tcp')) return { proxy, direct: null };
  const ip = publicIpFor(pod.id);
  const port = publicPortFor(pod.id, '22/tcp');
  return { proxy, direct: { host: ip, port, username: 'root', command: `ssh root@${ip} -p ${port} -i ~/.ssh/id_ed25519` } };
}

/** A percentage that varies per pod and per virtual minute, deterministically. */
const util = (podId: string, what: string, now: number): number => hash32(`${podId}:${what}:${Math.floor(now / 60_000)}`) % 101;

/**
 * With the variant `pods.global-address-later`: how long after the container started a globally
 * networked pod gets its address (and shows `enabled`, with no `internalDns`).
 */
const GLOBAL_ADDRESS_AFTER_MS = 90_000;

/** A minute of virtual time: how often the variant `pods.runtime-sampled` samples the metrics. */
const SAMPLE_MS = 60_000;

/**
 * Live metrics of a RUNNING pod (spec, PodRuntime, "all fields optional"). With `sampled` (the
 * variant `pods.runtime-sampled`) the metrics are those of the last once-a-minute sample since the
 * container started: only the GPUs' and, from the first sample on, `uptime` as of that sample.
 */
export function runtimeOf(pod: PodRecord, now: number, sampled = false): PodRuntime {
  const started = pod.startedAt ?? now;
  if (sampled) {
    const samples = Math.floor(Math.max(0, now - started) / SAMPLE_MS);
    const { gpus } = runtimeOf(pod, started + samples * SAMPLE_MS);
    return samples > 0 ? { uptime: (samples * SAMPLE_MS) / 1000, gpus } : { gpus };
  }
  return {
    uptime: Math.max(0, Math.floor((now - started) / 1000)),
    gpus: Array.from({ length: pod.gpu?.count ?? 0 }, (_, i) => ({ util: util(pod.id, `gpu${i}`, now), memoryUtil: util(pod.id, `gmem${i}`, now) })),
    cpu: { util: util(pod.id, 'cpu', now) },
    memory: { util: util(pod.id, 'mem', now) },
    ports: pod.ports.map((p) => {
      const [port, type] = p.split('/') as [string, string];
      const tcp = type === 'tcp';
      return { private: Number(port), public: tcp ? publicPortFor(pod.id, p) : null, type, ip: tcp ? publicIpFor(pod.id) : null };
    }),
  };
}

/**
 * RFC 3339 text of a virtual time. The last conversion is kept: on a clock moved by hand many
 * pods share one creation time, and each view shows it again.
 */
let lastIso = { ms: Number.NaN, text: '' };
function isoOf(ms: number): string {
  if (ms !== lastIso.ms) lastIso = { ms, text: new Date(ms).toISOString() };
  return lastIso.text;
}

/** A copy of the stored mounts, so a caller can never change the store through a view. */
function copyMounts(m: PodRecord['mounts']): Pod['mounts'] {
  const out: Pod['mounts'] = {};
  if (m.persistent) out.persistent = { ...m.persistent };
  if (m.network) out.network = m.network.map((n) => ({ ...n }));
  return out;
}

/**
 * The spec's Pod object for a stored pod at virtual time `now`, with the pod faults applied,
 * and the live platform's `cudaVersion` and `ssh` (platform-notes; the spec's Pod allows more fields).
 */
export function podView(pod: PodRecord, world: World): Pod & PodLiveFields {
  const now = world.clock.now();
  const running = pod.status === 'RUNNING';
  const billed = BILLED.has(pod.status) || (pod.status === 'EXITED' && world.fault('pods.cost-when-exited'));
  const later = world.variant('pods.global-address-later');
  const addressed = pod.globalIp !== null && (!later || (pod.startedAt !== null && now - pod.startedAt >= GLOBAL_ADDRESS_AFTER_MS));
  const gn: Pod['globalNetworking'] = { enabled: addressed };
  if (addressed) {
    gn.ip = pod.globalIp!;
    if (!later) gn.internalDns = `${world.fault('pods.dns-wrong-pod-id') ? `x${pod.id}` : pod.id}.${INTERNAL_DOMAIN}`;
  } else if (world.fault('pods.ip-when-disabled')) {
    gn.ip = '0.0.0.0';
  }
  let runtime: PodRuntime | null = running ? runtimeOf(pod, now, world.variant('pods.runtime-sampled')) : null;
  if (running && world.fault('pods.runtime-null-when-running')) runtime = null;
  if (pod.status === 'PROVISIONING' && world.fault('pods.runtime-while-provisioning')) runtime = runtimeOf(pod, now);
  const view: Pod & PodLiveFields = {
    id: pod.id,
    name: pod.name,
    status: pod.status,
    actions: availableActions(pod, world.variant('pods.locked-lists-actions')),
    image: pod.image,
    args: pod.args,
    disk: pod.disk,
    ports: [...pod.ports],
    env: { ...pod.env },
    registry: pod.registry,
    mounts: copyMounts(pod.mounts),
    cloud: pod.cloud,
    dataCenterId: pod.dataCenterId,
    template: pod.template,
    cost: billed ? pod.hourlyCost : 0,
    locked: pod.locked,
    globalNetworking: gn,
    runtime,
    createdAt: world.fault('pods.created-at-not-date-time') ? String(pod.createdAt) : isoOf(pod.createdAt),
    startedAt: pod.startedAt === null ? null : isoOf(pod.startedAt),
    cudaVersion: pod.cudaVersion,
    ssh: sshOf(pod),
  };
  if (pod.gpu) view.gpu = { ...pod.gpu };
  if (pod.cpu) {
    const cpu = { ...pod.cpu };
    if (world.fault('pods.cpu-memory-missing')) delete cpu.memory;
    view.cpu = cpu as Pod['cpu'] & object;
  }
  return view;
}
