import { test } from './support/fixtures.js';
import { isSuccess } from '../../checks/status.js';
import { conform, must, rules } from '../../support/rules.js';
import { podConformance } from '../../checks/pod-conformance.js';
import type { Pod } from '../../../lib/types.gen.js';

// Pod lifecycle cases beyond the common paths (found by mutation testing, npm run mutation):
// rules of the spec's "States and transitions" and "PodRuntime" in situations the other specs
// do not reach (a stopped pod started again; uptime measured against the pod's age).
test.describe('pod lifecycle beyond the common paths', () => {
  test('an EXITED pod that lists start accepts it', rules('POD.ACTIONS.LISTED_ACCEPTED'), async ({ api, pods }) => {
    // `actions` lists the "valid state transitions for the current status": once a stopped pod
    // lists `start`, requesting it in that status must be accepted (2xx), never refused.
    const pod = await pods.created(await pods.gpuBody());
    const ready = await pods.waitFor(pod.id, ['RUNNING']);
    test.skip(!ready.reached, `setup: the pod did not become RUNNING (${ready.seen.join(' → ')})`);
    const stop = await api.op<Pod>('podAction', { params: { podId: pod.id }, body: { action: 'stop' } });
    test.skip(stop.status < 200 || stop.status >= 300, `setup: stop of the RUNNING pod answered ${stop.status}`);
    const exited = await pods.waitFor(pod.id, ['EXITED'], { maxMs: 60_000 });
    const actions = Array.isArray(exited.pod?.actions) ? exited.pod.actions : [];
    test.skip(!exited.reached || !actions.includes('start'), `setup: the stopped pod is not EXITED listing start (${exited.seen.join(' → ')}; ${JSON.stringify(actions)})`);
    const start = await api.op<Pod>('podAction', { params: { podId: pod.id }, body: { action: 'start' } });
    conform(
      must(start.status >= 200 && start.status < 300, 'POD.ACTIONS.LISTED_ACCEPTED',
        `the EXITED pod lists ${JSON.stringify(actions)}; start answered ${start.status} ${start.text.slice(0, 200)}`),
      isSuccess(start) ? podConformance(start.body, { kind: 'gpu', where: 'podAction start → 200' }) : [],
    );
  });

  test('runtime.uptime never exceeds the time since the pod was created', rules('POD.RUNTIME.UPTIME'), async ({ pods, emu }) => {
    // Uptime is "seconds since the container started"; the container of a pod cannot have
    // started before the pod was created, so uptime is at most the pod's age (1 s of rounding).
    const body = await pods.gpuBody();
    const began = performance.now();
    const pod = await pods.created(body);
    const ready = await pods.waitFor(pod.id, ['RUNNING']);
    test.skip(!ready.reached, `setup: the pod did not become RUNNING (${ready.seen.join(' → ')})`);
    const age = (extraMs: number): number => (emu.available ? (ready.waitedMs + extraMs) / 1000 : (performance.now() - began) / 1000);
    const first = { uptime: ready.pod.runtime?.uptime, age: age(0) };
    if (emu.available) await emu.advance(30_000);
    else await new Promise((r) => setTimeout(r, 5_000));
    const again = await pods.waitFor(pod.id, ['RUNNING'], { maxMs: 0 });
    const later = { uptime: again.pod?.runtime?.uptime, age: age(30_000) };
    const findings = [first, ...(again.reached ? [later] : [])].map((r) => must(typeof r.uptime !== 'number' || r.uptime <= r.age + 1, 'POD.RUNTIME.UPTIME',
      `uptime is ${r.uptime} s while the pod was created ${r.age.toFixed(1)} s ago: the container started before the pod existed`));
    conform(...findings);
  });
});
