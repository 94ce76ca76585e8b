/** A preflight as text: its checks, the rules that run or are skipped, what the run will create. */
import { redactText } from '../../lib/redact.js';
import type { Counts } from '../../lib/plan.js';
import { WORKER_TIME_BASIS, workerTimeText } from '../../lib/worker-time.js';
import type { CheckStatus, PreflightResult } from './types.js';

/** What keeps the target from being ready: the variables (or checks) at fault, each once. */
export const blockers = (r: PreflightResult): string[] =>
  [...new Set(r.checks.filter((c) => c.status === 'fail' || (c.status === 'missing' && c.required)).map((c) => c.setting ?? c.name))];

/** The plain-text report of a preflight: checks, rules, creations. */
export function preflightText(r: PreflightResult): string {
  const mark: Record<CheckStatus, string> = { ok: 'ok  ', warn: 'warn', missing: 'miss', fail: 'FAIL' };
  const out = ['Preflight checks:'];
  for (const c of r.checks) out.push(`  ${mark[c.status]} ${c.name}: ${c.detail}${c.required && c.status !== 'ok' ? ' (required)' : ''}`);
  if (r.plan) {
    out.push('', `Rules: ${r.plan.runs.length} will run, ${r.plan.skipped.length} will be skipped (from the tests' declared needs; a test may still skip on what the target answers).`);
    const byReason = new Map<string, string[]>();
    for (const s of r.plan.skipped) for (const reason of s.reasons) byReason.set(reason, [...(byReason.get(reason) ?? []), s.rule]);
    for (const [reason, rules] of byReason) out.push(`  skipped, ${reason}: ${rules.length} rule(s): ${rules.slice(0, 8).join(', ')}${rules.length > 8 ? ', …' : ''}`);
  }
  if (r.longWaitLane) {
    const { tests, suiteWorkers } = r.longWaitLane;
    out.push('', `The long waits run beside the suite in a worker of their own: ${tests} test(s) that wait in real time start first, in one Playwright worker beside the suite's ${suiteWorkers} (${suiteWorkers + 1} in all); the run lasts about the longest wait, not the wait plus the suite.`);
  }
  if (r.creates) {
    const c = r.creates;
    const n = c.counts;
    const none = r.capabilities.control && !c.catalog ? "(from each test's emulator world)" : '(none in the catalog)';
    out.push('', `The run will create (from the tests' declarations; every creation is deleted before the run ends${c.pools.length ? `; pooled: ${c.pools.join(', ')}` : ''}):`);
    const upTo = (k: keyof Counts) => (c.upTo[k] > n[k] ? ` (up to ${c.upTo[k]} if the target accepts what it may refuse)` : '');
    out.push(`  GPU pods: ${n.gpuPods}${upTo('gpuPods')} of GPU type ${c.gpuType ?? none} (further candidates if it has no capacity), image ${c.image}${c.dataCenter ? `, data center ${c.dataCenter}` : ''}`);
    out.push(`  CPU pods: ${n.cpuPods}${upTo('cpuPods')} of CPU flavor ${c.cpuFlavor ?? none}${c.cpuVcpus ? `, ${c.cpuVcpus} vCPU` : ''}`);
    out.push(`  network volumes: ${n.networkVolumes}${upTo('networkVolumes')}; endpoints: ${n.endpoints}${upTo('endpoints')} (${n.warmEndpoints} with workersMin > 0); templates: ${n.templates}${upTo('templates')}; secrets: ${n.secrets}${upTo('secrets')}`);
    if (c.provision) out.push(`  provisioned from the worker image (deleted when the run ends): a serverless template${c.provision.endpoint ? ', a queue-based endpoint on it (workersMin 0, workersMax 3) for the job tests' : ''}${c.provision.hold ? ', an endpoint with workersMax 1 that holds jobs in its queue' : ''}${c.provision.template ? '; the template also serves the REST v1 creation checks' : ''}`);
    out.push(`  requests: about ${c.requests}`);
    if (c.workerTime) out.push(`  worker time: ${workerTimeText(c.workerTime)} (${WORKER_TIME_BASIS})`);
    const basis = `every pod priced for the readiness timeout${c.workerTime ? ', and the worker time\'s bound' : ''}`;
    out.push(`  estimated cost: ${c.estimatedCostUsd !== undefined ? `USD ${c.estimatedCostUsd.toFixed(2)} at most (${basis})` : `unknown (the catalog gives no price for the pods the run makes${c.workerTime ? ' or for its workers' : ''})`}`);
  }
  out.push('', r.ready ? 'Ready.' : `Not ready: ${blockers(r).join(', ')}`);
  return redactText(out.join('\n'));
}
