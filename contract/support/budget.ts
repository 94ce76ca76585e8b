import { appendFileSync, existsSync, mkdirSync, readFileSync, statSync } from 'node:fs';
import { randomBytes } from 'node:crypto';
import { dirname } from 'node:path';
import type { OutgoingCall } from '../../lib/client/api.js';
import { BUDGET_FLAGS, hourlyPrice, podCostUsd, type Budgets, type PriceTable } from '../../lib/plan.js';
import { mutationFields, podShapeOf } from '../../lib/cleanup.js';
import type { BudgetFiles, PodReservationLine } from '../../lib/protocol.js';

/**
 * The run's budgets (lib/plan.ts), held across every worker through two files beside the run's
 * other records: one byte per request sent (the file's size is the count), and one line per
 * pod a test means to create (a reservation, released when the answer created nothing). Appends
 * of one short line are atomic, so the order of the lines decides which creation passed the
 * budget: the one whose reservation lands past it is refused, however close two workers are.
 */
export class RunBudget {
  constructor(
    readonly budgets: Budgets,
    readonly files: BudgetFiles,
    readonly prices: PriceTable | undefined,
    readonly readyTimeoutMs: number,
  ) {
    for (const f of [files.requests, files.pods]) mkdirSync(dirname(f), { recursive: true });
  }

  /** Requests sent by the whole run so far. */
  requestsSent(): number {
    try { return statSync(this.files.requests).size; } catch { return 0; }
  }

  /** Counts one request; `undefined`, or the budget it would pass (then nothing is sent). */
  request(call: OutgoingCall): string | undefined {
    const max = this.budgets.requests;
    if (max !== undefined && !isDeletion(call) && this.requestsSent() >= max) return `${BUDGET_FLAGS.requests} ${max}: ${max} requests sent`;
    appendFileSync(this.files.requests, '.');
    return undefined;
  }

  /**
   * Reserves the pod a createPod body would make: its id, or the budget it would pass (then the
   * reservation is withdrawn and nothing is sent).
   */
  reservePod(body: unknown): { id: string } | { reached: string } {
    const shape = podShapeOf(body) ?? {};
    const gpu = shape.gpu !== undefined;
    const usd = hourlyPrice(this.prices, shape);
    const id = randomBytes(6).toString('hex');
    appendFileSync(this.files.pods, JSON.stringify({ id, gpu, ...(usd !== undefined ? { usd: podCostUsd(usd, this.readyTimeoutMs) } : {}) }) + '\n');
    const totals = { pods: 0, gpuPods: 0, costUsd: 0 };
    const released = new Set<string>();
    const lines = readFileSync(this.files.pods, 'utf8').split('\n').filter(Boolean).map((l) => JSON.parse(l) as PodReservationLine);
    for (const l of lines) if (l.release) released.add(l.release);
    for (const l of lines) {
      if (!l.id || released.has(l.id)) continue;
      totals.pods += 1;
      if (l.gpu) totals.gpuPods += 1;
      totals.costUsd += l.usd ?? 0;
      if (l.id === id) break;
    }
    const over = ([['pods', totals.pods], ['gpuPods', totals.gpuPods], ['costUsd', totals.costUsd]] as const)
      .find(([k, n]) => this.budgets[k] !== undefined && n > this.budgets[k]!);
    if (!over) return { id };
    this.release(id);
    const [k] = over;
    const max = this.budgets[k]!;
    return { reached: k === 'costUsd' ? `${BUDGET_FLAGS.costUsd} ${max}: the estimated cost of the pods created would pass USD ${max}` : `${BUDGET_FLAGS[k]} ${max}: ${max} ${k === 'gpuPods' ? 'GPU pods' : 'pods'} created` };
  }

  /** Withdraws a reservation whose create made nothing. */
  release(id: string): void {
    appendFileSync(this.files.pods, JSON.stringify({ release: id }) + '\n');
  }

  /** Pods reserved and not released (created, or whose answer was lost). */
  podsReserved(): number {
    if (!existsSync(this.files.pods)) return 0;
    const lines = readFileSync(this.files.pods, 'utf8').split('\n').filter(Boolean).map((l) => JSON.parse(l) as PodReservationLine);
    const released = new Set(lines.flatMap((l) => (l.release ? [l.release] : [])));
    return lines.filter((l) => l.id && !released.has(l.id)).length;
  }
}

/** Deletions always go out, budget or not: what the run made is deleted. */
function isDeletion(call: OutgoingCall): boolean {
  if (call.operation === 'deletePod' || call.operation === 'deleteNetworkVolume') return true;
  if (call.operation !== 'graphql') return false;
  const body = call.requestBody as { query?: unknown; variables?: Record<string, unknown> } | undefined;
  if (typeof body?.query !== 'string') return false;
  // The GraphQL document as the cleanup record reads it: a mutation of deletions only.
  const fields = mutationFields(body.query, body.variables);
  return fields.length > 0 && fields.every((f) => f.field === 'deleteEndpoint' || f.field === 'deleteTemplate' || f.field === 'secretDelete');
}
