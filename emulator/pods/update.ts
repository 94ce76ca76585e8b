import type { UpdatePodLiveFields, UpdatePodRequest } from '../../lib/types.gen.js';
import type { Account, World } from '../world.js';
import { dataCenter, gpuType } from './catalog.js';
import { globalIpFor, type PodRecord, type StoredMounts } from './pod-record.js';
import { podTemplate } from './template-link.js';
import { conflict, validateBody } from './validation.js';

/**
 * updatePod (PATCH; shape from platform-notes) with the spec's "Update (PATCH) semantics" of
 * Mounts: omitting `mounts` or sending `{}` leaves them unchanged; `network: []` gives 400; a
 * mount kind not present at creation gives 400; a different `volumeId` gives 400; an
 * incomplete entry gives 422 (schema); `path` (and the persistent `size`) may change.
 * The live field `templateId` moves the pod's `template` (404 for a template the caller lacks).
 * Returns the changes to apply; nothing is applied when a rule fails.
 */
export function planUpdate(world: World, account: Account, pod: PodRecord, body: unknown): (p: PodRecord) => void {
  validateBody(world, 'update-pod-request', body, { incompleteFault: 'pods.patch-incomplete-network-400', incompleteFaultScope: /^\/mounts\/network\// });
  const req = body as UpdatePodRequest & UpdatePodLiveFields;
  // A real update: a field other than mounts sent with a value the pod does not have already.
  const changesOther = Object.entries(req).some(([k, v]) => k !== 'mounts' && JSON.stringify(v) !== JSON.stringify((pod as unknown as Record<string, unknown>)[k]));
  const mounts = req.mounts === undefined ? (changesOther && world.fault('pods.patch-drops-mounts') ? {} : undefined) : planMounts(world, pod, req.mounts as StoredMounts);

  let globalIp = pod.globalIp;
  if (req.globalNetworking === true && pod.globalIp === null) {
    const type = pod.gpu ? gpuType(pod.gpu.id) : undefined;
    if (type?.manufacturer !== 'NVIDIA') throw conflict('/globalNetworking', 'global networking requires an NVIDIA GPU');
    if (!dataCenter(pod.dataCenterId)?.globalNetwork) throw conflict('/globalNetworking', `data center ${pod.dataCenterId} has no global networking`);
    globalIp = globalIpFor(pod.id);
  } else if (req.globalNetworking === false) {
    globalIp = null;
  }

  const template = req.templateId === undefined ? undefined : podTemplate(world, account, req.templateId, '/templateId');

  return (p) => {
    if (template !== undefined) p.template = template;
    if (req.name !== undefined) p.name = req.name;
    if (req.image !== undefined) p.image = req.image;
    if (req.args !== undefined) p.args = req.args;
    if (req.disk !== undefined) p.disk = req.disk;
    if (req.ports !== undefined) p.ports = [...req.ports];
    if (req.env !== undefined) p.env = { ...req.env };
    if (req.registry !== undefined) p.registry = req.registry;
    if (req.locked !== undefined) p.locked = req.locked;
    if (mounts !== undefined) p.mounts = mounts;
    p.globalIp = globalIp;
  };
}

/** Pods whose mount path a PATCH has changed (the fault pods.patch-path-once refuses a second change). */
const pathChanged = new WeakSet<PodRecord>();

/** The mounts after the PATCH, or a thrown 400 for a rule the spec names. */
function planMounts(world: World, pod: PodRecord, sent: StoredMounts): StoredMounts {
  const current = pod.mounts;
  const kinds = (Object.keys(sent) as (keyof StoredMounts)[]).filter((k) => sent[k] !== undefined);
  if (kinds.length === 0) {
    // Spec: "sending `{}` leaves the mount unchanged".
    return world.fault('pods.patch-empty-mounts-clears') ? {} : current;
  }
  if (sent.network !== undefined && sent.network.length === 0) {
    if (world.fault('pods.patch-network-empty-accepted')) return {};
    throw conflict('/mounts/network', '`network: []` is not allowed; omit mounts to leave them unchanged');
  }
  const hasAny = current.persistent !== undefined || current.network !== undefined;
  for (const kind of kinds) {
    if (current[kind] !== undefined) continue;
    const allowed = !hasAny ? world.fault('pods.patch-mount-on-unmounted-accepted')
      : kind === 'persistent' && current.network !== undefined && world.fault('pods.patch-persistent-on-network-accepted');
    if (!allowed) {
      throw conflict(`/mounts/${kind}`, hasAny
        ? `the pod was created with a ${current.persistent ? 'persistent' : 'network'} mount; a ${kind} mount cannot be added`
        : `the pod was created without mounts; a ${kind} mount cannot be added`);
    }
  }
  const moved = (sent.persistent && current.persistent && sent.persistent.path !== current.persistent.path)
    || (sent.network ?? []).some((m, i) => current.network?.[i] && m.path !== current.network[i]!.path);
  if (moved && world.fault('pods.patch-path-once')) {
    if (pathChanged.has(pod)) throw conflict('/mounts', 'the mount path was changed once already');
    pathChanged.add(pod);
  }
  const next: StoredMounts = {};
  if (sent.persistent) next.persistent = { size: sent.persistent.size, path: sent.persistent.path };
  if (sent.network) {
    const before = current.network ?? [];
    next.network = sent.network.map((m, i) => {
      const old = before[i];
      if (old && old.volumeId !== m.volumeId && !world.fault('pods.patch-other-volume-accepted')) {
        throw conflict(`/mounts/network/${i}/volumeId`, `volumeId is immutable: the pod mounts "${old.volumeId}", not "${m.volumeId}"`);
      }
      const keepPath = old && world.fault('pods.patch-network-path-ignored');
      return { volumeId: m.volumeId, path: keepPath ? old.path : m.path };
    });
  }
  return next;
}
