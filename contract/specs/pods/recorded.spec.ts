import { test } from './support/fixtures.js';
import { isSuccess } from '../../checks/status.js';
import { conform, creates, observe, rules } from '../../support/rules.js';
import { podConformance } from '../../checks/pod-conformance.js';
import { problemJsonConformance } from '../../checks/problem-json.js';
import { POD_SHAPE_RULES } from './support/rule-sets.js';
import { listOf } from '../../../lib/pod-catalog.js';
import type { ApiResult } from '../../../lib/client/api.js';
import type { NetworkVolume, Pod } from '../../../lib/types.gen.js';

// Spec, Limits: "Limits on worker counts, name lengths and the number of environment variables:
// not shown." Versioning: "Compatibility and deprecation policy: not shown." The spec names
// updatePod and deletePod but shows neither their payloads nor their answers. What a target
// does is recorded; any Pod it answers still meets the Pod rules, and any error is problem+json.

/** Name lengths and environment variable counts tried, largest first. */
const NAME_LENGTHS = [4096, 1024, 256, 64] as const;
const ENV_COUNTS = [1024, 128, 16] as const;

/** Whether a refusal's detail or `errors` names a field (`errors`: "a path marker followed by a message"). */
function names(res: ApiResult, field: string): boolean {
  const b = (res.body ?? {}) as { detail?: unknown; errors?: unknown };
  const text = [b.detail, ...(Array.isArray(b.errors) ? b.errors : [])].map(String).join(' ');
  return new RegExp(`\\b${field}\\b`, 'i').test(text);
}

test.describe('pods: what the spec leaves open is recorded', () => {
  // One CPU pod (no rule here is about GPUs) serves every record: it is created with the
  // longest name and the most environment variables the target accepts, its answers' headers
  // are read for version signals, then it is updated and, last, deleted. A refused createPod
  // creates nothing, so the search for the limits goes from the largest body down and stops at
  // the first pod created: a target creates one pod here whatever its limits.
  test('the longest pod name and the most environment variables createPod accepts, version signals, and what updatePod and deletePod answer', rules(
    'LIMIT.OTHER.NOT_SHOWN', 'VERSION.POLICY.NOT_SHOWN',
    'POD.UPDATE.200_FULL_POD', 'POD.UPDATE.MUTABLE_FIELDS', 'POD.UPDATE.UNKNOWN_PROPERTY_REJECTED', ...POD_SHAPE_RULES,
    'POD.DELETE.204', 'POD.DELETE.ABSENT_AFTERWARDS', 'POD.DELETE.VOLUME_DETACHED', 'HTTP.NO_CONTENT.NO_BODY',
    creates({ cpuPods: 1, networkVolumes: 1 }),
  ), async ({ api, pods, uniqueName }) => {
    // The pod has a network volume of its own mounted, so that its deletion shows what becomes of
    // its volume: a conforming target may delete the volume with the pod, so never a pooled one
    // (later borrowers would get a dead volume).
    const dc = (await pods.catalog()).dataCenters[0];
    test.skip(!dc, 'the target lists no data center');
    const volume = await pods.volume(dc!.id, { fresh: true });
    const mounted = { dataCenterIds: [volume.dataCenter], mounts: { network: [{ volumeId: volume.id, path: '/data' }] } };
    // A name of the wanted length that still starts with the test's own, so the run's record knows it.
    const named = (length: number): string => uniqueName('pod').padEnd(length, 'n').slice(0, length);
    const env = (count: number): Record<string, string> => Object.fromEntries(Array.from({ length: count }, (_, i) => [`VAR_${i}`, String(i)]));

    // From the largest name and environment down: a refusal that names one of the two steps
    // that one down, else both; the first pod created ends the search.
    const refused: Record<string, number> = {};
    let [n, e] = [0, 0];
    let created: ApiResult<Pod> | undefined;
    while (n < NAME_LENGTHS.length && e < ENV_COUNTS.length) {
      const res = await pods.create(await pods.cpuBody({ name: named(NAME_LENGTHS[n]!), env: env(ENV_COUNTS[e]!), ...mounted }));
      if (res.status === 201) { created = res; break; }
      refused[`name ${NAME_LENGTHS[n]}, env ${ENV_COUNTS[e]}`] = res.status;
      const [byName, byEnv] = [names(res, 'name'), names(res, 'env')];
      if (byName || !byEnv) n++;
      if (byEnv || !byName) e++;
    }
    const accepted = created ? { nameLength: NAME_LENGTHS[n], envCount: ENV_COUNTS[e] } : { nameLength: 0, envCount: 0 };
    observe('LIMIT.OTHER.NOT_SHOWN', { surface: 'rest-v2 pods', accepted, refused });
    // No size on the ladder was accepted: the pod the rest needs is a plain one (required 201).
    const pod = created?.body ?? await pods.created(await pods.cpuBody({ env: { A: '1' }, ...mounted }));

    const change = { name: 'cpc-updated', image: 'busybox:1.36', args: 'sleep infinity', disk: 31, ports: ['9000/http'], env: { B: '2' }, registry: null, locked: true };
    const res = await api.op<Pod>('updatePod', { params: { podId: pod.id }, body: change });
    const read = await api.op<Pod>('getPod', { params: { podId: pod.id } });
    const after = read.body;
    const changed = Object.fromEntries(Object.entries(change).map(([k, v]) => [k, JSON.stringify(after?.[k]) === JSON.stringify(v)]));
    const unknown = await api.op('updatePod', { params: { podId: pod.id }, body: { colour: 'blue' } });
    const signals = (h: Record<string, string>) => Object.fromEntries(Object.entries(h).filter(([k]) => /version|deprecat|sunset/i.test(k)));
    observe('VERSION.POLICY.NOT_SHOWN', { createPod: created ? signals(created.headers) : null, getPod: signals(read.headers) });
    observe('POD.UPDATE.200_FULL_POD', { status: res.status, fullPod: isSuccess(res) && podConformance(res.body).length === 0 });
    observe('POD.UPDATE.MUTABLE_FIELDS', changed);
    observe('POD.UPDATE.UNKNOWN_PROPERTY_REJECTED', { status: unknown.status });
    conform(isSuccess(res) ? podConformance(res.body, { kind: 'cpu', where: 'updatePod → 200' }) : [], podConformance(after, { kind: 'cpu', where: 'getPod after updatePod' }),
      unknown.status >= 400 ? problemJsonConformance(unknown) : []);

    // The lock was only the update's; deletion is recorded for a pod as created, unlocked.
    if (after?.locked === true) await api.op('updatePod', { params: { podId: pod.id }, body: { locked: false } });
    const del = await api.op('deletePod', { params: { podId: pod.id } });
    const listed = listOf<Pod>((await api.op('listPods')).body, 'pods').some((p) => p?.id === pod.id && p.status !== 'TERMINATED');
    const get = await api.op('getPod', { params: { podId: pod.id } });
    const vol = await api.op<NetworkVolume>('getNetworkVolume', { params: { networkVolumeId: volume.id } });
    observe('POD.DELETE.204', { status: del.status, bodyBytes: del.bytes });
    observe('POD.DELETE.ABSENT_AFTERWARDS', { listed, getPod: get.status });
    observe('POD.DELETE.VOLUME_DETACHED', { volumeStillExists: isSuccess(vol) });
    observe('HTTP.NO_CONTENT.NO_BODY', { deletePod: { status: del.status, bytes: del.bytes, contentType: del.contentType || null } });
  });
});
