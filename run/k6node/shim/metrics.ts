/**
 * `k6/metrics` on the Node path: custom metrics are declared to the main thread when created
 * (the init context's ones before thresholds are validated, as k6 requires) and their samples
 * carry the current scenario and group tags.
 */
import type { MetricType } from '../thresholds.js';
import { baseTags, ctx, emit, post } from '../worker/context.js';
import { K6ScriptError } from '../../../lib/errors.js';

// k6's rule for metric names (metrics/registry.go).
const NAME = /^[\p{L}\p{N}._ !?/&#()<>%-]{1,128}$/u;

abstract class Metric {
  readonly name: string;
  constructor(name: string, type: MetricType, isTime = false) {
    if (!NAME.test(name)) throw new K6ScriptError(`Invalid metric name: '${name}'`);
    const existing = ctx.metrics.get(name);
    if (existing && existing.type !== type) throw new K6ScriptError(`metric '${name}' already exists but with type ${existing.type}, instead of ${type}`);
    const def = { name, type, contains: type === 'trend' && isTime ? 'time' as const : 'default' as const };
    if (!existing) {
      ctx.metrics.set(name, def);
      if (ctx.phase !== 'init') post({ type: 'metric', def });
    }
    this.name = name;
  }

  add(value: number | boolean, tags?: Record<string, string>): boolean {
    const v = typeof value === 'boolean' ? (value ? 1 : 0) : Number(value);
    if (!Number.isFinite(v)) throw new K6ScriptError(`'${String(value)}' is an invalid value for metric '${this.name}'`);
    emit(this.name, v, { ...baseTags(), ...tags });
    return true;
  }
}

export class Counter extends Metric { constructor(name: string) { super(name, 'counter'); } }
export class Gauge extends Metric { constructor(name: string) { super(name, 'gauge'); } }
export class Rate extends Metric { constructor(name: string) { super(name, 'rate'); } }
export class Trend extends Metric { constructor(name: string, isTime = false) { super(name, 'trend', isTime); } }

export default { Counter, Gauge, Rate, Trend };
