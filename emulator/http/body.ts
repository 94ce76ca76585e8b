import type { IncomingMessage } from 'node:http';

/** Outcome of reading a request body: data, not exceptions. */
export type BodyResult =
  | { kind: 'ok'; bytes: Buffer }
  | { kind: 'too-large'; limit: number; declared?: number }
  | { kind: 'aborted' };

/**
 * The lingering close of a refused body, as production servers do it (nginx: `lingering_close`,
 * `lingering_time`): after the 413 leaves, the rest of the body is read and discarded so that a
 * client still sending can finish its write and read the answer (Go's client, and so k6, reports
 * a write error instead of an answer when the server drops the connection under its write).
 * Bounded, so a slow or endless sender cannot hold the connection: after `ms` from the refusal
 * unless the body arrived at `minBytesPerSecond` or more over that interval, judged again after
 * each further `ms` on the bytes of that interval alone (a sender making progress on a busy
 * machine is not a slow one; the byte bound still ends it; one that slows to a trickle is let go
 * at the next check), after `idleMs` without a byte, or once the body has reached `limitFactor`
 * times the limit plus `slackBytes`, the socket is destroyed. Silence is judged only after the
 * bytes already waiting have been read: a server whose own turn came late must not take its
 * lateness for the client's. A body that ends within the bounds leaves the connection open for
 * the next request.
 */
export interface LingerBounds {
  readonly ms: number;
  readonly idleMs: number;
  readonly minBytesPerSecond: number;
  readonly limitFactor: number;
  readonly slackBytes: number;
}

/**
 * The emulator's bounds, nginx's: 30 s in all (`lingering_time`), 5 s without a byte
 * (`lingering_timeout`), and twice the limit plus 1 MiB of body; past the 30 s, a sender whose
 * last 30 s brought 64 KiB/s or more goes on, 30 s at a time, up to the byte bound. A client
 * still sending at its own pace (a busy machine writes a 20 MiB body slowly) reads its 413; a
 * silent or trickling one is let go, even after a fast start.
 */
export const LINGER: LingerBounds = { ms: 30_000, idleMs: 5_000, minBytesPerSecond: 64 * 1024, limitFactor: 2, slackBytes: 1024 * 1024 };

/** Receives the outcome of {@link readBody}, once. */
export interface BodySink { bodyRead(result: BodyResult): void }

/**
 * Reads a body of at most `limit` bytes and hands the outcome to `sink`. A declared
 * Content-Length over the limit is refused before a byte is read; a body that grows past the
 * limit stops being buffered at once, and the rest is read and discarded within `linger`'s
 * bounds (a lingering close) so the client can read the 413. Memory never holds more than
 * `limit` bytes of one request.
 *
 * This runs on every request with a body, so it costs one small object and no closures: the
 * listeners are module functions that find their reading on the request.
 */
export function readBody(req: IncomingMessage, limit: number, sink: BodySink, linger: LingerBounds = LINGER): void {
  const declared = req.headers['content-length'] !== undefined ? Number(req.headers['content-length']) : undefined;
  if (declared !== undefined && Number.isFinite(declared) && declared > limit) {
    lingerOn(req, limit, linger, 0);
    sink.bodyRead({ kind: 'too-large', limit, declared });
    return;
  }
  (req as Reading)[READING] = { chunks: [], size: 0, limit, sink, linger };
  req.on('data', onData);
  req.on('end', onEnd);
  // An abort emits 'aborted' and then an 'error'; the error alone is enough.
  req.on('error', onError);
}

/** {@link readBody} as a promise, for paths where a closure per request costs nothing. */
export function readBodyAsync(req: IncomingMessage, limit: number): Promise<BodyResult> {
  return new Promise((resolve) => { readBody(req, limit, { bodyRead: resolve }); });
}

const READING = Symbol('reading');
interface BodyState { chunks: Buffer[]; size: number; readonly limit: number; sink: BodySink | undefined; readonly linger: LingerBounds }
type Reading = IncomingMessage & { [READING]?: BodyState };

function finish(state: BodyState, result: BodyResult): void {
  const sink = state.sink;
  if (sink === undefined) return;
  state.sink = undefined;
  sink.bodyRead(result);
}

function onData(this: Reading, chunk: Buffer): void {
  const state = this[READING]!;
  state.size += chunk.length;
  if (state.size > state.limit) {
    state.chunks = [];
    this.off('data', onData);
    lingerOn(this, state.limit, state.linger, state.size);
    finish(state, { kind: 'too-large', limit: state.limit });
    return;
  }
  state.chunks.push(chunk);
}

function onEnd(this: Reading): void {
  const state = this[READING]!;
  const chunks = state.chunks;
  finish(state, { kind: 'ok', bytes: chunks.length === 1 ? chunks[0]! : Buffer.concat(chunks, state.size) });
}

function onError(this: Reading): void {
  finish(this[READING]!, { kind: 'aborted' });
}

/** Reads and discards the rest of a refused body within `bounds`, then destroys the socket (see {@link LingerBounds}). */
function lingerOn(req: IncomingMessage, limit: number, bounds: LingerBounds, already: number): void {
  const cap = limit * bounds.limitFactor + bounds.slackBytes;
  const started = Date.now();
  let seen = already;
  let over = false;
  const socket = req.socket;
  // Each bound is judged after an I/O turn (setImmediate runs after the poll phase), so the
  // bytes that arrived while this process waited for its turn count before it judges silence.
  // The rate is the last interval's, not an average since the refusal: a sender that started
  // fast and then trickles is let go at the next check instead of living on its early bytes.
  let checkedAt = started;
  let checkedBytes = already;
  const timer = setTimeout(() => setImmediate(() => {
    if (over) return;
    const now = Date.now();
    const rate = (seen - checkedBytes) / Math.max((now - checkedAt) / 1000, 0.001);
    checkedAt = now;
    checkedBytes = seen;
    if (rate >= bounds.minBytesPerSecond) timer.refresh(); else socket.destroy();
  }), bounds.ms);
  timer.unref();
  const idle = setTimeout(() => {
    const at = seen;
    setImmediate(() => { if (!over && seen === at) socket.destroy(); });
  }, bounds.idleMs);
  idle.unref();
  const done = (): void => { over = true; clearTimeout(timer); clearTimeout(idle); };
  req.on('data', (chunk: Buffer) => {
    seen += chunk.length;
    if (seen > cap) { done(); socket.destroy(); } else idle.refresh();
  });
  // The whole body arrived (the connection serves the next request) or the connection ended.
  req.once('end', done);
  socket.once('close', done);
  if (seen > cap) { done(); socket.destroy(); return; }
  req.resume();
}

/** Maximum nesting of arrays and objects in a JSON body; deeper input is refused with 400. */
export const MAX_JSON_DEPTH = 256;

/**
 * Depth of JSON text, counted without parsing (strings are skipped correctly). A string is
 * skipped with `indexOf` to its closing quote (a quote after an odd run of backslashes is
 * escaped), so a body that is mostly one long string, as the payload limits send, costs a
 * native scan instead of a loop turn per character.
 */
export function jsonDepth(text: string, stopAt = MAX_JSON_DEPTH + 1): number {
  let depth = 0;
  let max = 0;
  for (let i = 0; i < text.length; i++) {
    const c = text.charCodeAt(i);
    if (c === 34 /* " */) {
      i = stringEnd(text, i);
      if (i < 0) return max;
    } else if (c === 123 || c === 91) { depth++; if (depth > max) { max = depth; if (max >= stopAt) return max; } }
    else if (c === 125 || c === 93) depth--;
  }
  return max;
}

/** Index of the quote that closes the string opened at `open`, or -1 when it is not closed. */
function stringEnd(text: string, open: number): number {
  let q = text.indexOf('"', open + 1);
  while (q >= 0) {
    let backslashes = 0;
    for (let j = q - 1; j > open && text.charCodeAt(j) === 92 /* \ */; j--) backslashes++;
    if (backslashes % 2 === 0) return q;
    q = text.indexOf('"', q + 1);
  }
  return -1;
}
