import { test } from './support/fixtures.js';
import { conform, creates, must, observe, rules, unchecked } from '../../support/rules.js';
import { podConformance } from '../../checks/pod-conformance.js';
import { isSuccess, statusCodeConformance } from '../../checks/status.js';
import { rejectionConformance } from '../../checks/rejection.js';
import { PROBLEM_RULES, POD_SHAPE_RULES, RUNTIME_RULES } from './support/rule-sets.js';
import type { Finding } from '../../support/rules.js';
import type { Pod } from '../../../lib/types.gen.js';

/** Where each status sits in the spec's forward path; a pod never moves back along it on its own. */
const ORDER: Record<string, number> = { PROVISIONING: 0, STARTING: 1, RUNNING: 2 };

/** The statuses read in order never step back along PROVISIONING → STARTING → RUNNING. */
function forwardOnly(seen: readonly string[]): Finding[] {
  const findings: Finding[] = [];
  for (let i = 1; i < seen.length; i++) {
    const [a, b] = [ORDER[seen[i - 1]!], ORDER[seen[i]!]];
    if (a === undefined || b === undefined || b >= a) continue;
    const rule = a === 2 ? 'POD.STATUS.STARTING_TO_RUNNING' : 'POD.STATUS.PROVISIONING_TO_STARTING';
    findings.push({ rule, message: `the pod went back from ${seen[i - 1]} to ${seen[i]} (${seen.join(' → ')})` });
  }
  return findings;
}

// Each test owns one CPU pod through a whole journey: the rules here are about a pod's statuses,
// actions and runtime, none about GPUs (PodRuntime's `gpus` is checked on a GPU pod by
// operations.spec.ts), and a real target bills every pod a test makes. The steps that may
// change the pod come last, so every earlier check reads the pod as the spec describes it.
test.describe('pod lifecycle (spec, States and transitions)', () => {
  test('a new pod is observed through getPod until it is RUNNING, then exposes runtime metrics whose uptime never exceeds its age, and refuses an action it does not list', rules(
    'POD.CREATE.READINESS_VIA_GET_POD', 'SERVICE.POD.ASYNC_PROVISIONING', 'POD.STATUS.PROVISIONING_TO_STARTING', 'POD.STATUS.STARTING_TO_RUNNING',
    'POD.STATUS.RUNTIME_POPULATED_WHEN_RUNNING', 'POD.ACTIONS.BY_STATUS', ...RUNTIME_RULES, ...POD_SHAPE_RULES,
    'POD.ACTIONS.UNLISTED_REFUSED', 'POD.ACTION.INVALID_409', ...PROBLEM_RULES,
    creates({ cpuPods: 1 }),
  ), async ({ api, pods, emu }) => {
    const body = await pods.cpuBody({ ports: ['8888/http', '22/tcp'], env: { STAGE: 'test' } });
    // Uptime is measured against the pod's age, from just before it was asked for.
    const began = performance.now();
    const pod = await pods.created(body);
    conform(must(pod.status !== 'RUNNING', 'SERVICE.POD.ASYNC_PROVISIONING', 'createPod answered a pod that is already RUNNING'));
    // "clients observe readiness by reading the pod (operation `getPod`) until `status` is `RUNNING`"
    const wait = await pods.waitFor(pod.id, ['RUNNING']);
    const actions: Record<string, unknown> = {};
    for (const a of wait.answers) if (isSuccess(a)) actions[a.body.status] = a.body.actions;
    observe('POD.ACTIONS.BY_STATUS', actions);
    conform(
      ...wait.answers.map((a) => statusCodeConformance('POD.CREATE.READINESS_VIA_GET_POD', a, 'success')),
      ...wait.answers.map((a) => podConformance(a.body, { kind: 'cpu', where: `getPod (${a.body?.status})` })),
      must(wait.answers[0]?.body?.id === pod.id, 'POD.CREATE.READINESS_VIA_GET_POD', `getPod answered id ${wait.answers[0]?.body?.id} for ${pod.id}`),
      must(wait.reached, 'POD.CREATE.READINESS_VIA_GET_POD', `not RUNNING after ${wait.waitedMs} ms: ${wait.seen.join(' → ')}`),
      must(wait.reached || wait.seen.at(-1) !== 'STARTING', 'POD.STATUS.STARTING_TO_RUNNING', `still STARTING after ${wait.waitedMs} ms: the container never became healthy`),
      forwardOnly(wait.seen),
    );
    if (emu.available) {
      // The emulator's clock moves in 1 s steps, so every status on the way is seen.
      conform(must(wait.seen.includes('STARTING'), 'POD.STATUS.PROVISIONING_TO_STARTING', `STARTING never observed: ${wait.seen.join(' → ')}`));
    }
    const running = wait.pod;
    conform(
      must(running.runtime !== null && typeof running.runtime === 'object', 'POD.STATUS.RUNTIME_POPULATED_WHEN_RUNNING', `runtime is ${JSON.stringify(running.runtime)} while RUNNING`),
      must(JSON.stringify(running.ports) === JSON.stringify(body.ports) && running.env?.STAGE === 'test', 'SERVICE.POD.ASYNC_PROVISIONING', `the running pod exposes ports ${JSON.stringify(running.ports)}, env ${JSON.stringify(running.env)}`),
    );

    // A later read: "PodRuntime (all fields optional)", so each metric present has the spec's
    // type, and none is required; how often the metrics are refreshed is not shown either.
    // Uptime is "seconds since the container started"; the container of a pod cannot have
    // started before the pod was created, so uptime is at most the pod's age (1 s of rounding).
    const age = (extraMs: number): number => (emu.available ? (wait.waitedMs + extraMs) / 1000 : (performance.now() - began) / 1000);
    const first = { uptime: running.runtime?.uptime, age: age(0) };
    if (emu.available) await emu.advance(30_000);
    else await new Promise((r) => setTimeout(r, 5_000));
    const again = await pods.waitFor(pod.id, ['RUNNING'], { maxMs: 0 });
    const later = again.pod;
    const aged = { uptime: later?.runtime?.uptime, age: age(30_000) };
    conform(
      podConformance(later, { kind: 'cpu' }), forwardOnly([...wait.seen, later.status]),
      ...[first, ...(again.reached ? [aged] : [])].map((r) => must(typeof r.uptime !== 'number' || r.uptime <= r.age + 1, 'POD.RUNTIME.UPTIME',
        `uptime is ${r.uptime} s while the pod was created ${r.age.toFixed(1)} s ago: the container started before the pod existed`)),
    );

    // Spec, Pod: `actions` are the "Valid state transitions for the current status". An action a
    // RUNNING pod does not list is no valid transition: it is refused (some 4xx, the status is not
    // shown) and the pod stays as it was. The exact status is recorded (POD.ACTION.INVALID_409).
    const current = later;
    const listed = Array.isArray(current?.actions) ? current.actions : [];
    const unlisted = !again.reached ? [] : (['start', 'stop', 'restart', 'terminate'] as const).filter((a) => !listed.includes(a));
    if (!again.reached) unchecked('POD.ACTIONS.UNLISTED_REFUSED', `the pod left RUNNING by itself (${later?.status}): no RUNNING pod to send an unlisted action to`);
    else if (unlisted.length === 0) unchecked('POD.ACTIONS.UNLISTED_REFUSED', `the RUNNING pod lists every action (${JSON.stringify(listed)}): no unlisted action to send`);
    for (const action of unlisted) {
      const res = await api.op('podAction', { params: { podId: pod.id }, body: { action } });
      const after = (await pods.waitFor(pod.id, ['RUNNING'], { maxMs: 0 })).pod;
      observe('POD.ACTION.INVALID_409', { status: 'RUNNING', action, answer: res.status, contentType: res.contentType });
      conform(
        rejectionConformance('POD.ACTIONS.UNLISTED_REFUSED', res, 'client-error'),
        must(after?.status === 'RUNNING' && after.startedAt === current.startedAt, 'POD.ACTIONS.UNLISTED_REFUSED',
          `after ${action} (not listed: ${JSON.stringify(listed)}) the pod is ${after?.status}, started at ${after?.startedAt} (was ${current.startedAt})`),
      );
    }
  });

  test('stop moves a running pod out of RUNNING; while EXITED cost is 0.0 and runtime null, a listed start is accepted, and terminate\'s answer is recorded', rules(
    'POD.RESPONSE.COST_ZERO_WHEN_STOPPED', 'POD.RESPONSE.RUNTIME_NULL_UNLESS_RUNNING', 'POD.ACTION.STOP_TO_EXITED', 'POD.ACTION.PATH_AND_RESPONSE', 'POD.ACTIONS.BY_STATUS',
    'POD.ACTIONS.LISTED_ACCEPTED', 'HTTP.NO_CONTENT.NO_BODY',
    creates({ cpuPods: 1 }),
  ), async ({ api, pods }) => {
    const pod = await pods.created(await pods.cpuBody());
    const ready = await pods.waitFor(pod.id, ['RUNNING']);
    test.skip(!ready.reached, `the pod did not become RUNNING (${ready.seen.join(' → ')})`);
    const stop = await api.op<Pod>('podAction', { params: { podId: pod.id }, body: { action: 'stop' } });
    const exited = await pods.waitFor(pod.id, ['EXITED', 'TERMINATED', 'ERROR'], { maxMs: 60_000 });
    observe('POD.ACTION.STOP_TO_EXITED', { answer: stop.status, answeredStatus: stop.body?.status ?? null, reached: exited.pod?.status ?? null });
    observe('POD.ACTIONS.BY_STATUS', { [exited.pod?.status ?? 'unknown']: exited.pod?.actions ?? null });
    conform(
      isSuccess(stop) ? podConformance(stop.body, { kind: 'cpu', where: `podAction stop → ${stop.status}` }) : [],
      ...[...ready.answers, ...exited.answers].map((a) => podConformance(a.body, { kind: 'cpu', where: `getPod (${a.body?.status})` })),
    );
    const stopped = stop.status >= 200 && stop.status < 300 && exited.reached;

    // `actions` lists the "valid state transitions for the current status": once a stopped pod
    // lists `start`, requesting it in that status must be accepted (2xx), never refused.
    const actions = Array.isArray(exited.pod?.actions) ? exited.pod.actions : [];
    if (stopped && exited.pod.status === 'EXITED' && actions.includes('start')) {
      const start = await api.op<Pod>('podAction', { params: { podId: pod.id }, body: { action: 'start' } });
      conform(
        must(start.status >= 200 && start.status < 300, 'POD.ACTIONS.LISTED_ACCEPTED',
          `the EXITED pod lists ${JSON.stringify(actions)}; start answered ${start.status} ${start.text.slice(0, 200)}`),
        isSuccess(start) ? podConformance(start.body, { kind: 'cpu', where: 'podAction start → 200' }) : [],
      );
    } else if (stopped) {
      unchecked('POD.ACTIONS.LISTED_ACCEPTED', `the stopped pod is not EXITED listing start (${exited.seen.join(' → ')}; ${JSON.stringify(actions)}): no listed action to send`);
    }

    // The answer and the effect of terminate are not shown either: what it answers (a 204 with
    // no body, or a Pod) and what getPod shows afterwards are recorded.
    const terminate = await api.op('podAction', { params: { podId: pod.id }, body: { action: 'terminate' } });
    const gone = await api.op<Pod>('getPod', { params: { podId: pod.id } });
    observe('POD.ACTION.PATH_AND_RESPONSE', { stop: stop.status, terminate: terminate.status, afterTerminate: isSuccess(gone) ? gone.body.status : gone.status });
    observe('HTTP.NO_CONTENT.NO_BODY', { terminate: { status: terminate.status, bytes: terminate.bytes, contentType: terminate.contentType || null } });
    conform(isSuccess(gone) && gone.body !== undefined ? podConformance(gone.body, { kind: 'cpu', where: 'getPod after terminate' }) : []);
    // The answer and the effect of stop are not shown: a target whose stop leaves the pod RUNNING
    // breaks no rule, it only gives this test no stopped pod to check cost and runtime on.
    test.skip(!stopped,
      `stop of the RUNNING pod answered ${stop.status} and the pod went ${exited.seen.join(' → ')}: no stopped pod to check (the effect of stop is not shown)`);
  });
});
