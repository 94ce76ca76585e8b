/**
 * A plain reverse proxy in front of the emulator that makes it look like a deployment: it
 * forwards every request unchanged and answers the control surface (`/__emulator*`) with 404.
 * It counts what it forwards (total, per key fingerprint, per status) so a run's request count
 * can be measured where a deployment would count it.
 *
 *   npx tsx scripts/hide-control-proxy.ts --upstream http://127.0.0.1:8787 [--port N] [--counts FILE]
 *
 * Prints `CPC_BASE_URL=<proxy>`; writes the counts to FILE (JSON) every second while they change
 * and on exit (SIGINT, SIGTERM). Exit 2 on bad options.
 */
import { createHash } from 'node:crypto';
import { writeFileSync } from 'node:fs';
import { createServer, request, type IncomingMessage } from 'node:http';
import type { AddressInfo } from 'node:net';
import { parseArgs } from 'node:util';

function usage(message: string): never {
  process.stderr.write(`hide-control-proxy: ${message}\nusage: npx tsx scripts/hide-control-proxy.ts --upstream URL [--port N] [--host H] [--counts FILE]\n`);
  process.exit(2);
}

let values: Record<string, string | undefined> = {};
try {
  ({ values } = parseArgs({ options: { upstream: { type: 'string' }, port: { type: 'string' }, host: { type: 'string' }, counts: { type: 'string' } }, strict: true }));
} catch (e) {
  usage((e as Error).message);
}
if (!values.upstream) usage('--upstream is required');
let upstream: URL;
try { upstream = new URL(values.upstream); } catch { usage(`--upstream is not a URL: ${values.upstream}`); }
if (upstream.protocol !== 'http:') usage('--upstream must be an http URL');
const port = Number(values.port ?? 0);
if (!Number.isInteger(port) || port < 0 || port > 65535) usage(`--port must be an integer from 0 to 65535, got ${values.port}`);

interface Counts { total: number; hidden: number; byKey: Record<string, number>; byStatus: Record<string, number>; byRoute: Record<string, number>; startedAt: string; updatedAt: string }
const counts: Counts = { total: 0, hidden: 0, byKey: {}, byStatus: {}, byRoute: {}, startedAt: new Date().toISOString(), updatedAt: new Date().toISOString() };

/** `GET /v2/pods/:id`: the method and path with id-like segments (those holding a digit) folded. */
function routeOf(req: IncomingMessage): string {
  const path = new URL(req.url ?? '/', 'http://x').pathname.split('/').map((seg, i) => (i > 2 && /\d/.test(seg) ? ':id' : seg)).join('/');
  return `${req.method} ${path.replace(/^\/v2\/[^/]*\d[^/]*\//, '/v2/:endpoint/')}`;
}
let dirty = false;

/** A fingerprint of the credential a request carries (Bearer, raw or `api_key`), never the key itself. */
function keyOf(req: IncomingMessage): string {
  const auth = req.headers.authorization?.replace(/^Bearer\s+/i, '');
  const query = new URL(req.url ?? '/', 'http://x').searchParams.get('api_key') ?? undefined;
  const key = auth ?? query;
  return key ? `key:${createHash('sha256').update(key).digest('hex').slice(0, 8)}` : 'none';
}

function count(req: IncomingMessage, status: number): void {
  counts.total += 1;
  const k = keyOf(req);
  counts.byKey[k] = (counts.byKey[k] ?? 0) + 1;
  counts.byStatus[status] = (counts.byStatus[status] ?? 0) + 1;
  const route = routeOf(req);
  counts.byRoute[route] = (counts.byRoute[route] ?? 0) + 1;
  counts.updatedAt = new Date().toISOString();
  dirty = true;
}

const NOT_FOUND = JSON.stringify({ type: 'about:blank', title: 'Not Found', status: 404, detail: 'No such route.' });

const server = createServer((req, res) => {
  if ((req.url ?? '').startsWith('/__emulator')) {
    counts.hidden += 1;
    req.resume();
    res.writeHead(404, { 'content-type': 'application/problem+json', 'content-length': Buffer.byteLength(NOT_FOUND) }).end(NOT_FOUND);
    return;
  }
  const out = request({ host: upstream.hostname, port: upstream.port, method: req.method, path: req.url, headers: req.headers }, (up) => {
    count(req, up.statusCode ?? 0);
    res.writeHead(up.statusCode ?? 502, up.rawHeaders);
    up.pipe(res);
  });
  out.on('error', (e) => {
    if (!res.headersSent) res.writeHead(502, { 'content-type': 'text/plain' }).end(`upstream error: ${e.message}`);
    else res.destroy();
  });
  res.on('close', () => { if (!res.writableFinished) out.destroy(); });
  req.pipe(out);
});
// A client's answer may take up to the spec's longest wait; never time out before the upstream does.
server.requestTimeout = 0;
server.headersTimeout = 60_000;

function flush(): void {
  if (!values.counts || !dirty) return;
  writeFileSync(values.counts, JSON.stringify(counts, null, 2) + '\n');
  dirty = false;
}
const timer = setInterval(flush, 1000);

server.listen(port, values.host ?? '127.0.0.1', () => {
  const { port: bound } = server.address() as AddressInfo;
  process.stdout.write(`proxy to ${upstream.origin} (control surface hidden) listening\n  CPC_BASE_URL=http://${values.host ?? '127.0.0.1'}:${bound}\n`);
});
const stop = (): void => {
  clearInterval(timer);
  dirty = true;
  flush();
  process.stdout.write(`proxy: ${counts.total} requests forwarded, ${counts.hidden} control-surface requests answered 404\n`);
  server.closeAllConnections();
  server.close(() => process.exit(0));
};
process.on('SIGINT', stop);
process.on('SIGTERM', stop);
