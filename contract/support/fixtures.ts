import { appendFileSync } from 'node:fs';
import { relative, sep } from 'node:path';
// Playwright's test without its browser fixtures (declared in its public types): the suite
// sends through undici and never opens a browser, and the browser test's automatic fixtures
// (trace recording, context configuration) each cost a step with a captured stack per test.
// Every fixture below is `box: 'self'` for the same reason: no step of its own, no stack.
import { _baseTest as base } from '@playwright/test';
import { readDetectionPlan } from '../../lib/run-config.js';
import { testKey } from '../../lib/protocol.js';
import { clientSettingsOf, keysOf, type Target } from '../../lib/config.js';
import { resolvedTarget, runConfig } from '../../lib/run-config.js';
import { ANNOTATION, ATTACHMENT } from '../../lib/protocol.js';
import { InternalError } from '../../lib/errors.js';
import { ApiClient, type Keys, type KeyRole, type SurfaceUrls } from '../../lib/client/api.js';
import { exchangesKept } from '../../lib/evidence.js';
import { EmulatorControl, type WorldInfo, type WorldOptions } from '../../lib/client/control.js';
import { lostAnswerTransport, undiciTransport, type Transport } from '../../lib/client/transport.js';
import { Pacer, pacedTransport, type PacingStats } from '../../lib/client/pacing.js';
import { blocked as blockedTest, conform, declarationOf } from './rules.js';
import { evidenceFor, metAbsence } from './exchanges.js';
import { Registry, TestTracker, deleteResource, sortForDeletion, uniqueNameFactory, type UniqueName } from '../../lib/cleanup.js';
import { RunBudget } from './budget.js';
import { COUNT_KINDS, type Counts, type Creates } from '../../lib/plan.js';
import { PoolShelf, borrowing, type Pools } from './pools.js';
import { provisioned } from '../../lib/provisioned.js';
import { lacking, skipForNeeds } from './needs.js';

/** What every test knows about the target, resolved once per worker. */
export interface TargetContext {
  config: Target;
  urls: SurfaceUrls;
  /** The emulator's control surface, when the target answers it. */
  control?: EmulatorControl;
  envKeys: Keys;
  endpointId?: string;
}

/** The emulator-only powers a test may use; each skips the test, with its reason, elsewhere. */
export interface Emu {
  readonly available: boolean;
  readonly world: WorldInfo | undefined;
  /** Skips the test unless the control surface is there; `why` says what it is needed for. */
  require(why: string): void;
  readonly control: EmulatorControl | undefined;
  advance(ms: number): Promise<number>;
  setQuotas(quotas: Partial<Record<'minute' | 'hour' | 'day', number>>, resetCounters?: boolean): Promise<void>;
}

/** Time a test keeps for its own deletions; past it they are left to the run's teardown. */
const CLEANUP_RESERVE_MS = 20_000;

/** Quotas for test worlds: high enough that only rate-limit tests meet a 429. */
export const TEST_WORLD_QUOTAS = { minute: 100_000, hour: 1_000_000, day: 10_000_000 } as const;

type WorkerFixtures = { target: TargetContext; faults: string[]; variants: string[]; detection: boolean; pacer: Pacer; budget: RunBudget | undefined; shelf: PoolShelf };
type TestFixtures = {
  /** The test's own connection pool: a connection a server closed under one test never carries another test's request. */
  httpTransport: Transport;
  worldOptions: WorldOptions; world: WorldInfo | undefined; api: ApiClient; emu: Emu; detectionFault: string | undefined;
  /** Set when the test manages the rate limit itself (its own emulator quotas): the client does not pace. */
  selfLimited: { on: boolean };
  /** A name unique to this run and this test, for everything the test creates on the target. */
  uniqueName: UniqueName;
  /**
   * What the test creates, counted against its declaration (lib/plan.ts); on a target without
   * control surface it is also recorded run-wide and deleted after the test.
   */
  tracker: TestTracker;
  /** Pooled resources (lib/plan.ts): shared by a worker's tests on a deployment, the test's own in a world. */
  pools: Pools;
  /** On a target without control surface: deletes what the test made, after it. */
  cleanup: undefined;
  /** Skips the test when its declaration needs what this run lacks (contract/support/needs.ts). */
  needsMet: undefined;
  /** Set once the test's own body has ended: what is sent after it (deletions) decides none of its rules. */
  phase: { teardown: boolean };
};

export const test = base.extend<TestFixtures, WorkerFixtures>({
  faults: [[], { option: true, scope: 'worker' }],
  /** Conforming variants every world answers with (the run configuration's, the variant matrix's projects). */
  variants: [[], { option: true, scope: 'worker' }],
  /** Set by the detection matrix's projects: every test runs with a fault on and is expected to fail. */
  detection: [false, { option: true, scope: 'worker' }],

  // The detection matrix runs each planned test once per fault it was selected for
  // (repetition i: its i-th fault).
  detectionFault: [async ({ detection }, use, testInfo) => {
    if (!detection) { await use(undefined); return; }
    const file = relative(testInfo.config.rootDir, testInfo.file).split(sep).join('/');
    const plan = readDetectionPlan();
    const faults = plan.tests[testKey(file, testInfo.titlePath.slice(1))] ?? plan.all ?? [];
    const fault = faults[testInfo.repeatEachIndex];
    testInfo.skip(fault === undefined, 'detection: no fault planned for this repetition');
    testInfo.annotations.push({ type: ANNOTATION.fault, description: fault! });
    await use(fault);
    // Failing is what a test may do with a fault on, and so may passing (a test the fault does
    // not reach, most tests of `cpc detect --full`): a failed test is marked expected once it
    // failed, so neither outcome counts as unexpected and Playwright never restarts the worker
    // for it. The matrix reads the actual status.
    if (testInfo.status === 'failed') testInfo.fail();
  }, { auto: true, box: 'self' }],

  worldOptions: [{}, { option: true }],

  // One per worker: the target's rate-limit windows are shared by every test the worker runs.
  pacer: [async ({}, use, workerInfo) => {
    await use(new Pacer({ workers: workerInfo.config.workers }));
  }, { scope: 'worker', box: 'self' }],

  // The run's budgets and request count, across workers (contract/support/budget.ts).
  budget: [async ({}, use) => {
    const run = runConfig();
    await use(run.budgetFiles ? new RunBudget(run.budgets ?? {}, run.budgetFiles, run.prices, run.profile.readyTimeoutMs) : undefined);
  }, { scope: 'worker', box: 'self' }],

  shelf: [async ({}, use) => { await use(new PoolShelf()); }, { scope: 'worker', box: 'self' }],

  // One keep-alive connection pool per test (undici, as the rest of the product: a Playwright
  // request context per test cost more CPU than the tests' own checks). Per test, not per
  // worker: behind a proxy at the live quota, a worker-wide pool sent later tests' requests on
  // connections closed under an earlier test's refused oversized body, and they died with
  // ECONNRESET before any answer (LIMIT.RUNSYNC.PAYLOAD_20MB, JOB.PURGE.RESPONSE blocked).
  httpTransport: [async ({}, use) => {
    const transport = undiciTransport();
    await use(transport);
    await transport.close();
  }, { box: 'self' }],

  selfLimited: [async ({ worldOptions }, use) => { await use({ on: worldOptions.quotas !== undefined }); }, { box: 'self' }],

  phase: [async ({}, use) => { await use({ teardown: false }); }, { box: 'self' }],

  uniqueName: [async ({}, use, testInfo) => { await use(uniqueNameFactory(testInfo.testId, testInfo.repeatEachIndex, testInfo.retry)); }, { box: 'self' }],

  target: [async ({}, use) => {
    // Resolved once before any test (the command line, or global setup): never probed again here.
    // The run configuration registers its keys with lib/redact.ts as it is read.
    const config = resolvedTarget();
    const { urls, keys: envKeys } = clientSettingsOf(config);
    const keys = keysOf(config);
    // A deployment's endpoint: the one CPC_ENDPOINT_ID names, else the one the run provisioned from its worker image.
    const endpointId = keys.endpointId ?? (config.control ? undefined : provisioned().endpointId);
    await use({ config, urls, ...(config.control ? { control: new EmulatorControl(config.baseUrl) } : {}), envKeys, ...(endpointId ? { endpointId } : {}) });
  }, { scope: 'worker', box: 'self' }],

  // A fresh emulator world per test: its own accounts, keys, clock, quotas and faults.
  world: [async ({ target, faults, variants, worldOptions, detectionFault }, use, testInfo) => {
    if (!target.control) { await use(undefined); return; }
    const all = [...faults, ...(worldOptions.faults ?? []), ...(detectionFault ? [detectionFault] : [])];
    // Legal chaos (CPC_EMULATOR_CHAOS): the world's draws are keyed by the test, so a seed replays.
    const chaos = runConfig().chaos;
    const world = await target.control.createWorld({ quotas: TEST_WORLD_QUOTAS, ...worldOptions, faults: all, variants: [...variants, ...(worldOptions.variants ?? [])],
      ...(chaos ? { chaos: { ...chaos, key: `${testInfo.testId}.${testInfo.repeatEachIndex}.${testInfo.retry}` } } : {}) });
    await use(world);
    await target.control.deleteWorld(world.id).catch(() => undefined);
  }, { box: 'self' }],

  // Before the body: a test whose declared needs (lib/needs.ts) this run lacks is skipped with their reasons.
  needsMet: [async ({ target, world }, use, testInfo) => {
    skipForNeeds(testInfo, target, world !== undefined);
    await use(undefined);
  }, { auto: true, box: 'self' }],

  tracker: [async ({ target }, use, testInfo) => {
    const file = runConfig().cleanupFile;
    await use(new TestTracker(!target.control && file ? new Registry(file) : undefined, testInfo.titlePath.slice(1).join(' › ')));
  }, { box: 'self' }],

  api: [async ({ httpTransport, target, world, pacer, selfLimited, tracker, budget, phase }, use, testInfo) => {
    const keys = world ? world.keys : target.envKeys;
    // A connection broken before any answer (a read already tried twice) decides no rule: the test
    // is blocked. Once its body has ended (its checks passed or failed), a lost answer to a
    // deletion changes nothing of what it found: a note says so, the deletion is left to the
    // run's teardown, and the test keeps its outcome on the console and in the report alike.
    const reaching = lostAnswerTransport(httpTransport, (lost) => {
      if (!phase.teardown) return blockedTest(lost.message);
      testInfo.annotations.push({ type: ANNOTATION.note, description: `after the test: ${lost.message}; left to the run's teardown` });
      throw lost;
    });
    const transport = pacedTransport(reaching, pacer, {
      budgetMs: runConfig().profile.rateLimitBudgetMs, disabled: () => selfLimited.on,
      // Time spent waiting for the target's rate limit does not count against the test's timeout.
      onWait: (ms) => { if (testInfo.timeout > 0) testInfo.setTimeout(testInfo.timeout + ms); },
    });
    const client = new ApiClient(target.urls, keys, transport, world ? { 'x-emulator-world': world.id } : {},
      (role: KeyRole) => (role === 'main' ? testInfo.skip(true, 'the target has no main key (set CPC_API_KEY)') : lacking(testInfo, role === 'readonly' ? 'readonlyKey' : 'otherKey')));
    const declared = declarationOf(testInfo.annotations);
    const sent: Record<string, number> = {};
    // Reservations of the pods this test (or a pool it fills) means to create, in the order sent.
    const reservations: string[] = [];
    const createsPods = (declared.gpuPods ?? 0) + (declared.cpuPods ?? 0) + (declared.maybe?.gpuPods ?? 0) + (declared.maybe?.cpuPods ?? 0) > 0;
    client.gates.push((call) => {
      const reached = budget?.request(call);
      if (reached) blockedTest(`budget reached: ${reached}`);
      sent[call.surface] = (sent[call.surface] ?? 0) + 1;
      if (budget && call.operation === 'createPod' && (createsPods || tracker.pool)) {
        const r = budget.reservePod(call.requestBody);
        if ('reached' in r) blockedTest(`budget reached: ${r.reached}`);
        reservations.push(r.id);
      }
    });
    client.observers.push((e) => {
      if (e.operation !== 'createPod' || reservations.length === 0) return;
      const id = reservations.shift()!;
      if (e.status < 200 || e.status >= 300) budget?.release(id);
    });
    // An answer that says an operation is missing decides the findings read from it (rules.ts, conform).
    client.observers.push((e) => { if (e.absent !== undefined) metAbsence(testInfo, e.absent); });
    tracker.attach(client);
    await use(client);
    const total = Object.values(sent).reduce((a, b) => a + b, 0);
    testInfo.annotations.push({ type: ANNOTATION.usage, description: JSON.stringify({ requests: { total, bySurface: sent }, created: tracker.made }) });
    const note = pacingNote(transport.stats);
    if (note) {
      testInfo.annotations.push({ type: ANNOTATION.rateLimitWait, description: note });
      // The run's teardown sums these into pacing.json beside the report.
      const pacingFile = runConfig().pacingFile;
      if (pacingFile) appendFileSync(pacingFile, JSON.stringify({ test: testInfo.titlePath.slice(1).join(' › '), ...transport.stats }) + '\n');
    }
    // Only the exchanges the report keeps (lib/evidence.ts) are redacted and attached.
    const failed = testInfo.status === 'failed' || testInfo.status === 'timedOut';
    const kept = exchangesKept(failed, testInfo.annotations.some((a) => a.type === ANNOTATION.observed));
    const evidence = evidenceFor(testInfo, client.recentEvidence(kept), kept);
    if (evidence.length > 0) {
      await testInfo.attach(ATTACHMENT.evidence, { body: JSON.stringify(evidence, null, 2), contentType: 'application/json' });
    }
    // Creating more than the test declares is a defect of the suite (the plan and the budgets
    // would be wrong): the test fails, naming the kind, and what it made is deleted as usual.
    const over = overDeclaration(declared, tracker.made);
    if (over) throw new InternalError(`${over}: declare it with rules(..., creates({...})) (lib/plan.ts)`);
  }, { box: 'self' }],

  pools: [async ({ api, tracker, shelf, target, world, phase }, use, testInfo) => {
    const declared = declarationOf(testInfo.annotations).pools ?? [];
    const pools = borrowing(shelf, { api, tracker, shared: !target.control || !world, declared });
    await use(pools);
    phase.teardown = true;
    const failed = testInfo.status !== testInfo.expectedStatus && testInfo.status !== 'skipped';
    const findings = await pools.returnAll(failed);
    // A restore that exercises a rule is that rule's check too: a passing test fails on it.
    if (testInfo.status === 'passed') conform(findings);
  }, { box: 'self' }],

  // Auto, so it is set up before (and torn down after) the helpers that delete their own creations.
  cleanup: [async ({ api, target, tracker, phase }, use, testInfo) => {
    if (target.control || !tracker.registry) { await use(undefined); phase.teardown = true; return; }
    const started = Date.now();
    await use(undefined);
    phase.teardown = true;
    // Whatever the test left (failed or not): deleted now, while the test's time lasts (a paced
    // target may take seconds a deletion); what remains or resists is the run's teardown's to
    // delete, so cleaning up never stops a test that passed its checks.
    for (const r of sortForDeletion([...tracker.open.values()])) {
      if (testInfo.timeout > 0 && testInfo.timeout - (Date.now() - started) < CLEANUP_RESERVE_MS) break;
      await deleteResource(api, r);
    }
  }, { auto: true, box: 'self' }],

  emu: [async ({ target, world, selfLimited }, use, testInfo) => {
    // A world whose clock runs in real time (legal chaos, real-time) is tested as a deployment is:
    // moving its clock would make time pass faster than the target counts it.
    const realTime = runConfig().chaos?.realTime === true;
    const control = realTime ? undefined : target.control;
    const emu: Emu = {
      available: control !== undefined && world !== undefined,
      world,
      control,
      require(why: string) {
        if (control && world) return;
        // A test must declare what it needs (preflight forecasts from it): lacking() fails one that did not.
        if (!realTime) lacking(testInfo, 'control');
        testInfo.skip(true, realTime
          ? `needs the emulator's virtual clock or control surface to ${why}; this world's clock runs in real time`
          : `needs the emulator's control surface to ${why}; the target has none`);
      },
      async advance(ms) {
        this.require('move the virtual clock');
        return control!.advance(world!.id, ms);
      },
      async setQuotas(quotas, resetCounters = true) {
        this.require('set rate-limit quotas');
        selfLimited.on = true;
        await control!.setQuotas(world!.id, quotas, resetCounters);
      },
    };
    await use(emu);
  }, { box: 'self' }],
});

/**
 * Whether counts of a shared resource (an endpoint's job counts) show what this test alone did:
 * in an emulator world, yes; on a deployment other tests change them meanwhile and no id tells
 * their jobs apart, so the count comparison is not made there, and a note on the test says so.
 */
export function countsAreOwn(emu: Emu, what: string): boolean {
  if (emu.available) return true;
  test.info().annotations.push({ type: ANNOTATION.note, description: `not checked on a shared target: ${what} (other tests change the endpoint's job counts meanwhile, and jobs cannot be listed by id)` });
  return false;
}

/** What the client waited for the rate limit, as a note for the report (none when it never waited). */
function pacingNote(stats: PacingStats): string | undefined {
  if (stats.pacedMs + stats.retryAfterMs === 0 && stats.gaveUp === 0) return undefined;
  return `waited ${((stats.pacedMs + stats.retryAfterMs) / 1000).toFixed(1)} s for the target's rate limit (${(stats.pacedMs / 1000).toFixed(1)} s pacing by RateLimit, ${(stats.retryAfterMs / 1000).toFixed(1)} s after ${stats.retried} 429 answer(s) by Retry-After${stats.gaveUp ? `; ${stats.gaveUp} 429 answer(s) returned to the test when the budget of CPC_RATE_LIMIT_BUDGET_MS ran out` : ''})`;
}

/** What the test made beyond its declaration, by kind; undefined when within it. */
export function overDeclaration(declared: Creates, made: Counts): string | undefined {
  const allowed = (k: keyof Counts) => (declared[k] ?? 0) + (declared.maybe?.[k] ?? 0);
  const over = COUNT_KINDS.filter((k) => (made[k] ?? 0) > allowed(k));
  return over.length ? `the test created ${over.map((k) => `${made[k]} ${k} (declares ${allowed(k)})`).join(', ')}` : undefined;
}
