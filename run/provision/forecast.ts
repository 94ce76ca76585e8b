/**
 * Preflight's forecast from the tests' declarations (lib/needs.ts): which rules run, which are
 * skipped and for what (with the variable or opt-in that would let them run), and what the run
 * provisions from its worker image. The fixtures skip from the same declarations with the
 * same reasons (contract/support/needs.ts), so the forecast is what the run decides.
 */
import { hasFor, needReason, unmet, type Has } from '../../lib/needs.js';
import { needList } from '../../lib/needs.js';
import type { RunConfig } from '../../lib/protocol.js';
import type { Creates } from '../../lib/plan.js';
import type { Provision } from '../../lib/protocol.js';

/** What preflight found the target offers (run/preflight.ts `Capabilities`). */
export interface Found { control: boolean; readonlyKey: boolean; otherKey: boolean; endpointId: boolean; templateId: boolean; modelEndpointId: boolean }

/** One listed test, as the forecast reads it. */
export interface Declared { rules: string[]; creates: Creates }

export interface RuleForecast { runs: string[]; skipped: { rule: string; reasons: string[] }[] }

/**
 * What the run will have, need by need: what preflight found, and what the worker image will
 * provision (an endpoint where CPC_ENDPOINT_ID names none, a template where CPC_TEMPLATE_ID names none).
 */
export function forecastHas(found: Found, run: Pick<RunConfig, 'profile' | 'target'> & Partial<Pick<RunConfig, 'chaos' | 'allowWarmWorkers' | 'allowRateLimitExhaustion' | 'allowLongWaits' | 'allowPropertyLoad'>>): Has {
  const image = run.profile.workerImage !== undefined && !found.control;
  return hasFor({
    world: found.control, clock: found.control && run.chaos?.realTime !== true,
    keys: { readonly: found.readonlyKey, other: found.otherKey, expired: run.target.kind === 'remote' && run.target.apiKeyExpired !== undefined },
    endpoint: found.endpointId || image, hold: image, template: found.templateId || image, model: found.modelEndpointId,
    allow: { warmWorkers: run.allowWarmWorkers === true, rateLimitExhaustion: run.allowRateLimitExhaustion === true, longWaits: run.allowLongWaits === true, propertyLoad: run.allowPropertyLoad === true },
  });
}

/** A rule runs when one test that declares it has what it needs; otherwise it is skipped with every reason. */
export function forecastRules(tests: readonly Declared[], has: Has): RuleForecast {
  const byRule = new Map<string, string[][]>();
  for (const t of tests) {
    const reasons = unmet(t.creates.needs, has).map(needReason);
    for (const rule of t.rules) byRule.set(rule, [...(byRule.get(rule) ?? []), reasons]);
  }
  const runs: string[] = [];
  const skipped: RuleForecast['skipped'] = [];
  for (const [rule, reasons] of [...byRule].sort(([a], [b]) => a.localeCompare(b))) {
    if (reasons.some((n) => n.length === 0)) runs.push(rule);
    else skipped.push({ rule, reasons: [...new Set(reasons.flat())] });
  }
  return { runs, skipped };
}

/**
 * What the run provisions from the worker image: the endpoint when a running test needs one and
 * CPC_ENDPOINT_ID names none; the template for it, and for the REST v1 creation checks where
 * CPC_TEMPLATE_ID names none.
 */
export function provisionFor(running: readonly Declared[], found: Found, run: Pick<RunConfig, 'profile'>): Provision {
  if (run.profile.workerImage === undefined || found.control) return { endpoint: false, hold: false, template: false };
  const wants = (need: 'workerEndpoint' | 'holdEndpoint' | 'template') => running.some((t) => needList(t.creates.needs).includes(need));
  const endpoint = !found.endpointId && wants('workerEndpoint');
  return { endpoint, hold: wants('holdEndpoint'), template: !found.templateId && wants('template') };
}

/** What provisioning creates, as the plan counts it: a template (for the endpoint too) and the endpoint. */
export const provisionCreates = (p: Provision): Creates =>
  ({ templates: p.endpoint || p.hold || p.template ? 1 : 0, endpoints: (p.endpoint ? 1 : 0) + (p.hold ? 1 : 0) });
