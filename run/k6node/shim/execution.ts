/**
 * `k6/execution` on the Node path: the VU, scenario and test facts the runner knows, and
 * `test.abort()` (exit code 108, teardown still runs, as in k6).
 */
import { ctx, post } from '../worker/context.js';
import { AbortedError } from '../../../lib/errors.js';

const vu = {
  get idInInstance(): number { return ctx.vuId; },
  get idInTest(): number { return ctx.vuId; },
  get iterationInInstance(): number { return ctx.iterationInInstance; },
  get iterationInScenario(): number { return ctx.iterationInScenario; },
  metrics: { tags: {} as Record<string, string>, metadata: {} as Record<string, string> },
  get tags(): Record<string, string> { return vu.metrics.tags; },
};

const scenario = {
  get name(): string { return ctx.scenario?.name ?? ''; },
  get executor(): string { return ctx.scenario?.executor ?? ''; },
  get startTime(): number { return ctx.scenarioStartTime; },
  get iterationInInstance(): number { return ctx.iterationInScenario; },
  get iterationInTest(): number { return ctx.iterationInTest; },
  get progress(): number {
    const s = ctx.scenario;
    if (!s) return 0;
    if (s.executor === 'constant-vus') return Math.min(1, (Date.now() - ctx.scenarioStartTime) / s.durationMs);
    return Math.min(1, ctx.iterationInScenario / s.iterations);
  },
};

const test = {
  abort(reason?: string): never {
    const message = reason ? `test aborted: ${reason}` : 'test aborted';
    post({ type: 'abort', reason: message });
    throw new AbortedError(message);
  },
  get options(): Record<string, unknown> { return {}; },
};

const instance = {
  get vusActive(): number { return 0; },
  get vusInitialized(): number { return 0; },
  get iterationsCompleted(): number { return 0; },
  get iterationsInterrupted(): number { return 0; },
  get currentTestRunDuration(): number { return ctx.scenarioStartTime ? Date.now() - ctx.scenarioStartTime : 0; },
};

export default { vu, scenario, test, instance };
