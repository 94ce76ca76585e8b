/**
 * Serverless job operations as the scenarios call them (spec, Serverless job operations: paths
 * under `{serverless_url}/v2/<endpoint_id>`, key in `authorization`). k6 code.
 */
import http, { type RefinedResponse, type ResponseType } from 'k6/http';
import { headerValue } from '../../lib/iso/rate-limit-fields.ts';
import { serverlessAuth, type Target } from './target.ts';

export type Res = RefinedResponse<ResponseType | undefined>;

/** The endpoint the job operations address; the run cannot go on without one. */
export function endpointOf(target: Target): string {
  if (!target.endpointId) throw new Error('CPC_ENDPOINT_ID is required: a queue-based endpoint running the conformance handler (emulator/serverless/HANDLER.md)');
  return target.endpointId;
}

export const jobUrl = (target: Target, op: string): string => `${target.serverlessUrl}/v2/${endpointOf(target)}/${op}`;

/** Request parameters for a job operation: the key, JSON, tags, and the statuses counted as expected. */
export function jobParams(target: Target, tags: Record<string, string>, timeoutMs = 60000, expected: (number | { min: number; max: number })[] = [{ min: 200, max: 299 }]) {
  return {
    headers: { ...serverlessAuth(target.keys[0]!), 'Content-Type': 'application/json' },
    tags, timeout: timeoutMs, responseCallback: http.expectedStatuses(...expected),
  };
}

/** The parsed JSON body, or undefined when it is not JSON. */
export function bodyJson(res: Res): Record<string, unknown> | undefined {
  try {
    const v = res.json();
    return v !== null && typeof v === 'object' && !Array.isArray(v) ? (v as Record<string, unknown>) : undefined;
  } catch {
    return undefined;
  }
}

/** The media type of a response, lower-case, without parameters. */
export const mediaType = (res: Res): string => (headerValue(res.headers, 'Content-Type') ?? '').split(';')[0]!.trim().toLowerCase();

/** Cancels a job left running by a probe, so the endpoint's workers stay free for the next one. */
export function cancelJob(target: Target, id: unknown): void {
  if (typeof id !== 'string' || id === '') return;
  http.post(jobUrl(target, `cancel/${id}`), '{}', jobParams(target, { probe: 'cleanup' }, 60000, [{ min: 200, max: 499 }]));
}
