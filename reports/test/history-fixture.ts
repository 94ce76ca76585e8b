/**
 * Ten nights of one target for the history's tests (node:test and the browser test), built
 * like real reports (buildReport from test results): a rule that starts failing, one that
 * flips back and forth, one fixed on the last night, an incomplete night, load figures that
 * move, two suite versions (the second adds a rule), the first two nights written before
 * target names and trails existed, and every night on another port of the embedded emulator.
 */
import type { Rule } from '../../lib/rules.js';
import { buildReport } from '../build.js';
import type { ConformanceReport } from '../model.js';
import type { LoadSection } from '../load-model.js';
import type { RawTestResult } from '../raw.js';
import { fixtureRules } from './fixture.js';

export const NIGHTS = 10;
/** Starts failing on night 7 and keeps failing. */
export const STARTS_FAILING = 'AUTH.REST_V2.MISSING_401';
export const STARTS_FAILING_NIGHT = 7;
/** Fails on nights 5, 7 and 9, passes on the others: unstable, and a new failure on the last night. */
export const FLIPS = 'ERR.PROBLEM_JSON.CONTENT_TYPE';
/** Fails until night 8, passes on night 9: a new pass. */
export const FIXED = 'V1.ENDPOINT.CREATE';
/** Interrupted on night 3 (an incomplete run: its verdicts are not compared). */
export const INCOMPLETE_NIGHT = 3;
/** Suite 0.2.0 from night 5 adds this rule. */
export const ADDED_RULE = 'SECRET.LIST.NAMES';
export const SECOND_VERSION_NIGHT = 5;

const added: Rule = { id: ADDED_RULE, level: 'MUST', surface: 'graphql', section: 'GraphQL', statement: 'mySelf.secrets lists the secrets by name.', quote: 'lists the secrets' };

const raw = (id: string, title: string, rules: string[], failed: string[] | false, extra: Partial<RawTestResult> = {}): RawTestResult => ({
  id, project: 'contract', file: 'contract/specs/fixture.spec.ts', title, titlePath: ['fixture', title], status: failed ? 'failed' : 'passed', expectedStatus: 'passed',
  durationMs: 10, rules, failedRules: failed || [], observed: [], ...(failed ? { error: `the target breaks 1 expectation(s):\n  [${failed[0]}] expected 401, got 200` } : {}), ...extra,
});

/** The acceptance p95 of night `n` (ms): it grows night by night. */
export const acceptanceP95 = (n: number): number => 100 + 10 * n;
/** The 429 refusals counted on night `n`. */
export const refusals = (n: number): number => 20 + n;
/** Night 1's payload scenario misses a threshold (outside the last seven nights). */
export const THRESHOLD_MISSED_NIGHT = 1;

function load(n: number): LoadSection {
  const ok = n !== THRESHOLD_MISSED_NIGHT;
  return { dir: 'reports/out/load', errors: [], scenarios: [
    { file: 'reports/out/load/payload-limits.json', writtenAt: night(n), ok, failedThresholds: ok ? [] : ['checks rate==1'], summary: {
      scenario: 'payload-limits', rules: ['JOB.RUN.PAYLOAD_10MB'], thresholds: { 'checks rate==1': { ok } }, checks: [{ name: 'an oversized body is refused', passes: 4, fails: ok ? 0 : 1 }],
      metrics: { payload_acceptance_duration: { p50: 50, p95: acceptanceP95(n) }, payload_rejection_duration: { p95: 300 - n }, payload_refusals: { count: 10 } } } },
    { file: 'reports/out/load/rate-limit-headers.json', writtenAt: night(n), ok: true, failedThresholds: [], summary: {
      scenario: 'rate-limit-headers', rules: ['RATE.HEADERS.ON_SUCCESS'], thresholds: { 'ratelimit_refusals count>0': { ok: true } }, checks: [],
      metrics: { ratelimit_refusals: { count: refusals(n) }, ratelimit_retry_after_s: { max: 58 }, 'http_req_duration{scenario:bursts}': { p95: 70 + (n % 3) } } } },
  ] };
}

/** When night `n` started. */
export const night = (n: number): string => new Date(Date.UTC(2025, 2, 1 + n, 3, 23)).toISOString();

/** The report of night `n` (0 to 9), of the embedded emulator unless `baseUrl` names a deployment. */
export function nightReport(n: number, o: { baseUrl?: string; name?: string } = {}): ConformanceReport {
  const second = n >= SECOND_VERSION_NIGHT;
  const flipFails = n >= 5 && n % 2 === 1;
  const tests: RawTestResult[] = [
    raw('t-auth', 'a missing key gets 401', [STARTS_FAILING], n >= STARTS_FAILING_NIGHT && [STARTS_FAILING]),
    raw('t-problem', 'errors are problem+json', [FLIPS], flipFails && [FLIPS]),
    raw('t-create', 'a valid pod is created', ['POD.CREATE.VALID_201', 'RATE.HEADERS.ON_SUCCESS'], false),
    raw('t-both', 'both gpu and cpu', ['POD.CREATE.GPU_AND_CPU_STATUS'], false, { observed: [{ rule: 'POD.CREATE.GPU_AND_CPU_STATUS', value: { status: 400 } }] }),
    raw('t-v1', 'creates an endpoint', [FIXED], n < NIGHTS - 1 && [FIXED]),
    raw('t-gql', 'deleteTemplate by name', ['GQL.TEMPLATE.DELETE_BY_NAME'], false, n === INCOMPLETE_NIGHT ? { status: 'interrupted' } : {}),
    raw('t-wait', 'runsync wait elapses', ['JOB.RUNSYNC.WAIT_ELAPSED'], false, { status: 'skipped', skipReason: 'needs CPC_ENDPOINT_ID' }),
    ...(second ? [raw('t-secret', 'secrets by name', [ADDED_RULE], false)] : []),
  ];
  const remote = o.baseUrl !== undefined;
  const port = 4010 + n;
  const report = buildReport({
    rules: second ? [...fixtureRules, added] : fixtureRules, raw: tests,
    target: { kind: remote ? 'remote' : 'embedded', ...(o.name ? { name: o.name } : n >= 2 ? { name: remote ? o.baseUrl! : 'embedded emulator' } : {}),
      baseUrl: o.baseUrl ?? `http://127.0.0.1:${port}`, keys: { main: remote, readonly: false, other: false }, emulator: !remote, faults: [] },
    startedAt: new Date(night(n)), finishedAt: new Date(Date.parse(night(n)) + 42_000),
    complete: n !== INCOMPLETE_NIGHT, ...(n === INCOMPLETE_NIGHT ? { interruption: 'interrupted by SIGTERM' } : {}),
    seed: 1000 + n, replay: `CPC_SEED=${1000 + n} npm run conformance`, suiteVersion: second ? '0.2.0' : '0.1.0',
    configuration: { projects: 'contract,property', workers: 2 }, load: load(n),
  });
  // The first nights were written by a suite whose reports had no target name (schema 2.0.0).
  return n < 2 ? { ...report, schemaVersion: '2.0.0' } : report;
}

/** The ten nights, oldest first. */
export const nights = (): ConformanceReport[] => Array.from({ length: NIGHTS }, (_, n) => nightReport(n));
