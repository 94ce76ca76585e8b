/**
 * What a test needs to run at all, declared with what it creates (`rules('A.RULE',
 * creates({...}), needs('workerEndpoint'))`, contract/support/rules.ts). One vocabulary for
 * the fixtures (which skip a test from its declaration, with the reason below), preflight
 * (which forecasts from it) and provisioning (which makes what a run lacks from the worker image).
 */

/** Everything a test may need beyond a target and its main key. */
export type Need =
  | 'control' | 'readonlyKey' | 'otherKey' | 'expiredKey' | 'workerEndpoint' | 'holdEndpoint' | 'template' | 'modelEndpoint'
  | 'warmWorkers' | 'rateLimitExhaustion' | 'longWaits' | 'propertyLoad' | 'realClock';

/** Why a test is skipped without a need, and the variable or opt-in that would let it run (none: no setting can). */
export const NEEDS: Record<Need, { reason: string; setting: string }> = {
  control: { reason: "needs the emulator's control surface (/__emulator)", setting: '' },
  readonlyKey: { reason: 'needs a read-only key', setting: 'CPC_API_KEY_READONLY' },
  otherKey: { reason: "needs another account's key", setting: 'CPC_API_KEY_OTHER' },
  expiredKey: { reason: 'needs an expired key', setting: 'CPC_API_KEY_EXPIRED' },
  workerEndpoint: { reason: 'needs a queue-based endpoint running the conformance handler', setting: 'CPC_ENDPOINT_ID or CPC_WORKER_IMAGE' },
  holdEndpoint: {
    reason: "needs a queue-based endpoint of the run's own with workersMax 1, to hold jobs in its queue behind a long one in real time (an emulator decides these rules on its virtual clock)",
    setting: 'CPC_WORKER_IMAGE on a deployment',
  },
  template: { reason: 'needs a serverless template to create endpoints from', setting: 'CPC_TEMPLATE_ID or CPC_WORKER_IMAGE' },
  modelEndpoint: { reason: 'needs a public model endpoint id', setting: 'CPC_MODEL_ENDPOINT_ID' },
  warmWorkers: { reason: 'needs an always-on worker (workersMin 1)', setting: 'CPC_ALLOW_WARM_WORKERS=1' },
  rateLimitExhaustion: { reason: "exhausts the target's rate limit (blocks its user for up to a minute)", setting: 'CPC_ALLOW_RATE_LIMIT_EXHAUSTION=1' },
  longWaits: { reason: 'waits up to 31 minutes in real time, the retention windows side by side (an emulator decides them on its virtual clock)', setting: 'CPC_ALLOW_LONG_WAITS=1 on a deployment' },
  propertyLoad: { reason: 'creates pods for every property run', setting: 'CPC_ALLOW_PROPERTY_LOAD=1' },
  realClock: { reason: 'reads the target in real time; an emulator world decides the same rule on its virtual clock', setting: 'a deployment (or the standalone emulator behind a proxy)' },
};

export const NEED_NAMES = Object.keys(NEEDS) as Need[];

/**
 * A need's skip reason with what would let it run: `needs a read-only key (set
 * CPC_API_KEY_READONLY)`; the control surface no setting gives (only an emulator has it).
 */
export const needReason = (need: Need): string =>
  NEEDS[need].setting ? `${NEEDS[need].reason} (set ${NEEDS[need].setting})` : `${NEEDS[need].reason}, which only an emulator target has`;

/** What a run has, need by need. */
export type Has = Record<Need, boolean>;

/** A declaration's needs as a list (a single need may be written alone). */
export const needList = (needs: Need | readonly Need[] | undefined): Need[] => (needs === undefined ? [] : typeof needs === 'string' ? [needs] : [...needs]);

/** The needs a run lacks, in the declaration's order. */
export const unmet = (needs: Need | readonly Need[] | undefined, has: Has): Need[] => needList(needs).filter((n) => !has[n]);

/** What a run has, from its capabilities and opt-ins (each absent one false). */
export const hasOf = (partial: Partial<Has>): Has =>
  Object.fromEntries(NEED_NAMES.map((n) => [n, partial[n] === true])) as Has;

/** What a run's target and settings give a test, before provisioning (preflight) or after it (the fixtures). */
export interface Offered {
  /** An emulator world per test: it mints its own keys and seeds its endpoint, template and model. */
  world: boolean;
  /** The world's clock can be moved (not a real-time chaos world). */
  clock: boolean;
  keys: { readonly?: boolean; other?: boolean; expired?: boolean };
  endpoint: boolean;
  /** The run's own workersMax 1 endpoint (provisioned on a deployment; a world decides its rules on the virtual clock). */
  hold: boolean;
  template: boolean;
  model: boolean;
  allow: { warmWorkers?: boolean; rateLimitExhaustion?: boolean; longWaits?: boolean; propertyLoad?: boolean };
}

/** Need by need, what {@link Offered} meets: a world meets every need but the movable clock. */
export function hasFor(o: Offered): Has {
  // The real-time variants of the queue's and retention's checks are a deployment's: a world decides those rules on its virtual clock.
  if (o.world) return { ...hasOf(Object.fromEntries(NEED_NAMES.map((n) => [n, true]))), control: o.clock, holdEndpoint: false, longWaits: false, realClock: false };
  return hasOf({
    readonlyKey: o.keys.readonly, otherKey: o.keys.other, expiredKey: o.keys.expired, workerEndpoint: o.endpoint, holdEndpoint: o.hold, template: o.template, modelEndpoint: o.model,
    realClock: true, warmWorkers: o.allow.warmWorkers, rateLimitExhaustion: o.allow.rateLimitExhaustion, longWaits: o.allow.longWaits, propertyLoad: o.allow.propertyLoad,
  });
}
