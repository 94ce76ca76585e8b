/**
 * A fixed report for the report's own tests (node:test and the browser test): every kind of
 * content a real run produces, with nothing taken from the live rule catalog, so the tests
 * do not move when the catalog grows.
 */
import type { Rule } from '../../lib/rules.js';
import type { Evidence } from '../../lib/evidence.js';
import { buildReport } from '../build.js';
import type { ConformanceReport } from '../model.js';
import type { LoadSection } from '../load-model.js';
import type { RawPlannedTest, RawTestResult } from '../raw.js';

const rule = (id: string, level: Rule['level'], surface: Rule['surface'], statement: string, extra: Partial<Rule> = {}): Rule =>
  ({ id, level, surface, section: extra.section ?? 'Errors', statement, quote: statement, ...extra });

/** Ten rules across the four surfaces and both levels. */
export const fixtureRules: Rule[] = [
  rule('AUTH.REST_V2.MISSING_401', 'MUST', 'rest-v2', 'A request without a bearer token gets 401.', { section: 'Authentication' }),
  rule('ERR.PROBLEM_JSON.CONTENT_TYPE', 'MUST', 'rest-v2', 'Error bodies are application/problem+json.'),
  rule('POD.CREATE.GPU_AND_CPU_STATUS', 'OBSERVED', 'rest-v2', 'The status when both gpu and cpu are set.', { section: 'Errors', observedExpectation: '400 problem+json' }),
  rule('POD.CREATE.VALID_201', 'MUST', 'rest-v2', 'A valid CreatePodRequest gets 201 and a PROVISIONING pod.', { section: 'createPod: POST {base_url}/v2/pods' }),
  rule('JOB.RUNSYNC.WAIT_ELAPSED', 'OBSERVED', 'serverless', 'The response of /runsync when the wait elapses.', { section: 'Job status (queue-based endpoint)', observedExpectation: '200 with status IN_PROGRESS' }),
  rule('JOB.RUN.PAYLOAD_10MB', 'MUST', 'serverless', 'A /run body over 10 MB is rejected.', { section: 'Limits' }),
  rule('RATE.HEADERS.ON_SUCCESS', 'MUST', 'all', 'RateLimit and RateLimit-Policy accompany successful responses.', { section: 'Limits' }),
  rule('V1.ENDPOINT.CREATE', 'MUST', 'rest-v1', 'POST /v1/endpoints creates an endpoint.', { section: 'Serverless endpoint creation (REST v1)' }),
  rule('GQL.TEMPLATE.DELETE_BY_NAME', 'MUST', 'graphql', 'deleteTemplate identifies the template by its name.', { section: 'GraphQL' }),
  rule('SECRET.DELETE.BY_ID', 'MUST', 'graphql', 'secretDelete identifies the secret by its id.', { section: 'GraphQL' }),
];

export interface FixtureOptions {
  /** Put this string into every place a target or a test controls (statements, bodies, titles...). */
  hostile?: string;
  /** An API key to plant in evidence, URLs, bodies and error messages. */
  plantedKey?: string;
  complete?: boolean;
}

function evidence(key: string, body: string): Evidence {
  return {
    operation: 'createPod',
    request: { method: 'POST', url: `http://127.0.0.1:4010/v2/pods?api_key=${key}`, headers: { authorization: `Bearer ${key}`, 'content-type': 'application/json' }, body: `{"name":"x","api_key":"${key}","note":${JSON.stringify(body)}}`, bodyBytes: 120 },
    response: { status: 200, headers: { 'content-type': 'application/json', 'x-echo-auth': `authorization: ${key}` }, body: `{"id":"pod-1","echo":"${key}","detail":${JSON.stringify(body)}}`, bodyBytes: 64, durationMs: 3.2 },
    curl: `curl -sS -i -X POST 'http://127.0.0.1:4010/v2/pods?api_key=${key}' -H 'authorization: Bearer ${key}' -H 'x-api-key: ${key}' --data-raw '{"name":"x"}'`,
  };
}

const raw = (id: string, project: string, title: string, status: RawTestResult['status'], rules: string[], extra: Partial<RawTestResult> = {}): RawTestResult => ({
  id, project, file: `${project}/specs/fixture.spec.ts`, title, titlePath: ['fixture', title], status, expectedStatus: 'passed', durationMs: 42,
  rules, failedRules: [], observed: [], ...extra,
});

/** The raw results of a run with a failure, observations, a skip, a property counterexample and a test never reached. */
export function fixtureRaw(o: FixtureOptions = {}): { tests: RawTestResult[]; planned: RawPlannedTest[] } {
  const h = o.hostile ?? '';
  const key = o.plantedKey ?? 'cpk_fixtureKeyAAAAAAAAAAAAAAAAAA';
  const tests: RawTestResult[] = [
    raw('t-auth', 'contract', `a missing key gets 401 ${h}`, 'failed', ['AUTH.REST_V2.MISSING_401', 'ERR.PROBLEM_JSON.CONTENT_TYPE'], {
      failedRules: ['AUTH.REST_V2.MISSING_401'],
      error: `the target breaks 1 expectation(s):\n  [AUTH.REST_V2.MISSING_401] expected 401, got 200 with authorization: Bearer ${key} ${h}`,
      evidence: [evidence(key, h)],
    }),
    raw('t-both', 'contract', 'both gpu and cpu', 'passed', ['POD.CREATE.GPU_AND_CPU_STATUS'], { observed: [{ rule: 'POD.CREATE.GPU_AND_CPU_STATUS', value: { status: 400, note: h } }] }),
    raw('t-both-2', 'contract', 'both gpu and cpu, again', 'passed', ['POD.CREATE.GPU_AND_CPU_STATUS'], { observed: [{ rule: 'POD.CREATE.GPU_AND_CPU_STATUS', value: { note: h, status: 400 } }] }),
    raw('t-create', 'contract', 'a valid pod is created', 'passed', ['POD.CREATE.VALID_201', 'RATE.HEADERS.ON_SUCCESS']),
    raw('t-wait', 'contract', 'runsync wait elapses', 'skipped', ['JOB.RUNSYNC.WAIT_ELAPSED'], { skipReason: 'needs CPC_ENDPOINT_ID' }),
    raw('t-v1', 'contract', 'creates an endpoint', 'interrupted', ['V1.ENDPOINT.CREATE']),
    raw('t-prop', 'property', 'createPod accepts every valid request (seed 1234)', 'failed', ['POD.CREATE.VALID_201'], {
      failedRules: ['POD.CREATE.VALID_201'],
      error: `Property failed after 3 tests ${h}`,
      property: { seed: 1234, numRuns: 3, path: '2:0', counterexample: `[{"name":"${h || 'a'}","image":"x","gpu":{"id":"A"}}]`, replay: 'CPC_SEED=1234 CPC_PATH=2:0 npx playwright test --project=property -g "createPod accepts"' },
    }),
  ];
  const planned: RawPlannedTest[] = [...tests.map(({ id, project, file, title, titlePath, rules }) => ({ id, project, file, title, titlePath, rules })),
    { id: 't-gql', project: 'contract', file: 'contract/specs/graphql.spec.ts', title: 'deleteTemplate by name', titlePath: ['graphql', 'deleteTemplate by name'], rules: ['GQL.TEMPLATE.DELETE_BY_NAME'] }];
  return { tests, planned };
}

/** Load results: one scenario that met its thresholds, one that did not. */
export function fixtureLoad(h = ''): LoadSection {
  const points: [number, number][] = Array.from({ length: 30 }, (_, i) => [i * 1000, Math.max(0, 60 - i * 3)]);
  return {
    dir: 'reports/out/load',
    scenarios: [
      { file: 'reports/out/load/runsync.json', writtenAt: '2025-01-01T00:10:00.000Z', ok: true, failedThresholds: [], summary: {
        scenario: 'runsync-payload', description: `20 MB runsync bodies ${h}`, rules: ['JOB.RUN.PAYLOAD_10MB'],
        thresholds: { 'http_req_duration{scenario:runsync}: p(95)<2000': { ok: true } }, checks: [{ name: 'status is 200', passes: 120, fails: 0 }],
        metrics: { http_req_duration: { p50: 12.5, p90: 40.1, p95: 55, p99: 120.75, max: 300 }, http_reqs: { count: 120, rate: 4 } } } },
      { file: 'reports/out/load/ratelimit.json', writtenAt: '2025-01-01T00:11:00.000Z', ok: false, failedThresholds: ['checks: rate>0.99'], summary: {
        scenario: 'ratelimit-headers', rules: ['RATE.HEADERS.ON_SUCCESS'],
        thresholds: { 'checks: rate>0.99': { ok: false }, 'http_req_failed: rate<0.01': { ok: true } },
        checks: [{ name: `RateLimit header present ${h}`, passes: 90, fails: 10 }],
        metrics: { http_req_duration: { p50: 3, p90: 8, p95: 9.5, p99: 20, max: 41 } }, series: { ratelimitRemaining: points } } },
    ],
    errors: [{ file: 'reports/out/load/broken.json', message: `not JSON ${h}` }],
  };
}

/** The whole fixture report (incomplete, with a hostile string when asked). */
export function fixtureReport(o: FixtureOptions = {}): ConformanceReport {
  const h = o.hostile ?? '';
  const rules = h ? fixtureRules.map((r) => ({ ...r, statement: `${r.statement} ${h}`, section: `${r.section} ${h}` })) : fixtureRules;
  const { tests, planned } = fixtureRaw(o);
  return buildReport({
    rules, raw: tests, planned,
    target: { kind: 'embedded', baseUrl: 'http://127.0.0.1:4010', serverlessUrl: 'http://127.0.0.1:4010', restV1Url: 'http://127.0.0.1:4010', keys: { main: false, readonly: false, other: false }, emulator: true,
      faults: [{ id: 'auth.missing-key-accepted', rule: 'AUTH.REST_V2.MISSING_401', description: `REST v2 answers a request without a key ${h}` }] },
    startedAt: new Date('2025-01-01T00:00:00.000Z'), finishedAt: new Date('2025-01-01T00:00:42.000Z'),
    complete: o.complete ?? false, ...(o.complete === false || o.complete === undefined ? { interruption: `interrupted by SIGINT ${h}` } : {}),
    seed: 1234, replay: 'CPC_SEED=1234 npm run conformance', suiteVersion: '0.1.0',
    configuration: { projects: 'contract,property', workers: 2 }, load: fixtureLoad(h),
  });
}
