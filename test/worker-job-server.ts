/**
 * A loopback job server speaking the worker side of the official library (job-take, job-stop,
 * job-stream, job-done; platform notes, "The official worker library"), for tests that run a
 * real worker process: it hands out one job at a time and records what the worker posts for it.
 */
import { createServer, type IncomingMessage, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';

/** What the worker sent for one job: its stream posts and its job-done post (none when stopped). */
export interface JobRun { items: unknown[]; done: unknown }

/** When the server tells the worker to stop the job: at once, or once it has streamed `n` items. */
export type StopAt = 'at-start' | number | undefined;

const KEY = 'worker-test-key';
const WORKER_ID = 'worker-1';

const readBody = (req: IncomingMessage): Promise<string> => new Promise((resolve, reject) => {
  const chunks: Buffer[] = [];
  req.on('data', (c: Buffer) => chunks.push(c));
  req.on('end', () => resolve(Buffer.concat(chunks).toString('utf8')));
  req.on('error', reject);
});

const answerJson = (res: ServerResponse, body: unknown): void => {
  res.writeHead(200, { 'content-type': 'application/json' }).end(JSON.stringify(body));
};

/** Starts the server; `workerEnv` is what a worker process needs to talk to it. */
export async function startJobServer(): Promise<{
  workerEnv: Record<string, string>;
  run(id: string, input: unknown, stopAt: StopAt): Promise<JobRun>;
  authorized(): boolean;
  close(): Promise<void>;
}> {
  const takes: ServerResponse[] = [];
  const stops: ServerResponse[] = [];
  // The job being stopped: named on every stop poll until the worker, free again, takes the next
  // job (as a platform keeps signalling until the worker drops it: a signal that comes before the
  // job's task exists stops nothing, and the next poll names it again).
  let stopping: string | undefined;
  let onTake: (() => void) | undefined;
  let current: { id: string; run: JobRun; stopAt: StopAt; stopped: boolean; end(): void } | undefined;
  let allAuthorized = true;

  const signal = (res: ServerResponse): void => {
    setTimeout(() => (stopping ? answerJson(res, { jobsToStop: [stopping] }) : stops.push(res)), 50);
  };
  const stop = (id: string): void => {
    stopping = id;
    stops.splice(0).forEach(signal);
  };

  const server = createServer((req, res) => {
    if (req.headers.authorization !== KEY) allAuthorized = false;
    const path = new URL(req.url ?? '/', 'http://loopback').pathname;
    if (path.includes('/job-take/')) { takes.push(res); onTake?.(); return; }
    if (path.includes('/job-stop/')) {
      if (stopping) signal(res); else stops.push(res);
      return;
    }
    void readBody(req).then((text) => {
      res.writeHead(200).end('{}');
      const job = current;
      if (!job || !path.endsWith(`/${job.id}`)) return;
      if (path.includes('/job-stream/')) {
        job.run.items.push(JSON.parse(text) as unknown);
        if (job.stopAt === job.run.items.length && !job.stopped) { job.stopped = true; stop(job.id); }
      } else if (path.includes('/job-done/')) {
        job.run.done = JSON.parse(text) as unknown;
        job.end();
      }
    });
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const base = `http://127.0.0.1:${(server.address() as AddressInfo).port}/v2/endpoint-1`;

  /** The worker's next job-take request (held open until a job is handed out). */
  const nextTake = async (): Promise<ServerResponse> => {
    while (takes.length === 0) await new Promise<void>((resolve) => { onTake = resolve; });
    onTake = undefined;
    return takes.shift()!;
  };

  return {
    workerEnv: {
      RUNPOD_WEBHOOK_GET_JOB: `${base}/job-take/$ID?gpu=test`,
      RUNPOD_WEBHOOK_POST_OUTPUT: `${base}/job-done/$RUNPOD_POD_ID/$ID?gpu=test`,
      RUNPOD_WEBHOOK_POST_STREAM: `${base}/job-stream/$RUNPOD_POD_ID/$ID?gpu=test`,
      RUNPOD_POD_ID: WORKER_ID,
      RUNPOD_AI_API_KEY: KEY,
    },
    /**
     * Hands the job to the worker and resolves once it has ended: on its job-done post, or (a
     * stopped job posts none) when the worker, free again, asks for the next job.
     */
    async run(id, input, stopAt) {
      const take = await nextTake();
      return new Promise<JobRun>((resolve) => {
        const run: JobRun = { items: [], done: undefined };
        current = { id, run, stopAt, stopped: stopAt === 'at-start', end: () => resolve(run) };
        answerJson(take, { id, input });
        if (stopAt === 'at-start') stop(id);
        if (stopAt !== undefined) void nextTake().then((again) => { stopping = undefined; takes.unshift(again); resolve(run); });
      });
    },
    authorized: () => allAuthorized,
    close: () => new Promise<void>((resolve) => { server.closeAllConnections(); server.close(() => resolve()); }),
  };
}
