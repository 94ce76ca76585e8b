/**
 * Preflight's forecast against what the run decided: every rule it said would run is decided
 * (it may still be skipped for what the target answered, never for a need), and every rule it
 * said would be skipped is skipped for a reason it gave. A difference is a declaration the
 * fixtures and preflight read differently: printed after the run, and held by a test.
 */
import { NEED_NAMES, needReason } from '../../lib/needs.js';
import type { RuleForecast } from './forecast.js';

/** A rule of the report as the check reads it. */
export interface DecidedRule { id: string; verdict: string; skipReasons?: string[] }

const NEED_REASONS = NEED_NAMES.map(needReason);
/** A skip reason that is a need's (the fixtures' reason, perhaps with provisioning's error after it). */
const isNeedReason = (reason: string): boolean => NEED_REASONS.some((r) => reason.includes(r));

/** Each difference between the forecast and the run, as a line; empty when they agree. */
export function forecastMismatches(forecast: RuleForecast, decided: readonly DecidedRule[]): string[] {
  const byId = new Map(decided.map((r) => [r.id, r]));
  const out: string[] = [];
  for (const id of forecast.runs) {
    const r = byId.get(id);
    // Skipped for needs alone: the test that was to run it was skipped for one. A reason of
    // another kind is that test's (what the target answered, an interrupted run): the other
    // tests of the rule may well lack what they need (an emulator's variant of the same check).
    const reasons = r?.skipReasons ?? [];
    if (r?.verdict === 'skip' && reasons.length && reasons.every(isNeedReason)) out.push(`${id}: forecast to run, skipped: ${reasons.join('; ')}`);
  }
  for (const s of forecast.skipped) {
    const r = byId.get(s.rule);
    if (!r || r.verdict === 'untested') continue;
    if (r.verdict !== 'skip') out.push(`${s.rule}: forecast to be skipped (${s.reasons.join('; ')}), decided ${r.verdict}`);
    else if (!(r.skipReasons ?? []).some((reason) => s.reasons.some((f) => reason.includes(f)))) out.push(`${s.rule}: skipped for ${(r.skipReasons ?? []).join('; ')}, not as forecast (${s.reasons.join('; ')})`);
  }
  return out;
}
