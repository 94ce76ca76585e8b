/** The names the suite gives what it creates: every one starts with the run's prefix, so a run's strays can be found by name. */
import { createHash } from 'node:crypto';
import { runConfig } from '../run-config.js';

/** The prefix of every name a run gives (`cpc-<run>-`). */
export const runPrefix = (runId: string): string => `cpc-${runId}-`;

/**
 * A name unique to this run and this test (`cpc-<run>-<test>-<kind><n>`): nothing collides
 * across workers, repetitions or a previous run's leftovers.
 */
export type UniqueName = ((kind: string) => string) & { readonly prefix: string };

export function uniqueNameFactory(testId: string, repeat: number, retry: number, run = runConfig().runId ?? 'local'): UniqueName {
  const prefix = `${runPrefix(run)}${createHash('sha256').update(`${testId}#${repeat}#${retry}`).digest('hex').slice(0, 8)}-`;
  let n = 0;
  return Object.assign((kind: string) => `${prefix}${kind}${(++n).toString(36)}`, { prefix });
}

/** What a resource found by its name and never recorded was created by, as far as the run knows. */
export const STRAY = '(found by its name: its creation was not recorded)';
