import type { IncomingMessage, ServerResponse } from 'node:http';
import type { ControlRoute, HttpMethod } from '../types.js';
import type { WorldRegistry } from '../worlds.js';
import { readBodyAsync } from './body.js';
import { DEFAULT_MAX_BODY } from './decode.js';
import { handle } from './handle.js';
import { problem, type Reply } from './reply.js';
import { Router } from './route.js';
import { send } from './send.js';

export const CONTROL_PREFIX = '/__emulator';

/** Whether a path belongs to the control surface. */
export const isControlPath = (path: string): boolean => path === CONTROL_PREFIX || path.startsWith(CONTROL_PREFIX + '/');

/**
 * The control surface's own short pipeline (`/__emulator`, README "Worlds, time and faults"):
 * route, body (JSON, at most 1 MiB), handle, send. Never authenticated, never rate limited,
 * and no world's faults touch its answers. It runs rarely, so it may use a promise.
 */
export class ControlSurface {
  readonly #router: Router<ControlRoute>;

  constructor(routes: readonly ControlRoute[], private readonly registry: WorldRegistry) {
    this.#router = new Router(routes, { ignoreTrailingSlash: true }, CONTROL_PREFIX);
  }

  async answer(req: IncomingMessage, res: ServerResponse, method: HttpMethod, path: string, query: URLSearchParams): Promise<void> {
    const found = this.#router.find(method, path);
    if (!found) return send(res, problem('route-not-found', `No control operation at ${method} ${path}.`), undefined);
    let body: unknown;
    if (method !== 'GET' && method !== 'DELETE') {
      const result = await readBodyAsync(req, DEFAULT_MAX_BODY);
      if (result.kind === 'aborted') { res.destroy(); return; }
      if (result.kind === 'too-large') return send(res, problem('payload-too-large', 'Control bodies are limited to 1 MiB.'), undefined);
      if (result.bytes.length > 0) {
        try { body = JSON.parse(result.bytes.toString('utf8')); } catch (e) {
          return send(res, problem('malformed-json', `The body is not valid JSON: ${(e as Error).message}.`), undefined);
        }
      }
    }
    const reply: Reply = await handle(found.route, { registry: this.registry, params: found.params, body, query });
    send(res, reply, undefined);
  }
}
