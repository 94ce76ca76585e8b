/**
 * Metric sinks with k6's arithmetic (metrics/sink.go): a Trend keeps every value and
 * interpolates percentiles linearly, `med` is p(50); a Gauge keeps the last value and its
 * extremes; a Rate counts non-zero samples; a Counter sums. Empty sinks read as k6 reads them.
 */
import type { MetricType } from './thresholds.js';

export interface Sink {
  readonly type: MetricType;
  add(value: number): void;
  isEmpty(): boolean;
  /** Values a threshold can name (`count`, `p(95)`...), given the run's duration so far. */
  thresholdValues(durationMs: number, percentiles: readonly number[]): Record<string, number>;
  /** Values of the end-of-test summary (`options.summaryTrendStats` for trends). */
  summaryValues(durationMs: number, trendStats: readonly string[]): Record<string, number>;
}

export class CounterSink implements Sink {
  readonly type = 'counter';
  count = 0;
  add(v: number): void { this.count += v; }
  isEmpty(): boolean { return this.count === 0; }
  thresholdValues(durationMs: number): Record<string, number> { return { count: this.count, rate: durationMs > 0 ? this.count / (durationMs / 1000) : 0 }; }
  summaryValues(durationMs: number): Record<string, number> { return this.thresholdValues(durationMs); }
}

export class GaugeSink implements Sink {
  readonly type = 'gauge';
  value = 0;
  min = 0;
  max = 0;
  #seen = false;
  add(v: number): void {
    this.value = v;
    if (!this.#seen || v < this.min) this.min = v;
    if (!this.#seen || v > this.max) this.max = v;
    this.#seen = true;
  }
  isEmpty(): boolean { return !this.#seen; }
  thresholdValues(): Record<string, number> { return { value: this.value }; }
  summaryValues(): Record<string, number> { return { value: this.value, min: this.min, max: this.max }; }
}

export class RateSink implements Sink {
  readonly type = 'rate';
  trues = 0;
  total = 0;
  add(v: number): void { this.total++; if (v !== 0) this.trues++; }
  isEmpty(): boolean { return this.total === 0; }
  // k6 leaves `rate` out of an empty Rate, so its thresholds error (and are skipped) instead of failing.
  thresholdValues(): Record<string, number> { return this.total > 0 ? { rate: this.trues / this.total } : {}; }
  summaryValues(): Record<string, number> { return { rate: this.total > 0 ? this.trues / this.total : 0, passes: this.trues, fails: this.total - this.trues }; }
}

export class TrendSink implements Sink {
  readonly type = 'trend';
  #values: number[] = [];
  #sorted = true;
  #sum = 0;
  add(v: number): void {
    if (this.#values.length > 0 && v < this.#values[this.#values.length - 1]!) this.#sorted = false;
    this.#values.push(v);
    this.#sum += v;
  }
  isEmpty(): boolean { return this.#values.length === 0; }
  get count(): number { return this.#values.length; }

  /** k6's percentile: linear interpolation between the two nearest ranks; 0 when empty. */
  p(fraction: number): number {
    const n = this.#values.length;
    if (n === 0) return 0;
    if (!this.#sorted) { this.#values.sort((a, b) => a - b); this.#sorted = true; }
    if (n === 1) return this.#values[0]!;
    const i = fraction * (n - 1);
    const lo = this.#values[Math.floor(i)]!;
    const hi = this.#values[Math.ceil(i)]!;
    return lo + (hi - lo) * (i - Math.floor(i));
  }

  #stat(stat: string): number | undefined {
    const n = this.#values.length;
    if (stat === 'avg') return n ? this.#sum / n : 0;
    if (stat === 'min') return n ? this.p(0) : 0;
    if (stat === 'max') return n ? this.p(1) : 0;
    if (stat === 'med') return this.p(0.5);
    if (stat === 'count') return n;
    const m = /^p\(([0-9.]+)\)$/.exec(stat);
    return m ? this.p(Number(m[1]) / 100) : undefined;
  }

  thresholdValues(_durationMs: number, percentiles: readonly number[]): Record<string, number> {
    const out: Record<string, number> = { min: this.#stat('min')!, max: this.#stat('max')!, avg: this.#stat('avg')!, med: this.#stat('med')! };
    for (const p of percentiles) out[`p(${p})`] = this.p(p / 100);
    return out;
  }

  summaryValues(_durationMs: number, trendStats: readonly string[]): Record<string, number> {
    const out: Record<string, number> = {};
    for (const s of trendStats) {
      const v = this.#stat(s);
      if (v !== undefined) out[s] = v;
    }
    return out;
  }
}

export function newSink(type: MetricType): Sink {
  return type === 'counter' ? new CounterSink() : type === 'gauge' ? new GaugeSink() : type === 'rate' ? new RateSink() : new TrendSink();
}
