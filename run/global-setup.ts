import { appendFileSync, existsSync, readFileSync, rmSync, statSync, writeFileSync } from 'node:fs';
import { dirname, join } from 'node:path';
import type { FullConfig } from '@playwright/test';
import { resolvedTarget, runConfig } from '../lib/run-config.js';
import { clientSettingsOf, keysOf, type Target } from '../lib/config.js';
import { hourlyPrice, zeroCounts } from '../lib/plan.js';
import type { PacingFile, RunConfig, UsageFile } from '../lib/protocol.js';
import { ApiClient, type KeyRole } from '../lib/client/api.js';
import { undiciTransport } from '../lib/client/transport.js';
import { Pacer, pacedTransport } from '../lib/client/pacing.js';
import { provision, provisionChoice, PROVISIONING } from './provision/worker.js';
import { observedWorkerTime } from '../lib/worker-time.js';
import { closeRunFolder, openRunFolder } from '../lib/run-folder.js';
import { countKindOf, describeLeftovers, leftoversPath, recordedIds, Registry, stillHeld, sweep, writeLeftovers } from '../lib/cleanup.js';
import { TEMPLATE_DELETION_DELAY_MS } from '../lib/iso/spec-constants.js';

/**
 * A run of `cpc` comes with its target resolved. A plain `npx playwright test` comes with a
 * pending one (lib/run-config.ts): here it is resolved once (the embedded emulator started on a
 * free loopback port, or a deployment asked whether its control surface answers) and written to
 * the file the workers read. The configuration itself is never changed.
 *
 * Against a target without the emulator's control surface (a deployment), every test shares
 * its account: the run gets an id that every name it makes carries, a registry of what it
 * creates (the configuration's `cleanupFile`), and a teardown, run also after a failure or
 * Ctrl-C, that deletes whatever is still there and writes the rest to `leftovers.json` beside
 * the report; the time tests waited for the target's rate limit goes to `pacing.json` there.
 */
export default async function globalSetup(config: FullConfig): Promise<(() => Promise<void>) | undefined> {
  const run = runConfig();
  const runId = run.runId!;
  // The run's records live in its own temporary folder, removed as the run ends (lib/run-folder.ts).
  openRunFolder(run);
  for (const f of Object.values(run.budgetFiles ?? {})) rmSync(f, { force: true });
  let stopEmbedded: (() => Promise<void>) | undefined;
  if (run.target.kind === 'pending') {
    // A plain `npx playwright test`: the target is resolved here, once, and written where the
    // workers read it (lib/run-config.ts `resolvedTarget`). A run of `cpc` comes resolved.
    const pending = run.target;
    let target: Target;
    if (pending.setting.kind === 'embedded') {
      // Imported here: a run of `cpc` started its emulator itself and never loads it into Playwright's runner.
      const { startEmbedded } = await import('./embedded.js');
      const embedded = await startEmbedded();
      target = embedded.target;
      stopEmbedded = () => embedded.close();
    } else {
      target = await (await import('./target.js')).resolveDeployment(pending.setting);
    }
    writeFileSync(pending.file, JSON.stringify(target), { mode: 0o600 });
  }
  const target = resolvedTarget(run);
  // An emulator (the embedded one, or one whose control surface answers) gives each test a world
  // of its own: nothing is left to clean up.
  if (target.control) {
    return async () => { await stopEmbedded?.(); closeRunFolder(run); };
  }
  const leftovers = leftoversPath(config.rootDir);
  rmSync(leftovers, { force: true });
  const file = run.cleanupFile!;
  const pacingFile = run.pacingFile!;
  const pacing = join(dirname(leftovers), 'pacing.json');
  rmSync(pacing, { force: true });
  rmSync(join(dirname(leftovers), 'usage.json'), { force: true });
  process.stdout.write(`Run ${runId}: what it creates on the target is named cpc-${runId}-… and deleted before the run ends (record: ${file})\n`);
  const choice = provisionChoice(run, keysOf(target).endpointId);
  if (choice.endpoint || choice.hold || choice.template) {
    const { api, close } = setupClient(target, run);
    try { await provision(api, run, choice, (line) => process.stdout.write(line + '\n')); } finally { await close(); }
  }
  return async () => {
    const registry = new Registry(file);
    const { created, open } = registry.outstanding();
    let left: Awaited<ReturnType<typeof sweep>> = [];
    const { api, close } = setupClient(target, run);
    // The account of the main key, and of each other key the record shows creating something: a
    // key that created nothing the run knows of (a read-only key, another account's, used to be
    // refused) holds nothing of the run's, and listing it would be three requests for nothing.
    const used = new Set<KeyRole>(['main', ...registry.records().flatMap((r) => (r.auth ? [r.auth] : []))]);
    const roles = (Object.keys(clientSettingsOf(target).keys) as KeyRole[]).filter((role) => used.has(role));
    try {
      if (open.length > 0) {
        process.stdout.write(`cleanup: deleting ${open.length} resource(s) the tests left on the target\n`);
        // What resists the first pass is mostly a template its endpoints (deleted in that pass)
        // held: a conforming target lets it go within the spec's 2 minutes, so the sweep tries
        // again once they have passed rather than every so often before (each a request).
        left = await sweep(api, open, { retryForMs: run.profile.cleanupWaitMs, retryEveryMs: TEMPLATE_DELETION_DELAY_MS + 5_000, log: (line) => process.stdout.write(line + '\n') });
      }
      // Checked by looking, once: what the account still lists under the run's names is deleted
      // again and else left behind, whatever the record says; that listing also finds what a
      // create whose answer was lost made (never recorded), so no listing precedes the sweep.
      left = [...left, ...await stillHeld(api, runId, roles, left, { retryForMs: run.profile.cleanupWaitMs, log: (line) => process.stdout.write(line + '\n'), recorded: recordedIds(registry) })];
    } finally {
      await close();
    }
    for (const r of open) if (!left.some((l) => l.kind === r.kind && l.id === r.id && l.name === r.name)) registry.done(r);
    writeLeftovers(leftovers, { runId, created, leftovers: left, writtenAt: new Date().toISOString() });
    writeFileSync(join(dirname(leftovers), 'usage.json'), JSON.stringify(usageOf(runId, registry, run), null, 2) + '\n');
    const waits = summarisePacing(pacingFile);
    writeFileSync(pacing, JSON.stringify({ runId, ...waits }, null, 2) + '\n');
    if (waits.tests.length) process.stdout.write(`rate limit: ${waits.tests.length} test(s) waited ${(waits.totalMs / 1000).toFixed(1)} s in all for the target's rate limit (${waits.retried} 429 answer(s) waited out, ${waits.gaveUp} given back when the budget ran out)\n`);
    process.stdout.write(left.length ? describeLeftovers(left) + '\n' : `cleanup: the run created ${created} resource(s) on the target; none is left (the account lists nothing under the run's names)\n`);
    const { kept } = closeRunFolder(run);
    if (kept) process.stdout.write(`cleanup: the record of what the run created stays at ${kept}\n`);
  };
}

/** A client of the run's own (one connection, paced): its requests count with the run's (deletions and provisioning are never refused). */
function setupClient(target: Target, run: RunConfig): { api: ApiClient; close: () => Promise<void> } {
  const { urls, keys } = clientSettingsOf(target);
  const http = undiciTransport({ connections: 1 });
  const api = new ApiClient(urls, keys, pacedTransport(http, new Pacer(), { budgetMs: run.profile.rateLimitBudgetMs }));
  const counted = run.budgetFiles?.requests;
  if (counted) api.gates.push(() => appendFileSync(counted, '.'));
  return { api, close: () => http.close() };
}

/** What the run made (its record), for how long, at what estimated cost, and how many requests it sent. */
export function usageOf(runId: string, registry: Registry, run: RunConfig, now = Date.now()): UsageFile {
  const created = zeroCounts();
  const byShape: Record<string, number> = {};
  const podMinutes: UsageFile['podMinutes'] = { gpu: {}, cpu: {} };
  let cost = 0;
  let unpriced = 0;
  for (const r of registry.records()) {
    const kind = countKindOf(r);
    created[kind] += 1;
    if (kind === 'endpoints' && (r.shape?.workersMin ?? 0) > 0) created.warmEndpoints += 1;
    const shape = r.kind === 'pod'
      ? r.shape?.gpu ? `GPU pod ${r.shape.gpu.id} x${r.shape.gpu.count ?? 1}${r.shape.mounts ? `, ${r.shape.mounts} mount` : ''}` : `CPU pod ${r.shape?.cpu?.id ?? '?'} ${r.shape?.cpu?.vcpuCount ?? '?'} vCPU${r.shape?.mounts ? `, ${r.shape.mounts} mount` : ''}`
      : r.kind === 'endpoint' ? `endpoint workersMin ${r.shape?.workersMin ?? 0} workersMax ${r.shape?.workersMax ?? '?'}` : r.kind === 'networkVolume' ? 'network volume' : r.kind;
    byShape[shape] = (byShape[shape] ?? 0) + 1;
    if (r.kind !== 'pod') continue;
    const minutes = Math.max(0, ((r.deletedAt ?? now) - (r.at ?? now)) / 60_000);
    const [table, id] = r.shape?.gpu ? [podMinutes.gpu, r.shape.gpu.id] : [podMinutes.cpu, r.shape?.cpu?.id ?? '?'];
    table[id] = (table[id] ?? 0) + minutes;
    const hourly = hourlyPrice(run.prices, r.shape ?? {});
    if (hourly === undefined) unpriced += 1;
    else cost += hourly * minutes / 60;
  }
  const requests = run.budgetFiles ? (() => { try { return statSync(run.budgetFiles.requests).size; } catch { return 0; } })() : 0;
  // The endpoints provisioned from the worker image: their lifetimes bound their workers' time (lib/worker-time.ts).
  const provisioned = registry.records().filter((r) => r.kind === 'endpoint' && r.test === PROVISIONING).map((r) => ({ ...r, ...(r.shape?.workersMax !== undefined ? { workersMax: r.shape.workersMax } : {}) }));
  const workerTime = observedWorkerTime(provisioned, run.prices, now);
  return { runId, created, byShape, podMinutes, ...(run.prices ? { estimatedCostUsd: cost } : {}), unpriced, ...(workerTime ? { workerTime } : {}), requests, writtenAt: new Date(now).toISOString() };
}

/** The tests' waits for the rate limit (one JSON line per test that waited), summed for `pacing.json`. */
function summarisePacing(file: string): Omit<PacingFile, 'runId'> {
  const tests = existsSync(file)
    ? readFileSync(file, 'utf8').split('\n').filter((l) => l.trim()).map((l) => JSON.parse(l) as PacingFile['tests'][number])
    : [];
  return {
    totalMs: tests.reduce((n, t) => n + t.pacedMs + t.retryAfterMs, 0),
    retried: tests.reduce((n, t) => n + t.retried, 0),
    gaveUp: tests.reduce((n, t) => n + t.gaveUp, 0),
    tests,
  };
}
