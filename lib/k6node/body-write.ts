/**
 * Request bodies written to the end, as k6's client (Go's net/http) writes them, so that the
 * Node path fails where k6 fails when a server answers before it has read a body.
 *
 * Go writes a request and reads its answer at once, and returns whichever comes first: the
 * answer, or the error of the write (`write: broken pipe`, `write: connection reset by peer`).
 * A server that answers early and then resets the connection under the client's write (Node's
 * http server after a `Connection: close` answer, for one) makes that a race Go often loses:
 * k6 reports the request failed. undici instead completes any request whose answer it has read,
 * and when the answer comes first it destroys the socket itself (client-h1 `onMessageComplete`,
 * "Response completed before request"), dropping the rest of the body unsent, so it never sees
 * whether the server would have taken it. Here:
 *
 * - undici's own destroy of a socket whose body is still being written waits until the write
 *   ends (or {@link WRITE_RACE_MS}), as Go's writer goes on writing after an early answer;
 * - a request whose connection fails with a write error while its body is unsent, before its
 *   answer or within {@link WRITE_RACE_MS} after it, fails with k6's error (1201 broken pipe,
 *   1220 reset by peer): where Go's outcome is a race, the Node path takes the failing side.
 *
 * A server that reads the rest of the body (a lingering close, as nginx and the emulator do)
 * gets its answer read on both. Requests are matched to sockets by undici's diagnostics
 * channel `undici:client:sendHeaders`, whose request carries the body Buffer given to undici.
 */
import diagnostics from 'node:diagnostics_channel';
import type { Socket } from 'node:net';

/** How long after an answer a write failure of the same request still fails it, in ms. */
export const WRITE_RACE_MS = 100;

/** A write that failed under a request's unsent body: k6's error code and message. */
export interface BodyCut { errorCode: 1201 | 1220; error: string }

/** k6's error for a failed write (lib/netext/httpext/error_codes.go), by Node's error code. */
export const WRITE_ERRORS: Record<string, BodyCut> = {
  EPIPE: { errorCode: 1201, error: 'write: broken pipe' },
  ECONNRESET: { errorCode: 1220, error: 'write: connection reset by peer' },
};

type Settled = { cut: BodyCut | undefined; at: number };

const BODIES = new WeakMap<Buffer, BodyWrite>();
/** Per watched socket: its first write error (a reset or broken pipe), and when it came. */
const SOCKETS = new WeakMap<Socket, { failure?: Settled }>();

/** Installs, once per socket, the write callback that settles a watched body, the failure record and the deferral of undici's reset. */
function watchSocket(socket: Socket): void {
  if (SOCKETS.has(socket)) return;
  const watch: { failure?: Settled } = {};
  SOCKETS.set(socket, watch);
  socket.on('error', (e: NodeJS.ErrnoException) => {
    const cut = WRITE_ERRORS[e.code ?? ''];
    if (cut && !watch.failure) watch.failure = { cut, at: performance.now() };
  });
  const write = socket.write;
  socket.write = function watchedWrite(this: Socket, chunk: unknown, ...rest: unknown[]): boolean {
    const body = Buffer.isBuffer(chunk) ? BODIES.get(chunk) : undefined;
    if (!body) return (write as (...a: unknown[]) => boolean).call(this, chunk, ...rest);
    const cb = typeof rest[rest.length - 1] === 'function' ? rest.pop() as (e?: Error | null) => void : undefined;
    return (write as (...a: unknown[]) => boolean).call(this, chunk, ...rest, (e?: Error | null) => { body.settle(e); cb?.(e); });
  } as typeof socket.write;
  const destroy = socket.destroy;
  let deferred = false;
  socket.destroy = function deferUndiciReset(this: Socket, error?: Error): Socket {
    // undici's own destroy with a body still being written, after an answer (`reset`) or the
    // server's FIN (`other side closed`): let the write end first, as Go's writer goes on; the
    // server takes the rest (a lingering close) or resets the connection (a failed write).
    const code = (error as { code?: string } | undefined)?.code;
    if (deferred || (code !== 'UND_ERR_INFO' && code !== 'UND_ERR_SOCKET') || this.writableLength === 0) return destroy.call(this, error);
    deferred = true;
    const finish = (): void => { clearTimeout(timer); this.off('drain', finish); destroy.call(this, error); };
    const timer = setTimeout(finish, WRITE_RACE_MS);
    this.once('drain', finish);
    return this;
  };
}

let subscribed = false;
function subscribe(): void {
  if (subscribed) return;
  subscribed = true;
  // Published before undici writes the request, so the socket is watched for this very write.
  diagnostics.subscribe('undici:client:sendHeaders', (message) => {
    const { request, socket } = message as { request: { body?: unknown }; socket: Socket };
    const body = Buffer.isBuffer(request.body) ? BODIES.get(request.body) : undefined;
    if (!body) return;
    watchSocket(socket);
    body.socket = socket;
  });
}

/** The write of one request body: settled when the socket has taken all of it, or failed. */
export class BodyWrite {
  socket: Socket | undefined;
  #settled: Settled | undefined;
  #wake: (() => void) | undefined;

  /** Watches the write of `body` (give undici this very Buffer). */
  constructor(body: Buffer) {
    subscribe();
    BODIES.set(body, this);
  }

  /** The write's callback: no error (all taken), a write error, or another end (a destroy of our own). */
  settle(error: Error | null | undefined): void {
    if (this.#settled) return;
    this.#settled = { cut: error ? WRITE_ERRORS[(error as NodeJS.ErrnoException).code ?? ''] : undefined, at: performance.now() };
    this.#wake?.();
  }

  /**
   * Called once the answer is read (its headers arrived at `headersAt`, a `performance.now()`):
   * the failure that fails the request as k6 would, or undefined. A body taken in full before
   * the answer never fails; after an early answer, a failed write or a reset of the connection
   * within {@link WRITE_RACE_MS} fails it (the server dropped the rest of the body unread).
   */
  async cutAfter(headersAt: number): Promise<BodyCut | undefined> {
    const socket = this.socket;
    if (!socket) return undefined;
    const settled = this.#settled;
    if (settled && !settled.cut && settled.at <= headersAt) return undefined;
    const deadline = headersAt + WRITE_RACE_MS;
    for (;;) {
      const failure = this.#settled?.cut ? this.#settled : SOCKETS.get(socket)?.failure;
      if (failure) return failure.at <= deadline ? failure.cut : undefined;
      const left = deadline - performance.now();
      // A destroyed socket emits its error on the next tick: wait for its close before deciding.
      if (left <= 0 || socket.closed) return undefined;
      await new Promise<void>((resume) => {
        const done = (): void => { clearTimeout(timer); this.#wake = undefined; socket.off('error', done); socket.off('close', done); resume(); };
        const timer = setTimeout(done, left);
        this.#wake = done;
        socket.once('error', done);
        socket.once('close', done);
      });
    }
  }
}
