import type { IncomingMessage } from 'node:http';

/** Outcome of reading a request body: data, not exceptions. */
export type BodyResult =
  | { kind: 'ok'; bytes: Buffer }
  | { kind: 'too-large'; limit: number; declared?: number }
  | { kind: 'aborted' };

/** How far past the limit the emulator keeps draining (discarding) before it drops the socket. */
const DRAIN_FACTOR = 2;

/** Receives the outcome of {@link readBody}, once. */
export interface BodySink { bodyRead(result: BodyResult): void }

/**
 * Reads a body of at most `limit` bytes and hands the outcome to `sink`. A declared
 * Content-Length over the limit is refused before a byte is read; a body that grows past the
 * limit stops being buffered at once, and the rest is drained (discarded) so the client can read
 * the 413, up to a cap after which the socket is destroyed. Memory never holds more than
 * `limit` bytes of one request.
 *
 * This runs on every request with a body, so it costs one small object and no closures: the
 * listeners are module functions that find their reading on the request.
 */
export function readBody(req: IncomingMessage, limit: number, sink: BodySink): void {
  const declared = req.headers['content-length'] !== undefined ? Number(req.headers['content-length']) : undefined;
  if (declared !== undefined && Number.isFinite(declared) && declared > limit) {
    drain(req, limit);
    sink.bodyRead({ kind: 'too-large', limit, declared });
    return;
  }
  (req as Reading)[READING] = { chunks: [], size: 0, limit, sink };
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
interface BodyState { chunks: Buffer[]; size: number; readonly limit: number; sink: BodySink | undefined }
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
    drain(this, state.limit, state.size);
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

function drain(req: IncomingMessage, limit: number, already = 0): void {
  let seen = already;
  const cap = limit * DRAIN_FACTOR + 1024 * 1024;
  req.on('data', (chunk: Buffer) => {
    seen += chunk.length;
    if (seen > cap) req.socket.destroy();
  });
  req.resume();
}

/** Maximum nesting of arrays and objects in a JSON body; deeper input is refused with 400. */
export const MAX_JSON_DEPTH = 256;

/** Depth of JSON text, counted without parsing (strings are skipped correctly). */
export function jsonDepth(text: string, stopAt = MAX_JSON_DEPTH + 1): number {
  let depth = 0;
  let max = 0;
  let inString = false;
  for (let i = 0; i < text.length; i++) {
    const c = text.charCodeAt(i);
    if (inString) {
      if (c === 92 /* \ */) i++;
      else if (c === 34 /* " */) inString = false;
      continue;
    }
    if (c === 34) inString = true;
    else if (c === 123 || c === 91) { depth++; if (depth > max) { max = depth; if (max >= stopAt) return max; } }
    else if (c === 125 || c === 93) depth--;
  }
  return max;
}
