/**
 * A connection pool of its own for a harness that calls an in-process emulator, closed with the
 * harness. The unit tests share one process (test/in-process.ts), where undici's global pool
 * would carry a connection from one harness's emulator to the next and keep an idle one for the
 * server's hinted 25 s less 2 s: a harness whose file's tests run long after its `before` hook
 * meets a connection the emulator closes in the same late turn in which the client reuses it
 * (ECONNRESET). As the client's own transport does (lib/client/transport.ts), an idle
 * connection is let go after 1 s, far inside the emulator's 25 s.
 */
import { Agent } from 'undici';

/** How long a pooled connection may sit idle before the harness's pool closes it. */
const IDLE_KEEP_ALIVE_MS = 1_000;

/** A keep-alive pool for one harness: pass it as `dispatcher`, and `close()` it when the harness closes. */
export const harnessAgent = (): Agent => new Agent({ keepAliveTimeout: IDLE_KEEP_ALIVE_MS, keepAliveMaxTimeout: IDLE_KEEP_ALIVE_MS });
