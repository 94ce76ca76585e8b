/**
 * k6 threshold expressions, as k6 parses and runs them (metrics/thresholds_parser.go,
 * metrics/thresholds.go): `aggregation operator value`, operators tried in k6's order
 * (`<=` before `<`...), aggregations by metric type, and k6's quirks kept on purpose:
 * an empty Rate has no `rate`, so its thresholds are skipped with an error, not failed.
 */
import { EXIT } from './exit-codes.js';
import { K6RunError } from '../../lib/errors.js';

export type MetricType = 'counter' | 'gauge' | 'rate' | 'trend';

export interface ThresholdExpr {
  source: string;
  /** `count`, `rate`, `value`, `avg`, `min`, `max`, `med` or `p`. */
  aggregation: string;
  /** The percentile of `p(N)`. */
  percentile?: number;
  operator: '<=' | '<' | '>=' | '>' | '===' | '==' | '!=';
  value: number;
}

export interface ThresholdConfig { expr: ThresholdExpr; abortOnFail: boolean; delayAbortEvalMs?: number }

const OPERATORS = ['<=', '<', '>=', '>', '===', '==', '!='] as const;
const AGGREGATIONS = ['value', 'count', 'rate', 'avg', 'min', 'med', 'max'];
const SUPPORTED: Record<MetricType, string[]> = {
  counter: ['count', 'rate'], gauge: ['value'], rate: ['rate'], trend: ['avg', 'min', 'max', 'med', 'p'],
};
// Go's strconv.ParseFloat, for the decimal forms a threshold uses.
const FLOAT = /^[+-]?([0-9]+(\.[0-9]*)?|\.[0-9]+)([eE][+-]?[0-9]+)?$/;

const invalid = (message: string): K6RunError => new K6RunError(EXIT.invalidConfig, message);

/** Parses one threshold expression; throws an invalid-config error as k6 does. */
export function parseThreshold(source: string): ThresholdExpr {
  let split: [string, ThresholdExpr['operator'], string] | undefined;
  for (const op of OPERATORS) {
    const i = source.indexOf(op);
    if (i !== -1) { split = [source.slice(0, i).trim(), op, source.slice(i + op.length).trim()]; break; }
  }
  if (!split) throw invalid(`failed parsing threshold expression "${source}"; reason: malformed threshold expression`);
  const [lhs, operator, rhs] = split;
  let aggregation: string;
  let percentile: number | undefined;
  if (AGGREGATIONS.includes(lhs)) aggregation = lhs;
  else if (lhs.startsWith('p(') && lhs.endsWith(')') && FLOAT.test(lhs.slice(2, -1))) {
    aggregation = 'p';
    percentile = Number(lhs.slice(2, -1));
  } else throw invalid(`failed parsing threshold expression's "${source}" left hand side`);
  if (!FLOAT.test(rhs)) throw invalid(`failed parsing threshold expression's "${source}" right hand side`);
  return { source, aggregation, ...(percentile !== undefined ? { percentile } : {}), operator, value: Number(rhs) };
}

/** Reads `options.thresholds[metric]`: strings or `{threshold, abortOnFail, delayAbortEval}` objects. */
export function parseThresholdList(metric: string, raw: unknown, parseMs: (v: unknown, what: string) => number): ThresholdConfig[] {
  if (!Array.isArray(raw)) throw invalid(`thresholds for ${metric} must be an array`);
  return raw.map((t) => {
    if (typeof t === 'string') return { expr: parseThreshold(t), abortOnFail: false };
    if (t && typeof t === 'object' && typeof (t as { threshold?: unknown }).threshold === 'string') {
      const o = t as { threshold: string; abortOnFail?: unknown; delayAbortEval?: unknown };
      return {
        expr: parseThreshold(o.threshold), abortOnFail: o.abortOnFail === true,
        ...(o.delayAbortEval !== undefined ? { delayAbortEvalMs: parseMs(o.delayAbortEval, `delayAbortEval of ${metric}`) } : {}),
      };
    }
    throw invalid(`invalid threshold on ${metric}: ${JSON.stringify(t)}`);
  });
}

/** Throws unless every expression's aggregation is one the metric's type supports. */
export function validateAggregations(metric: string, type: MetricType, list: readonly ThresholdConfig[]): void {
  for (const { expr } of list) {
    if (!SUPPORTED[type].includes(expr.aggregation)) {
      throw invalid(`invalid threshold "${expr.source}" applied on metric ${metric}; reason: unsupported aggregation method ${expr.aggregation} on metric of type ${type}. supported aggregation methods for this metric are: ${SUPPORTED[type].join(', ')}`);
    }
  }
}

/** The key of an expression's value among a sink's threshold values (`p(95)` for `p(95.0)`, as Go's %g prints). */
export const sinkKey = (expr: ThresholdExpr): string => (expr.aggregation === 'p' ? `p(${expr.percentile})` : expr.aggregation);

export type ThresholdResult = { kind: 'pass' } | { kind: 'fail' } | { kind: 'error'; message: string };

/** Runs one expression against a sink's values; a missing value is k6's "no metric supporting" error. */
export function runThreshold(expr: ThresholdExpr, values: Readonly<Record<string, number>>): ThresholdResult {
  const lhs = values[sinkKey(expr)];
  if (lhs === undefined) return { kind: 'error', message: `unable to apply threshold ${expr.source} over metrics; reason: no metric supporting the ${expr.aggregation} aggregation method found` };
  const v = expr.value;
  const pass = expr.operator === '<=' ? lhs <= v : expr.operator === '<' ? lhs < v : expr.operator === '>=' ? lhs >= v
    : expr.operator === '>' ? lhs > v : expr.operator === '!=' ? lhs !== v : lhs === v;
  return { kind: pass ? 'pass' : 'fail' };
}
