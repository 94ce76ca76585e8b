/**
 * A target far from the spec, as a team's first implementation is: 4 of the 8 job operations,
 * 2 of them on the wrong method (/status and /health answer GET with 405, as a framework does for
 * a route declared on POST only), no authentication at all, and one real breach (/run answers
 * IN_PROGRESS, not IN_QUEUE). Every other route answers 404 `{"detail":"Not Found"}` as a web
 * framework's default does (JSON, so only the unknown-route comparison can tell it is a missing
 * route). No control surface: the suite tests it as it tests a deployment, in real time.
 */
import { createServer, type IncomingMessage, type Server, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';

export const FAR_ENDPOINT = 'ep-far';

interface Job { id: string; status: string; input: unknown; output?: unknown }

const send = (res: ServerResponse, status: number, body: unknown, headers: Record<string, string> = {}): void => {
  const text = JSON.stringify(body);
  res.writeHead(status, { 'content-type': 'application/json', 'content-length': Buffer.byteLength(text), ...headers });
  res.end(text);
};

const readBody = (req: IncomingMessage): Promise<string> => new Promise((resolve) => {
  const chunks: Buffer[] = [];
  req.on('data', (c: Buffer) => chunks.push(c));
  req.on('end', () => resolve(Buffer.concat(chunks).toString('utf8')));
  req.on('error', () => resolve(''));
});

const inputOf = (text: string): unknown => {
  try { return (JSON.parse(text) as { input?: unknown }).input; } catch { return undefined; }
};

/** The routes it serves: method and a path pattern under `/v2/<endpoint>/`. */
const ROUTES: { method: string; pattern: RegExp }[] = [
  { method: 'POST', pattern: /^\/v2\/[^/]+\/run$/ },
  { method: 'POST', pattern: /^\/v2\/[^/]+\/runsync$/ },
  { method: 'POST', pattern: /^\/v2\/[^/]+\/status\/[^/]+$/ },
  { method: 'POST', pattern: /^\/v2\/[^/]+\/health$/ },
];

/** Starts the target on a loopback port; `close` stops it. */
export async function startFarTarget(): Promise<{ url: string; close: () => Promise<void> }> {
  const jobs = new Map<string, Job>();
  let next = 1;
  const server: Server = createServer((req, res) => {
    void (async () => {
      const path = new URL(req.url ?? '/', 'http://x').pathname;
      const text = await readBody(req);
      const route = ROUTES.find((r) => r.pattern.test(path));
      if (!route) return send(res, 404, { detail: 'Not Found' });
      if (route.method !== req.method) return send(res, 405, { detail: 'Method Not Allowed' }, { allow: route.method });
      const op = path.split('/')[3];
      if (op === 'run') {
        const job: Job = { id: `job-${next++}`, status: 'IN_PROGRESS', input: inputOf(text) };
        jobs.set(job.id, job);
        return send(res, 200, { id: job.id, status: job.status });
      }
      if (op === 'runsync') {
        const input = inputOf(text);
        const job: Job = { id: `sync-job-${next++}`, status: 'COMPLETED', input, output: input };
        jobs.set(job.id, job);
        return send(res, 200, { ...job, delayTime: 1, executionTime: 1 });
      }
      if (op === 'status') {
        const job = jobs.get(path.split('/')[4] ?? '');
        return job ? send(res, 200, job) : send(res, 404, { detail: 'job not found' });
      }
      return send(res, 200, { jobs: { completed: 0, failed: 0, inProgress: 0, inQueue: 0, retried: 0 }, workers: { idle: 1, running: 0 } });
    })();
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as AddressInfo;
  return {
    url: `http://127.0.0.1:${port}`,
    close: () => new Promise<void>((resolve) => { server.closeAllConnections(); server.close(() => resolve()); }),
  };
}
