import type { TestInfo } from '@playwright/test';
import { hasFor, needList, needReason, unmet, type Has, type Need } from '../../lib/needs.js';
import { InternalError } from '../../lib/errors.js';
import { keysOf } from '../../lib/config.js';
import { runConfig } from '../../lib/run-config.js';
import { provisioned } from '../../lib/provisioned.js';
import { declarationOf } from './rules.js';
import type { Target } from '../../lib/config.js';
import type { Keys } from '../../lib/client/api.js';

/** What the fixtures resolved of the target (fixtures.ts `TargetContext`), as the needs read it. */
export interface TargetContext { config: Target; envKeys: Keys; endpointId?: string }

/** What this worker's target gives a test (lib/needs.ts), after the run's provisioning. */
export function offeredHere(target: TargetContext, world: boolean): Has {
  const run = runConfig();
  const made = provisioned();
  return hasFor({
    world, clock: world && run.chaos?.realTime !== true,
    keys: { readonly: target.envKeys.readonly !== undefined, other: target.envKeys.other !== undefined, expired: keysOf(target.config).apiKeyExpired !== undefined },
    endpoint: target.endpointId !== undefined, hold: !world && made.holdEndpointId !== undefined, template: (run.templateId ?? made.templateId) !== undefined, model: run.modelEndpointId !== undefined,
    allow: { warmWorkers: run.allowWarmWorkers, rateLimitExhaustion: run.allowRateLimitExhaustion, longWaits: run.allowLongWaits === true, propertyLoad: run.allowPropertyLoad },
  });
}

/** The skip reason of an unmet need; a provisioning that failed says so. */
function reasonHere(need: Need): string {
  const error = provisioned().error;
  return error && (need === 'workerEndpoint' || need === 'holdEndpoint' || need === 'template') ? `${needReason(need)}; ${error}` : needReason(need);
}

/**
 * Skips the test, before its body, when its declaration names a need this run lacks, with the
 * reason preflight forecast for it (run/preflight.ts reads the same declaration).
 */
export function skipForNeeds(testInfo: TestInfo, target: TargetContext, world: boolean): void {
  const missing = unmet(declarationOf(testInfo.annotations).needs, offeredHere(target, world));
  if (missing.length) testInfo.skip(true, missing.map(reasonHere).join('; '));
}

/**
 * Skips the test for a need it meets only now, at its point of use (an id the world did not
 * seed, a key the run lacks), with the need's reason. A test that did not declare the need is a
 * defect of the suite, as a creation beyond its declaration is: preflight's forecast would be
 * wrong, so it fails naming the declaration to add.
 */
export function lacking(testInfo: TestInfo, need: Need): never {
  if (!needList(declarationOf(testInfo.annotations).needs).includes(need)) {
    throw new InternalError(`the test needs ${need} without declaring it: rules(..., needs('${need}')) (lib/needs.ts)`);
  }
  testInfo.skip(true, reasonHere(need));
  throw new InternalError('unreachable: skip throws');
}

/**
 * Authentication cases grouped into tests: the cases any target can be given in one test (each
 * test a request of a rate-limited account fewer), each case that needs a key the run may lack
 * in a test of its own, skipped alone without it.
 */
export function byNeeds<T extends { readonly needs?: readonly Need[] }>(cases: readonly T[]): T[][] {
  const any = cases.filter((c) => !c.needs?.length);
  return [...(any.length ? [any] : []), ...cases.filter((c) => c.needs?.length).map((c) => [c])];
}

/** Credentials an authentication case may send besides the run's keys. */
export interface Credentials { readonly expired: string }

/**
 * The credentials of the authentication checks. `expired` is read only by the case that sends
 * it: the emulator world's own expired key, else the one the user gives (CPC_API_KEY_EXPIRED);
 * without either the test, which declares `expiredKey`, is skipped there.
 */
export function credentials(testInfo: TestInfo, target: TargetContext, worldKeys: { expired?: string } | undefined): Credentials {
  return { get expired() { return worldKeys?.expired ?? keysOf(target.config).apiKeyExpired ?? lacking(testInfo, 'expiredKey'); } };
}

/** The run's workersMax 1 endpoint (run/provision/worker.ts); the test, which declares `holdEndpoint`, is skipped without one. */
export function holdEndpoint(testInfo: TestInfo, world: boolean): string {
  const id = world ? undefined : provisioned().holdEndpointId;
  return id ?? lacking(testInfo, 'holdEndpoint');
}
