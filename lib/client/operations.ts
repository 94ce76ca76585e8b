/**
 * The operations the client calls: the one table generated from schemas/openapi.yaml
 * (lib/operations.gen.ts, by operationId), so the client, the rule catalog and the emulator's
 * routes speak one vocabulary (test/operations.test.ts). Paths of operations the spec leaves
 * "not shown" follow the live platform (spec/platform-notes.md; `observed` in the table).
 */
import { InternalError } from '../errors.js';
import { OPERATIONS, type OperationId, type OperationSurface } from '../operations.gen.js';

/**
 * The surfaces a call can take: openapi.yaml's four, and `public-model`, the spec's public model
 * endpoints ("`POST {serverless_url}/v2/<model_endpoint_id>/runsync` with bearer
 * authentication"): `runSync` on a model endpoint, with the bearer style of authentication.
 */
export type ApiSurface = OperationSurface | 'public-model';
export type Method = 'GET' | 'POST' | 'PUT' | 'PATCH' | 'DELETE';

export const operations = OPERATIONS;
export type OperationName = OperationId;

/** The path parameters of an operation, by name (any of them when the operation is not known statically). */
export type ParamsOf<N extends OperationName> = [OperationName] extends [N]
  ? Partial<Record<(typeof OPERATIONS)[OperationName]['params'][number], string>>
  : Record<(typeof OPERATIONS)[N]['params'][number], string>;

/** Fills `{name}` placeholders; a missing parameter is a programming error. */
export function fillPath(template: string, params: Record<string, string | undefined> = {}): string {
  return template.replace(/\{(\w+)\}/g, (_, name: string) => {
    const value = params[name];
    if (value === undefined) throw new InternalError(`missing path parameter "${name}" for ${template}`);
    return encodeURIComponent(value);
  });
}
