import type { IncomingMessage } from 'node:http';

/** Outcome of reading a request body: data, not exceptions. */
export type BodyResult =
  | { kind: 'ok'; bytes: Buffer }
  | { kind: 'too-large'; limit: number; declared?: number }
  | { kind: 'aborted' };

/** How far past the limit the emulator keeps draining (discarding) before it drops the socket. */
const DRAIN_FACTOR = 2;

/**
 * Reads a body of at most `limit` bytes. A declared Content-Length over the limit is refused
 * before a byte is read; a body that grows past the limit stops being buffered at once, and the
 * rest is drained (discarded) so the client can read the 413, up to a cap after which the socket
 * is destroyed. Memory never holds more than `limit` bytes of one request.
 */
export function readBody(req: IncomingMessage, limit: number): Promise<BodyResult> {
  const declared = req.headers['content-length'] !== undefined ? Number(req.headers['content-length']) : undefined;
  if (declared !== undefined && Number.isFinite(declared) && declared > limit) {
    drain(req, limit);
    return Promise.resolve({ kind: 'too-large', limit, declared });
  }
  return new Promise((resolve) => { new BodyReader(req, limit, resolve); });
}

/**
 * One body being read. Its listeners are prototype methods bound once, so a request costs no
 * closures beyond the promise's (this runs on every request of every benchmark).
 */
class BodyReader {
  readonly #chunks: Buffer[] = [];
  #size = 0;
  #done = false;
  readonly #onData: (chunk: Buffer) => void;

  constructor(private readonly req: IncomingMessage, private readonly limit: number, private readonly resolve: (r: BodyResult) => void) {
    this.#onData = this.data.bind(this);
    const aborted = this.aborted.bind(this);
    req.on('data', this.#onData);
    req.on('end', this.end.bind(this));
    req.on('aborted', aborted);
    req.on('error', aborted);
  }

  data(chunk: Buffer): void {
    this.#size += chunk.length;
    if (this.#size > this.limit) {
      this.#chunks.length = 0;
      this.req.off('data', this.#onData);
      drain(this.req, this.limit, this.#size);
      this.#finish({ kind: 'too-large', limit: this.limit });
      return;
    }
    this.#chunks.push(chunk);
  }

  end(): void {
    const chunks = this.#chunks;
    this.#finish({ kind: 'ok', bytes: chunks.length === 1 ? chunks[0]! : Buffer.concat(chunks, this.#size) });
  }

  aborted(): void {
    this.#finish({ kind: 'aborted' });
  }

  #finish(r: BodyResult): void {
    if (this.#done) return;
    this.#done = true;
    this.resolve(r);
  }
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
