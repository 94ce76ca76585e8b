/**
 * Inputs of the cost section for the report's own tests: raw results carrying usage
 * annotations, and the files a deployment run leaves beside the report.
 */
import { mkdirSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { buildReport } from '../build.js';
import type { ConformanceReport } from '../model.js';
import type { RawTestResult, TestUsage } from '../raw.js';
import { COST_FILES, type CostFiles } from '../cost.js';
import { fixtureRaw, fixtureRules } from './fixture.js';

export const usage = (bySurface: Record<string, number>, created: Record<string, number> = {}): TestUsage =>
  ({ requests: { total: Object.values(bySurface).reduce((a, b) => a + b, 0), bySurface }, created });

/** The fixture's raw results with usage on every test that ran; with `retry`, one test's first attempt too. */
export function costRaw(retry = false): RawTestResult[] {
  const { tests } = fixtureRaw();
  const byId: Record<string, TestUsage> = {
    't-auth': usage({ 'rest-v2': 3 }),
    't-both': usage({ 'rest-v2': 2, graphql: 1 }, { gpuPods: 1 }),
    't-both-2': usage({ 'rest-v2': 2 }, { cpuPods: 1 }),
    't-create': usage({ 'rest-v2': 5, graphql: 2, serverless: 1 }, { gpuPods: 1, networkVolumes: 1 }),
    't-v1': usage({ 'rest-v1': 4 }, { endpoints: 1, warmEndpoints: 1, templates: 1 }),
    't-prop': usage({ 'rest-v2': 40 }, { cpuPods: 2, secrets: 1 }),
  };
  const out = tests.map((t) => (byId[t.id] ? { ...t, usage: byId[t.id] } : t));
  // A retried test: its first attempt's requests were sent too.
  if (retry) out.push({ ...tests.find((t) => t.id === 't-create')!, status: 'failed', usage: usage({ 'rest-v2': 6 }, { gpuPods: 1 }) });
  return out;
}

const STARTED = '2025-01-01T00:00:00.000Z';
const FINISHED = '2025-01-01T00:00:42.000Z';

/** A report built from {@link costRaw}, with files when given. */
export function costReport(files?: CostFiles, over: { startedAt?: Date; finishedAt?: Date } = {}): ConformanceReport {
  const { planned } = fixtureRaw();
  return buildReport({
    rules: fixtureRules, raw: costRaw(), planned,
    target: { kind: 'remote', name: 'staging', baseUrl: 'https://api.example.test', keys: { main: true, readonly: false, other: false }, emulator: false, faults: [] },
    startedAt: over.startedAt ?? new Date(STARTED), finishedAt: over.finishedAt ?? new Date(FINISHED), complete: true,
    seed: 7, suiteVersion: '0.1.0', configuration: { projects: 'contract,property', workers: 2 },
    ...(files ? { costFiles: files } : {}),
  });
}

/** The four files as a deployment run writes them; `secret` is planted where a name could carry one. */
export function deploymentFiles(runId = 'r1', secret = ''): Record<keyof typeof COST_FILES, unknown> {
  return {
    usage: {
      runId, created: { gpuPods: 3, cpuPods: 5, networkVolumes: 2, endpoints: 1, warmEndpoints: 1, templates: 1, secrets: 1 },
      byShape: { 'GPU NVIDIA A40 x1': 3, 'CPU cpu3c 2 vCPU': 5, 'network volume': 2 },
      podMinutes: { gpu: { 'NVIDIA A40': 12.5 }, cpu: { cpu3c: 7.25 } }, estimatedCostUsd: 0.4321, unpriced: 1, requests: 1234, writtenAt: FINISHED,
    },
    pacing: { runId, totalMs: 12_345, retried: 3, gaveUp: 1, tests: [{ test: 'a', pacedMs: 10_000, retryAfterMs: 2345, retried: 3, gaveUp: 1 }] },
    leftovers: {
      runId, created: 14, writtenAt: FINISHED,
      leftovers: [{ kind: 'pod', id: 'pod-9', name: `cpc-${runId}-gpu ${secret}`, reason: 'DELETE answered 500', test: `pods › create ${secret}`, auth: 'main' }],
    },
    plan: { counts: { gpuPods: 2, cpuPods: 5, networkVolumes: 2, endpoints: 1, warmEndpoints: 1, templates: 1, secrets: 1 }, pools: ['cpuPod', 'gpuPod'], requests: 1500, estimatedCostUsd: 2.5 },
  };
}

/** Writes the files into `dir` (only those named in `which`). */
export function writeDeploymentFiles(dir: string, which: readonly (keyof typeof COST_FILES)[] = ['usage', 'pacing', 'leftovers', 'plan'], runId = 'r1', secret = ''): void {
  mkdirSync(dir, { recursive: true });
  const files = deploymentFiles(runId, secret);
  for (const k of which) writeFileSync(join(dir, COST_FILES[k]), JSON.stringify(files[k], null, 2) + '\n');
}
