/**
 * Request bodies written to the end, as k6's client (Go's net/http) writes them, so that the
 * Node path fails where k6 fails when a server answers before it has read a body.
 *
 * Go writes a request and reads its answer at once, and returns whichever comes first: the
 * answer, or the error of the write (`write: broken pipe`, `write: connection reset by peer`).
 * A server that answers early and then closes or resets the connection under the client's write
 * (Node's http server after a `Connection: close` answer, for one) makes that a race Go often
 * loses: k6 reports the request failed. undici instead completes any request whose answer it has
 * read, and when the answer comes first it destroys the socket itself (client-h1
 * `onMessageComplete`, "Response completed before request"), dropping the rest of the body unsent,
 * so it never sees whether the server would have taken it. Here:
 *
 * - undici's own destroy of a socket whose body is still being written waits until the write
 *   ends (at most {@link BODY_WRITE_WAIT_MS}), as Go's writer goes on writing after an early answer;
 * - a request whose body write fails (the connection reset or closed under it) fails with k6's
 *   error (1201 broken pipe, 1220 reset by peer), whether or not its answer came first: where Go's
 *   outcome is a race the Node path takes the failing side, so it never passes where k6 may fail.
 *   It is stricter than Go for a server that answers, reads on for a while and only then drops
 *   the connection (Go has returned the answer by then).
 *
 * A server that reads the rest of the body (a lingering close, as nginx and the emulator do)
 * gets its answer read on both. Requests are matched to sockets by undici's diagnostics
 * channel `undici:client:sendHeaders`, whose request carries the body Buffer given to undici.
 */
import diagnostics from 'node:diagnostics_channel';
import type { Socket } from 'node:net';

/** How long after an answer the rest of its body may take to be written before the answer stands, in ms. */
export const BODY_WRITE_WAIT_MS = 10_000;

/** A write that failed under a request's unsent body: k6's error code and message. */
export interface BodyCut { errorCode: 1201 | 1220; error: string }

/** k6's error for a failed write (lib/netext/httpext/error_codes.go), by Node's error code. */
export const WRITE_ERRORS: Record<string, BodyCut> = {
  EPIPE: { errorCode: 1201, error: 'write: broken pipe' },
  ECONNRESET: { errorCode: 1220, error: 'write: connection reset by peer' },
};

type Settled = { cut: BodyCut | undefined; at: number };

const BODIES = new WeakMap<Buffer, BodyWrite>();
const WATCHED = new WeakSet<Socket>();

/** Installs, once per socket, the write callback that settles a watched body and the deferral of undici's reset. */
function watchSocket(socket: Socket): void {
  if (WATCHED.has(socket)) return;
  WATCHED.add(socket);
  const write = socket.write;
  socket.write = function watchedWrite(this: Socket, chunk: unknown, ...rest: unknown[]): boolean {
    const body = Buffer.isBuffer(chunk) ? BODIES.get(chunk) : undefined;
    if (!body) return (write as (...a: unknown[]) => boolean).call(this, chunk, ...rest);
    const cb = typeof rest[rest.length - 1] === 'function' ? rest.pop() as (e?: Error | null) => void : undefined;
    // Node reports a write cut short by the socket's destroy as done (no error): the destroy's cause decides.
    return (write as (...a: unknown[]) => boolean).call(this, chunk, ...rest, (e?: Error | null) => {
      body.settle(e ? (e as NodeJS.ErrnoException).code ?? 'error' : this.destroyed ? endedWith ?? 'destroyed' : undefined);
      cb?.(e);
    });
  } as typeof socket.write;
  const original = socket.destroy;
  let endedWith: string | undefined;
  const destroy = (self: Socket, error: Error | undefined, code: string | undefined): Socket => { endedWith ??= code ?? 'destroyed'; return original.call(self, error); };
  let deferred = false;
  socket.destroy = function deferUndiciReset(this: Socket, error?: Error): Socket {
    const code = (error as { code?: string } | undefined)?.code;
    // While deferred, undici's later destroys (the server's FIN: `other side closed`) wait too;
    // a real error (a reset, a broken pipe) ends the socket at once.
    if (deferred) return code === 'UND_ERR_INFO' || code === 'UND_ERR_SOCKET' ? this : destroy(this, error, code);
    // undici's `InformationalError('reset')` after an answer, with a body still being written
    // (it no longer sends requests on this socket): let the write end first, as Go's writer goes
    // on; the server takes the rest (a lingering close) or resets the connection (a failed write).
    if (code !== 'UND_ERR_INFO' || this.writableLength === 0) return destroy(this, error, code);
    deferred = true;
    const finish = (): void => { clearTimeout(timer); this.off('drain', finish); destroy(this, error, code); };
    const timer = setTimeout(finish, BODY_WRITE_WAIT_MS);
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
    body.sent = true;
  });
}

/** The write of one request body: settled when the socket has taken all of it, or failed. */
export class BodyWrite {
  /** True once undici started writing the request on a watched socket. */
  sent = false;
  #settled: Settled | undefined;
  #wake: (() => void) | undefined;

  /** Watches the write of `body` (give undici this very Buffer). */
  constructor(body: Buffer) {
    subscribe();
    BODIES.set(body, this);
  }

  /**
   * The end of the write: undefined when the socket took all of it, else the code of what ended
   * it (a write error, or the cause of the socket's destroy). A reset or broken pipe, or undici's
   * `other side closed` (the server closed under the body), is a cut; an end of our own is not.
   */
  settle(endedBy: string | undefined): void {
    if (this.#settled) return;
    const cut = endedBy === undefined ? undefined : WRITE_ERRORS[endedBy] ?? (endedBy === 'UND_ERR_SOCKET' ? WRITE_ERRORS.EPIPE : undefined);
    this.#settled = { cut, at: performance.now() };
    this.#wake?.();
  }

  /**
   * Called once the answer is read (its headers arrived at `headersAt`, a `performance.now()`):
   * the write failure that fails the request as k6 would, or undefined. A body taken in full
   * before the answer never fails; after an early answer, the rest of the write decides.
   */
  async cutAfter(headersAt: number): Promise<BodyCut | undefined> {
    if (!this.sent) return undefined;
    const settled = this.#settled;
    if (settled) return settled.cut;
    const left = headersAt + BODY_WRITE_WAIT_MS - performance.now();
    if (left > 0) {
      await new Promise<void>((resume) => {
        const timer = setTimeout(() => { this.#wake = undefined; resume(); }, left);
        this.#wake = () => { clearTimeout(timer); this.#wake = undefined; resume(); };
      });
    }
    return this.#settled?.cut;
  }
}
