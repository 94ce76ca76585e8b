import { fail, type Reply } from '../http/reply.js';
import type { Ctx } from '../types.js';
import { hash32, type PodRecord } from './pod-record.js';

/**
 * `GET /v2/pods/{id}/logs` (platform-notes: "server-sent events of the container's log
 * lines"): one event per line, `data: {"source", "line", "ts"}`, the shape the platform's
 * clients parse. The lines follow from the pod's record and the world's virtual clock, so the
 * same world at the same time answers the same lines. The stream ends after the lines up to
 * the virtual now (the emulator's time moves only when a test moves it); a client continues
 * with `since`.
 *
 * Query: `source` (`container` or `system`; both when absent), `tail` (0 to 5000, default 100:
 * the last lines), `since` (RFC 3339: the lines from then on, `tail` ignored). Anything else in
 * them: 400.
 */
export type LogSource = 'container' | 'system';
export interface LogLine { at: number; source: LogSource; line: string }

export const LOG_TAIL_DEFAULT = 100;
export const LOG_TAIL_MAX = 5000;
const MINUTE = 60_000;

const percent = (pod: PodRecord, what: string, minute: number): number => hash32(`${pod.id}:${what}:${minute}`) % 101;

/** What the pod's resources are, in words. */
const resources = (pod: PodRecord): string =>
  pod.gpu ? `${pod.gpu.count} x ${pod.gpu.id}` : pod.cpu ? `${pod.cpu.vcpuCount} vCPU ${pod.cpu.id}` : 'no compute';

/**
 * Every line of a pod at virtual time `now`, oldest first. The container's heartbeat lines (one
 * per virtual minute of running) are made only from `fromMs` on and at most `limit` of them
 * counted from the newest, so an old pod costs no more than the lines asked for.
 */
export function podLogLines(pod: PodRecord, now: number, window: { fromMs: number; limit: number; newest: boolean }): LogLine[] {
  const lines: LogLine[] = [
    { at: pod.createdAt, source: 'system', line: `create pod ${pod.id}: ${resources(pod)}, data center ${pod.dataCenterId}` },
    { at: pod.createdAt, source: 'system', line: `pull image ${pod.image}` },
  ];
  if (pod.startedAt !== null) {
    const started = pod.startedAt;
    lines.push({ at: started, source: 'system', line: `start container ${pod.id}` });
    lines.push({ at: started, source: 'container', line: `exec ${pod.image}${pod.args ? ` ${pod.args}` : ''}` });
    if (pod.cudaVersion !== null) lines.push({ at: started, source: 'container', line: `CUDA ${pod.cudaVersion} available on ${pod.gpu?.count ?? 0} GPU(s)` });
    if (pod.ssh) lines.push({ at: started, source: 'container', line: 'sshd: Server listening on 0.0.0.0 port 22.' });
    if (pod.jupyter) lines.push({ at: started, source: 'container', line: 'jupyter: JupyterLab server listening on port 8888' });
    const end = pod.status === 'RUNNING' ? now : Math.max(started, pod.statusSince);
    const total = Math.floor((end - started) / MINUTE);
    let first = Math.max(1, Math.ceil((window.fromMs - started) / MINUTE));
    let last = total;
    if (window.newest) first = Math.max(first, last - window.limit + 1);
    else last = Math.min(last, first + window.limit - 1);
    for (let m = first; m <= last; m++) {
      const what = pod.gpu ? 'gpu' : 'cpu';
      lines.push({ at: started + m * MINUTE, source: 'container', line: `heartbeat: up ${m} min, ${what} ${percent(pod, what, m)} %` });
    }
  }
  if (pod.status !== 'RUNNING' && pod.statusSince > pod.createdAt) {
    const words = { PROVISIONING: 'provision again', STARTING: 'restart container', EXITED: 'stop container', ERROR: 'container failed', TERMINATED: 'terminate pod', RUNNING: '' }[pod.status];
    lines.push({ at: pod.statusSince, source: 'system', line: `${words} ${pod.id}` });
  }
  return lines.sort((a, b) => a.at - b.at);
}

/** The query's window, or a 400 naming the parameter. */
function windowOf(ctx: Ctx): { source?: LogSource; fromMs: number; limit: number; newest: boolean } {
  const q = ctx.query;
  const source = q.get('source');
  if (source !== null && source !== 'container' && source !== 'system') fail('bad-request', `source must be "container" or "system", not "${source}".`);
  const tailText = q.get('tail');
  const tail = tailText === null ? LOG_TAIL_DEFAULT : Number(tailText);
  if (!Number.isInteger(tail) || tail < 0 || tail > LOG_TAIL_MAX || (tailText !== null && !/^\d+$/.test(tailText))) {
    fail('bad-request', `tail must be an integer from 0 to ${LOG_TAIL_MAX}, not "${tailText}".`);
  }
  const sinceText = q.get('since');
  const since = sinceText === null ? undefined : Date.parse(sinceText);
  if (since !== undefined && (Number.isNaN(since) || !/^\d{4}-\d\d-\d\dT/.test(sinceText!))) fail('bad-request', `since must be an RFC 3339 date-time, not "${sinceText}".`);
  return {
    ...(source === null ? {} : { source: source as LogSource }),
    fromMs: since ?? Number.NEGATIVE_INFINITY,
    limit: since === undefined ? tail : LOG_TAIL_MAX,
    newest: since === undefined,
  };
}

/** The server-sent events of a pod's log lines (the pod already found for the caller). */
export function podLogs(ctx: Ctx, pod: PodRecord): Reply {
  const window = windowOf(ctx);
  let lines = podLogLines(pod, ctx.world.clock.now(), window).filter((l) => l.at >= window.fromMs && (window.source === undefined || l.source === window.source));
  lines = window.newest ? (window.limit === 0 ? [] : lines.slice(-window.limit)) : lines.slice(0, window.limit);
  const text = lines.map((l, i) => {
    const ts = new Date(l.at).toISOString();
    return `id: ${ts}/${i}\ndata: ${JSON.stringify({ source: l.source, line: l.line, ts })}\n\n`;
  }).join('');
  return { status: 200, contentType: 'text/event-stream', text, headers: { 'Cache-Control': 'no-cache' } };
}
