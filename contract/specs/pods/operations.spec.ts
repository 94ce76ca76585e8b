import { test } from './support/fixtures.js';
import { isSuccess } from '../../checks/status.js';
import { conform, creates, must, needs, observe, rules } from '../../support/rules.js';
import { podConformance } from '../../checks/pod-conformance.js';
import { problemJsonConformance } from '../../checks/problem-json.js';
import { POD_SHAPE_RULES, PROBLEM_RULES, RUNTIME_RULES } from './support/rule-sets.js';
import type { Pod, PodList } from '../../../lib/types.gen.js';

// The spec names getPod, listing, update, actions and deletion but shows neither paths nor
// payloads: what a target answers is recorded (OBSERVED); any Pod it answers still meets the
// Pod rules, and any error is problem+json.
test.describe('pod operations the spec names but does not show', () => {
  // getPod reads the worker's pooled GPU pod: reading changes nothing, and PodRuntime's `gpus`
  // ("per-GPU metrics") needs a GPU pod, which is why this test waits for it to run.
  test('getPod of an existing pod and of an unknown id', rules('POD.GET.200', 'POD.GET.UNKNOWN_404', ...RUNTIME_RULES, ...POD_SHAPE_RULES, ...PROBLEM_RULES,
    creates({ pools: ['gpuPod'] })), async ({ api, pods }) => {
    const pod = await pods.pooled('gpuPod');
    // Each read is a getPod of the existing pod; the last is the one recorded. A pooled pod made
    // earlier is RUNNING at the first read; no status on the way matters here, so the emulator's
    // clock moves in larger steps.
    const read = await pods.waitFor(pod.id, ['RUNNING'], { stepMs: 5_000 });
    const found = read.answers.at(-1)!;
    const unknown = await api.op('getPod', { params: { podId: 'pod-does-not-exist-000' } });
    observe('POD.GET.200', { status: found.status, sameId: found.body?.id === pod.id });
    observe('POD.GET.UNKNOWN_404', { status: unknown.status, contentType: unknown.contentType });
    conform(
      ...read.answers.map((a) => (isSuccess(a) ? podConformance(a.body, { kind: 'gpu', where: `getPod → ${a.status} (${a.body?.status})` }) : [])),
      unknown.status >= 400 ? problemJsonConformance(unknown) : [],
    );
  });

  test('listPods lists the caller\'s pods, each a conforming Pod', rules('POD.LIST.SHAPE', ...POD_SHAPE_RULES, creates({ pools: ['gpuPod', 'cpuPod'] })), async ({ api, pods }) => {
    // Listing reads: the worker's pooled GPU and CPU pods serve.
    const made = [await pods.pooled('gpuPod'), await pods.pooled('cpuPod')];
    const res = await api.op<PodList>('listPods');
    const list = Array.isArray(res.body?.pods) ? res.body.pods : Array.isArray(res.body) ? (res.body as unknown as Pod[]) : [];
    observe('POD.LIST.SHAPE', { status: res.status, shape: Array.isArray(res.body) ? 'array' : Object.keys(res.body ?? {}), count: list.length });
    conform(...list.filter((p) => made.some((m) => m.id === p.id)).map((p) => podConformance(p, { kind: p.id === made[0]!.id ? 'gpu' : 'cpu', where: `listPods item ${p.id}` })));
  });
});

// Spec, Authentication: "A valid key lacking access to a resource or action gets 403." A pod of
// another account must never reach the caller; whether 403 or 404 answers is recorded.
test.describe('another account\'s pod is invisible', () => {
  test('getPod, updatePod, podAction and deletePod with another account\'s key never touch the pod, and listPods never shows it', rules(
    'POD.ACCOUNT.OTHER_INVISIBLE', 'POD.ACCOUNT.OTHER_STATUS', 'POD.LIST.CALLER_ONLY', ...PROBLEM_RULES,
    creates({ pools: ['cpuPod'] }), needs('otherKey'),
  ), async ({ api, pods }) => {
    // The worker's pooled CPU pod: every request of the other account must be refused, and a
    // refusal leaves the pod as it was (a test that changed it fails, which retires the pod).
    const pod = await pods.pooled('cpuPod');
    const was = (await pods.waitFor(pod.id, [], { maxMs: 0 })).pod;
    // The pod as it is now: a pooled pod keeps the name an earlier test gave it (mounts-update.spec.ts).
    const name = was?.name ?? pod.name;
    const other = 'other' as const;
    const answers = {
      get: await api.op('getPod', { params: { podId: pod.id }, auth: other }),
      patch: await api.op('updatePod', { params: { podId: pod.id }, body: { name: 'stolen' }, auth: other }),
      action: await api.op('podAction', { params: { podId: pod.id }, body: { action: 'stop' }, auth: other }),
      delete: await api.op('deletePod', { params: { podId: pod.id }, auth: other }),
    };
    const theirList = await api.op<PodList>('listPods', { auth: other });
    const mine = await api.op<Pod>('getPod', { params: { podId: pod.id } });
    observe('POD.ACCOUNT.OTHER_STATUS', Object.fromEntries(Object.entries(answers).map(([k, r]) => [k, r.status])));
    observe('POD.LIST.CALLER_ONLY', { otherListsIt: JSON.stringify(theirList.body ?? '').includes(pod.id) });
    conform(
      ...Object.entries(answers).map(([k, r]) => must(r.status >= 400 && r.status < 500, 'POD.ACCOUNT.OTHER_INVISIBLE', `${k} with another account's key answered ${r.status}: ${r.text.slice(0, 200)}`)),
      ...Object.values(answers).map((r) => (r.status >= 400 ? problemJsonConformance(r) : [])),
      must(!JSON.stringify(answers.get.body ?? '').includes(name) || answers.get.status >= 400, 'POD.ACCOUNT.OTHER_INVISIBLE', 'getPod leaked the pod to another account'),
      must(!JSON.stringify(theirList.body ?? '').includes(pod.id), 'POD.ACCOUNT.OTHER_INVISIBLE', 'listPods of another account shows the pod'),
      must(isSuccess(mine) && mine.body.name === name && (mine.body.status !== 'EXITED' || was?.status === 'EXITED'), 'POD.ACCOUNT.OTHER_INVISIBLE', `the owner's pod changed: ${mine.status} ${mine.body?.name} ${mine.body?.status} (was ${was?.status})`),
    );
  });
});
