import { ApiClient } from '../../../lib/client/api.js';
import { lostAnswerTransport, undiciTransport } from '../../../lib/client/transport.js';

/**
 * The same client (target, keys, world) over undici instead of Playwright's request context:
 * a property sends hundreds of requests, and the in-process pool answers them several times
 * faster. `close()` releases the pool.
 */
export function fastClient(api: ApiClient): { api: ApiClient; close(): Promise<void> } {
  // A deployment (no emulator world): keep the test's client, whose transport paces by the
  // target's rate limit and whose exchanges the run's cleanup records; speed is not the limit there.
  if (api.defaultHeaders['x-emulator-world'] === undefined) return { api, close: async () => undefined };
  const transport = undiciTransport({ connections: 4 });
  // A lost answer throws LostAnswerError, which checkProperty turns into a blocked test.
  return { api: new ApiClient(api.urls, api.keys, lostAnswerTransport(transport), api.defaultHeaders, api.onMissingKey), close: () => transport.close() };
}
