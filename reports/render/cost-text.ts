/** The cost section's words, shared by every format so they tell the same story. */
import type { CostCounts, CostSection } from '../cost-model.js';
import { COST_KINDS } from '../cost-model.js';
import { createdOf, podMinutesOf } from '../cost.js';

export const int = (n: number): string => n.toLocaleString('en-US');
export const usd = (n: number): string => `$${n.toFixed(2)}`;
export const minutes = (n: number): string => n.toFixed(1);
export const waited = (ms: number): string => (ms < 1000 ? `${ms} ms` : `${(ms / 1000).toFixed(1)} s`);

export const KIND_LABEL: Record<keyof CostCounts, string> = {
  gpuPods: 'GPU pods', cpuPods: 'CPU pods', networkVolumes: 'network volumes', endpoints: 'endpoints',
  warmEndpoints: 'warm endpoints (workersMin > 0)', templates: 'templates', secrets: 'secrets',
};

const SINGULAR: Record<keyof CostCounts, string> = {
  gpuPods: 'GPU pod', cpuPods: 'CPU pod', networkVolumes: 'network volume', endpoints: 'endpoint',
  warmEndpoints: 'warm endpoint', templates: 'template', secrets: 'secret',
};

const counted = (n: number, k: keyof CostCounts): string => `${int(n)} ${n === 1 ? SINGULAR[k] : KIND_LABEL[k]}`;
const plural = (n: number, word: string): string => `${int(n)} ${word}${n === 1 ? '' : 's'}`;

/** Resources by kind; warm endpoints are endpoints already counted, so they are not added again. */
export const resourceTotal = (c: CostCounts): number => COST_KINDS.filter((k) => k !== 'warmEndpoints').reduce((n, k) => n + c[k], 0);

/** `3 GPU pods, 9 CPU pods, 1 endpoint (1 warm)`: the kinds made at least once. */
export function kindsText(c: CostCounts): string {
  const parts = COST_KINDS.filter((k) => k !== 'warmEndpoints' && c[k] > 0).map((k) => `${counted(c[k], k)}${k === 'endpoints' && c.warmEndpoints > 0 ? ` (${int(c.warmEndpoints)} warm)` : ''}`);
  return parts.join(', ');
}

/** The parts whose input was missing, named with their file. */
export function notMeasured(c: CostSection): string[] {
  const out: string[] = [];
  if (!c.sources.usage) out.push('cost and pod-minutes (usage.json)');
  if (!c.sources.pacing) out.push('rate-limit waits (pacing.json)');
  if (!c.sources.leftovers) out.push('leftovers (leftovers.json)');
  return out;
}

/** The cost totals in one line, the first thing a reader of the section sees. */
export function costTotals(c: CostSection): string {
  const parts: string[] = [];
  if (c.sources.usage) {
    parts.push(c.estimatedCostUsd !== undefined ? `≈ ${usd(c.estimatedCostUsd)} estimated${c.workerTime ? ' for pods' : ''}${c.unpriced ? ` (${plural(c.unpriced, 'pod')} unpriced)` : ''}` : `no cost estimate (no catalog prices${c.unpriced ? `, ${plural(c.unpriced, 'pod')} unpriced` : ''})`);
  }
  const created = createdOf(c);
  const total = resourceTotal(created);
  parts.push(total ? `${plural(total, 'resource')} created${c.created.run ? '' : ' by the tests'} (${kindsText(created)})` : `nothing created${c.created.run ? '' : ' by the tests'}`);
  const mins = podMinutesOf(c);
  if (mins !== undefined) parts.push(`${minutes(mins)} pod-minutes`);
  const priced = (cost: number | undefined): string => (cost !== undefined ? `≈ ${usd(cost)} at most` : 'unpriced');
  const planned = c.workerTime?.planned;
  const observed = c.workerTime?.observed;
  if (planned) parts.push(`≤ ${minutes(planned.boundMs / 60_000)} worker-minutes planned (${priced(planned.estimatedCostUsd)})`);
  if (observed) parts.push(`≤ ${minutes(observed.workerMinutesAtMost)} worker-minutes observed (${priced(observed.estimatedCostUsd)})`);
  parts.push(`${int(c.requests.run ?? c.requests.total)} requests`);
  if (c.rateLimit) parts.push(`${waited(c.rateLimit.waitedMs)} waited for the rate limit`);
  if (c.leftovers) parts.push(c.leftovers.items.length ? `${int(c.leftovers.items.length)} LEFT BEHIND` : 'nothing left behind');
  return parts.join(' · ');
}

/** The totals and, when some input was missing, what was not measured. */
export function costHeadline(c: CostSection): string {
  const missing = notMeasured(c);
  return `${costTotals(c)}${missing.length ? `; not measured on this target: ${missing.join(', ')}` : ''}`;
}

/** Kinds with anything planned or created, with each column the section has. */
export function kindRows(c: CostSection): { kind: keyof CostCounts; planned?: number; run?: number; tests: number }[] {
  return COST_KINDS
    .map((kind) => ({ kind, tests: c.created.tests[kind], ...(c.created.planned ? { planned: c.created.planned[kind] } : {}), ...(c.created.run ? { run: c.created.run[kind] } : {}) }))
    .filter((r) => r.tests > 0 || (r.planned ?? 0) > 0 || (r.run ?? 0) > 0);
}

/** Pod-minutes by GPU type then CPU flavor, most first. */
export function minuteRows(c: CostSection): { kind: 'GPU' | 'CPU'; type: string; minutes: number }[] {
  if (!c.podMinutes) return [];
  const rows = (kind: 'GPU' | 'CPU', m: Record<string, number>) => Object.entries(m).sort((a, b) => b[1] - a[1] || a[0].localeCompare(b[0])).map(([type, minutes]) => ({ kind, type, minutes }));
  return [...rows('GPU', c.podMinutes.gpu), ...rows('CPU', c.podMinutes.cpu)];
}

/** Requests by surface, most first. */
export const surfaceRows = (c: CostSection): [string, number][] => Object.entries(c.requests.bySurface).sort((a, b) => b[1] - a[1] || a[0].localeCompare(b[0]));

/** The worker-time facts in words, planned then observed (each a bound, priced or unpriced, never a zero for a missing price). */
export function workerTimeFacts(c: CostSection): { label: string; text: string }[] {
  const out: { label: string; text: string }[] = [];
  const p = c.workerTime?.planned;
  if (p) {
    const price = p.estimatedCostUsd !== undefined && p.usdPerHour !== undefined
      ? `≈ ${usd(p.estimatedCostUsd)} at most, at ${usd(p.usdPerHour)} per worker-hour (the dearest serverless price of ${p.tier ?? 'the tier'})`
      : `unpriced: the catalog gives no serverless price for ${p.tier ? `the ${p.tier} pool` : "the endpoint's GPU tier"}`;
    out.push({ label: 'Worker time, planned', text: `at most ${minutes(p.boundMs / 60_000)} worker-minutes${p.tier ? ` on ${p.tier}` : ''} for ${int(p.jobs)} job attempt(s): ${minutes(p.workMs / 60_000)} minutes of handler time the tests declare, the rest each attempt's start and idle allowance; ${price}` });
  }
  const o = c.workerTime?.observed;
  if (o) {
    out.push({ label: 'Worker time, observed', text: `the ${int(o.endpoints)} provisioned endpoint(s) lived ${minutes(o.endpointMinutes)} minutes: their workers ran at most ${minutes(o.workerMinutesAtMost)} worker-minutes (each minute times workersMax); ${o.estimatedCostUsd !== undefined ? `≈ ${usd(o.estimatedCostUsd)} at most` : 'unpriced: the catalog gives no serverless price for their tier'}` });
  }
  return out;
}
