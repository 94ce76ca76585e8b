import type { ApiResult } from '../../lib/client/api.js';
import type { Finding } from '../support/rules.js';

/**
 * `client-error`: some 4xx (the spec's "any other status" is still an error, never 2xx or 5xx).
 * `success`: some 2xx, for an operation whose success status the spec does not give (only
 * createPod's 201 is stated; every other answer is "Response: ..." without a code).
 */
export type ExpectedStatus = number | readonly number[] | 'client-error' | 'success';

const describe = (e: ExpectedStatus): string => (e === 'client-error' ? 'a 4xx' : e === 'success' ? 'a 2xx' : Array.isArray(e) ? e.join(' or ') : String(e));

/** A 2xx answer. */
export const isSuccess = (res: Pick<ApiResult, 'status'>): boolean => res.status >= 200 && res.status < 300;

/** The response status is the one the rule names. */
export function statusCodeConformance(rule: string, res: ApiResult, expected: ExpectedStatus): Finding[] {
  const ok = expected === 'client-error' ? res.status >= 400 && res.status < 500
    : expected === 'success' ? isSuccess(res)
    : typeof expected === 'number' ? res.status === expected
    : (expected as readonly number[]).includes(res.status);
  return ok ? [] : [{ rule, message: `${res.operation}: expected ${describe(expected)}, got ${res.status} (${res.text.slice(0, 200)})`, exchange: res }];
}

/**
 * A request a rule says is accepted (`accepted`), sent to an operation whose success status
 * another rule names (`statusRule`, e.g. POD.CREATE.201_POD): a refusal or an error breaks
 * `accepted`; an acceptance with another 2xx breaks only `statusRule`, since the request was
 * accepted. `what` prefixes the message (the case sent).
 */
export function acceptedConformance(accepted: string, statusRule: string, res: ApiResult, expected: number, what = res.operation): Finding[] {
  if (res.status === expected) return [];
  const rule = res.status >= 200 && res.status < 300 ? statusRule : accepted;
  return [{ rule, message: `${what}: expected ${expected}, got ${res.status} (${res.text.slice(0, 200)})`, exchange: res }];
}
