import type { RouteDef } from '../types.js';
import type { World } from '../world.js';
import { Refusal } from './outcome.js';
import { problem } from './reply.js';

/** The page a server answers where it has no API: what a framework's default route or a proxy's error page sends. */
const HTML_PAGE = '<!doctype html>\n<html><head><title>Welcome</title></head><body><h1>It works!</h1><p>This server has no page at this address.</p></body></html>\n';

/**
 * The faults of a target far from the spec (emulator/serverless/faults.ts): an operation not
 * served at all (its route answers as an unknown route does), served on another method (405 with
 * `Allow`), or answered with an HTML page. Judged in the route step, before authentication, as a
 * server that lacks the operation would: it never reaches its key check.
 */
export function missingOperation(world: World, route: RouteDef, method: string, path: string): Refusal | undefined {
  if (route.operation === 'getHealth' && world.fault('serverless.health-route-missing')) {
    return new Refusal(problem('route-not-found', `No operation is served at ${method} ${path}.`));
  }
  if (route.operation === 'getJobStatus' && world.fault('serverless.status-wrong-method')) {
    return new Refusal(problem('method-not-allowed', `${method} is not served at ${path}.`, undefined, { Allow: 'POST' }));
  }
  if (route.operation === 'streamJob' && world.fault('serverless.stream-html-page')) {
    return new Refusal({ status: 200, text: HTML_PAGE, contentType: 'text/html' });
  }
  return undefined;
}
