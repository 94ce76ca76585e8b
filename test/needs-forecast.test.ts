// Needs declared like creations (lib/needs.ts): preflight's forecast (run/provision/forecast.ts),
// what provisioning makes from the worker image, and the check of the forecast against a run's
// verdicts (run/provision/forecast-check.ts), without a target.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { needReason } from '../lib/needs.js';
import { DEFAULT_PROFILE } from '../lib/profile.js';
import { forecastHas, forecastRules, provisionCreates, provisionFor, type Found } from '../run/provision/forecast.js';
import { forecastMismatches } from '../run/provision/forecast-check.js';
import { planCounts } from '../lib/plan.js';

const remote = { kind: 'remote', control: false, baseUrl: 'http://x', serverlessUrl: 'http://x', restV1Url: 'http://x', apiKey: 'k' } as const;
const found: Found = { control: false, readonlyKey: false, otherKey: false, endpointId: false, templateId: false, modelEndpointId: false };
const tests = [
  { rules: ['A.PLAIN'], creates: {} },
  { rules: ['B.JOB'], creates: { needs: ['workerEndpoint' as const] } },
  { rules: ['C.V1'], creates: { endpoints: 1, needs: ['template' as const] } },
  { rules: ['D.HOLD'], creates: { needs: ['holdEndpoint' as const] } },
  { rules: ['E.OTHER', 'B.JOB'], creates: { needs: ['otherKey' as const, 'workerEndpoint' as const] } },
  { rules: ['F.LONG'], creates: { needs: ['longWaits' as const, 'workerEndpoint' as const] } },
];

test('forecast: with one key, every need is a skip reason naming what would let it run', () => {
  const plan = forecastRules(tests, forecastHas(found, { profile: DEFAULT_PROFILE, target: remote }));
  assert.deepEqual(plan.runs, ['A.PLAIN']);
  const reasons = Object.fromEntries(plan.skipped.map((s) => [s.rule, s.reasons]));
  assert.deepEqual(reasons['B.JOB'], [needReason('workerEndpoint'), needReason('otherKey')]);
  assert.match(needReason('workerEndpoint'), /CPC_ENDPOINT_ID or CPC_WORKER_IMAGE/);
  assert.match(needReason('longWaits'), /CPC_ALLOW_LONG_WAITS=1/);
  assert.match(needReason('control'), /which only an emulator target has/);
});

test('forecast: the worker image stands in for the endpoint, the workersMax 1 endpoint and the template; the plan counts what it makes', () => {
  const run = { profile: { ...DEFAULT_PROFILE, workerImage: 'cpc-conformance-worker:latest' }, target: remote };
  const has = forecastHas(found, run);
  const plan = forecastRules(tests, has);
  assert.deepEqual(plan.runs, ['A.PLAIN', 'B.JOB', 'C.V1', 'D.HOLD']);
  const running = tests.filter((t) => plan.runs.some((r) => t.rules.includes(r)) && !(t.creates.needs ?? []).some((n) => !has[n]));
  const provision = provisionFor(running, found, run);
  assert.deepEqual(provision, { endpoint: true, hold: true, template: true });
  const counts = planCounts([...running.map((t) => t.creates), provisionCreates(provision)], { pooled: true, workers: 1 }).counts;
  assert.deepEqual([counts.endpoints, counts.templates], [1 + 2, 1]);
  // Named ones are used as they are: only the workersMax 1 endpoint and its template are made.
  assert.deepEqual(provisionFor(running, { ...found, endpointId: true, templateId: true }, run), { endpoint: false, hold: true, template: false });
  assert.deepEqual(provisionCreates({ endpoint: false, hold: true, template: false }), { templates: 1, endpoints: 1 });
  // An emulator world decides these rules on its own: nothing is provisioned there.
  assert.deepEqual(provisionFor(running, { ...found, control: true }, run), { endpoint: false, hold: false, template: false });
});

test('forecast check: a rule forecast to run that a need skipped, or one forecast skipped that ran, is a difference', () => {
  const forecast = { runs: ['A.PLAIN', 'B.JOB'], skipped: [{ rule: 'C.V1', reasons: [needReason('template')] }, { rule: 'D.HOLD', reasons: [needReason('holdEndpoint')] }] };
  assert.deepEqual(forecastMismatches(forecast, [
    { id: 'A.PLAIN', verdict: 'pass' },
    // Skipped for what the target answered: the forecast does not promise more.
    { id: 'B.JOB', verdict: 'skip', skipReasons: ['the job never showed IN_PROGRESS'] },
    { id: 'C.V1', verdict: 'skip', skipReasons: [needReason('template')] },
    { id: 'D.HOLD', verdict: 'skip', skipReasons: [`${needReason('holdEndpoint')}; provisioning from x failed: saveEndpoint answered 500`] },
  ]), []);
  // Another test of the rule needed what the run lacks, and the one that ran could not decide it here.
  assert.deepEqual(forecastMismatches(forecast, [{ id: 'B.JOB', verdict: 'skip', skipReasons: [needReason('warmWorkers'), 'no endpoint listed a pod'] }]), []);
  // The rule's other test lacks a need (its emulator variant), the one forecast to run was stopped by something else.
  assert.deepEqual(forecastMismatches({ runs: ['B.JOB'], skipped: [] }, [
    { id: 'B.JOB', verdict: 'skip', skipReasons: ['the run was interrupted while this test ran', needReason('control')] },
  ]), []);
  const differ = forecastMismatches(forecast, [
    { id: 'A.PLAIN', verdict: 'skip', skipReasons: [needReason('readonlyKey')] },
    { id: 'B.JOB', verdict: 'pass' },
    { id: 'C.V1', verdict: 'pass' },
    { id: 'D.HOLD', verdict: 'skip', skipReasons: [needReason('control')] },
  ]);
  assert.equal(differ.length, 3);
  assert.match(differ[0]!, /^A\.PLAIN: forecast to run, skipped/);
  assert.match(differ[1]!, /^C\.V1: forecast to be skipped .* decided pass/);
  assert.match(differ[2]!, /^D\.HOLD: skipped for .*, not as forecast/);
});
