import { existsSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import type { Budgets } from '../lib/plan.js';
import type { TargetProfile } from '../lib/profile.js';
import type { RequestEstimates } from './preflight.js';
import { PROJECT_ROOT } from './paths.js';

/** The run's budgets: the profile's, each overridden by its flag. */
export const budgetsOf = (profile: TargetProfile, flags: Budgets): Budgets => ({ ...profile.budgets, ...flags });

/** Where the per-test request counts of a deployment-like run are kept (`cpc report --request-estimates` writes it). */
export const REQUEST_ESTIMATES = join(PROJECT_ROOT, 'contract', 'request-estimates.json');

/** The per-test request counts preflight's estimate sums; undefined when the file is absent. */
export function readRequestEstimates(file = REQUEST_ESTIMATES): RequestEstimates | undefined {
  if (!existsSync(file)) return undefined;
  return JSON.parse(readFileSync(file, 'utf8')) as RequestEstimates;
}
