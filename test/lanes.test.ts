// @own-process: lists the suite with Playwright (`playwright test --list`), as preflight does.
// The long-wait lane of a deployment run (lib/lanes.ts): its Playwright projects with and without
// the opt-in, the plan counted lane by lane, and, from the listing preflight reads, the lane
// holding exactly the tests whose declaration needs long waits.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { LONG_WAIT_GREP, LONG_WAIT_PROJECT, LONG_WAIT_TAG, conformanceProjects, inLongWaitLane, lanesFor, planByLane, totalWorkers } from '../lib/lanes.js';
import { SUITE_FILES, SUITE_PROJECT } from '../lib/suites.js';
import { parseRunConfig } from '../lib/run-config.js';
import { listPlaywright } from '../run/playwright.js';
import { listedTests } from '../run/preflight.js';
import { toOutcomes } from '../reports/verdicts.js';
import type { Creates } from '../lib/plan.js';
import type { RawTestResult } from '../lib/protocol.js';

const files = [SUITE_FILES.contract, SUITE_FILES.property];

test('lanes: a deployment run that opts in to long waits has the lane first, one worker of its own beside the suite\'s', () => {
  const lanes = lanesFor(1, { control: false, allowLongWaits: true });
  assert.deepEqual(lanes, { suite: 1, longWaits: true });
  assert.equal(totalWorkers(lanes), 2);
  const projects = conformanceProjects(files, lanes);
  assert.deepEqual(projects.map((p) => [p.name, p.workers]), [[LONG_WAIT_PROJECT, 1], [SUITE_PROJECT, 1]], 'the lane comes first: the dispatcher takes test groups in project order');
  assert.deepEqual([projects[0]!.grep, projects[0]!.grepInvert, projects[1]!.grep, projects[1]!.grepInvert], [LONG_WAIT_GREP, undefined, undefined, LONG_WAIT_GREP]);
  assert.deepEqual(projects.map((p) => p.testMatch), [files, files]);
  // Three suite workers keep three: the lane's worker never becomes a fourth suite worker.
  assert.deepEqual(conformanceProjects(files, lanesFor(3, { control: false, allowLongWaits: true })).map((p) => p.workers), [1, 3]);
});

test('lanes: without the opt-in, or against an emulator, one suite project and no per-project limit', () => {
  for (const lanes of [lanesFor(1, { control: false }), lanesFor(1, { control: false, allowLongWaits: false }), lanesFor(2, { control: true, allowLongWaits: true })]) {
    assert.equal(lanes.longWaits, false);
    assert.equal(totalWorkers(lanes), lanes.suite);
    assert.deepEqual(conformanceProjects(files, lanes), [{ name: SUITE_PROJECT, testDir: '.', testMatch: files }]);
  }
});

test('lanes: the lane\'s tag matches as a whole word among a test\'s titles and tags, never a rule id', () => {
  assert.ok(LONG_WAIT_GREP.test(`retention › the windows @LIMIT.RUN.RETENTION_30_MIN ${LONG_WAIT_TAG}`));
  assert.ok(LONG_WAIT_GREP.test(`${LONG_WAIT_TAG} @A.B`));
  assert.ok(!LONG_WAIT_GREP.test('a test @long-waits-not @A.B'));
  assert.ok(!LONG_WAIT_GREP.test('a test @LIMIT.RUN.RETENTION_30_MIN'));
});

test('lanes: the plan counts a pool once per suite worker, and once more only for a lane test that borrows it', () => {
  const retention: Creates = { needs: ['longWaits', 'workerEndpoint'] };
  const mount: Creates = { pools: ['cpuPod'] };
  const lanes = lanesFor(1, { control: false, allowLongWaits: true });
  // The retention test borrows nothing: the plan is the suite's alone.
  assert.deepEqual(planByLane([mount, mount, retention], lanes, true).counts.cpuPods, 1);
  // A lane test that borrowed a pool would make it in its own worker.
  assert.deepEqual(planByLane([mount, mount, { ...retention, pools: ['cpuPod'] }], lanes, true).counts.cpuPods, 2);
  assert.deepEqual(planByLane([mount, mount, { ...retention, pools: ['cpuPod'] }], lanesFor(1, { control: false }), true).counts.cpuPods, 1);
  assert.deepEqual(planByLane([mount, mount, retention], lanesFor(2, { control: false, allowLongWaits: true }), true).pools, ['cpuPod']);
});

test('lanes: listed as preflight lists a deployment run, the lane holds exactly the tests that declare long waits', { timeout: 120_000 }, async () => {
  const parsed = parseRunConfig({ CPC_BASE_URL: 'http://127.0.0.1:9', CPC_API_KEY: 'k-lanes-000000', CPC_ALLOW_LONG_WAITS: '1' });
  const target = { kind: 'remote', control: false, baseUrl: 'http://127.0.0.1:9', serverlessUrl: 'http://127.0.0.1:9', restV1Url: 'http://127.0.0.1:9', apiKey: 'k-lanes-000000' } as const;
  const listed = listedTests(await listPlaywright({ ...parsed, target, suites: ['contract', 'property'], workers: 1 }));
  const lane = listed.filter((t) => t.project === LONG_WAIT_PROJECT);
  const declared = listed.filter((t) => inLongWaitLane(t.creates));
  assert.ok(lane.length > 0, 'the retention test is in the lane');
  assert.deepEqual(lane.map((t) => `${t.file} › ${t.title}`).sort(), declared.map((t) => `${t.file} › ${t.title}`).sort(), 'the lane is the tests whose declaration needs long waits');
  assert.deepEqual([...new Set(listed.map((t) => t.project))].sort(), [SUITE_PROJECT, LONG_WAIT_PROJECT].sort());
  // Each test is listed once, in one project, and the lane's tag is no rule.
  assert.equal(new Set(listed.map((t) => `${t.file} › ${t.title}`)).size, listed.length);
  assert.ok(lane.every((t) => t.rules.length > 0 && !t.rules.some((r) => r.includes('long-waits'))), JSON.stringify(lane.map((t) => t.rules)));
});

test('lanes: the report counts a lane test as its file\'s suite, as the suite project\'s', () => {
  const raw = (project: string): RawTestResult => ({
    id: project, project, file: 'contract/specs/serverless/retention-real-time.spec.ts', title: 't', titlePath: ['t'], status: 'passed', expectedStatus: 'passed',
    durationMs: 1, rules: ['LIMIT.RUN.RETENTION_30_MIN'], failedRules: [], observed: [],
  });
  assert.deepEqual(toOutcomes([raw(LONG_WAIT_PROJECT), raw(SUITE_PROJECT)]).map((o) => o.kind), ['contract', 'contract']);
});
