import { statSync } from 'node:fs';
import type { RunConfig } from '../lib/protocol.js';
import { exitOf } from './child.js';
import { spawnPlaywright } from './playwright.js';

export interface Watch {
  /** Probed while the run lasts; any HTTP answer counts as alive. */
  url: string;
  everyMs: number;
  /** Consecutive failed probes that mean the target stopped answering. */
  failures: number;
  /**
   * A file the run appends to as its requests go out (the run's request count): while it grew
   * within the last interval the run is talking to the target, and no probe is sent (each probe
   * is a request against the target's rate limit).
   */
  activity?: string;
}

export interface SupervisedRun {
  code: number;
  /** The signal that reached this process (forwarded to Playwright). */
  interruptedBy?: NodeJS.Signals;
  /** Why the watchdog stopped the run: the target stopped answering. */
  targetLost?: string;
}

function grewWithin(file: string, ms: number): boolean {
  try { return Date.now() - statSync(file).mtimeMs < ms; } catch { return false; }
}

/** Any HTTP answer within the time limit: undefined; otherwise why not. */
export async function probe(url: string, timeoutMs: number): Promise<string | undefined> {
  // Loaded here: only a deployment is probed, and the embedded run starts Playwright sooner without it.
  const { request } = await import('undici');
  try {
    const res = await request(url, { method: 'GET', signal: AbortSignal.timeout(timeoutMs) });
    await res.body.dump();
    return undefined;
  } catch (e) {
    return (e as Error).message;
  }
}

/**
 * Runs `playwright test` (run/playwright.ts) with the run's configuration, in its own
 * process group, so a terminal's Ctrl-C reaches this process alone and is forwarded exactly once
 * (a second one stops Playwright hard). The raw reporter keeps every result reached; the caller
 * builds the report from it. With `watch`, a target that stops answering stops the run too, and
 * the run says so. Every command that runs the suites (conformance, detect, the variant matrix)
 * runs it through here.
 */
export async function runSupervised(args: readonly string[], config: RunConfig, watch?: Watch): Promise<SupervisedRun> {
  const outcome: Omit<SupervisedRun, 'code'> = {};
  const child = spawnPlaywright(args, config, { stdio: ['ignore', 'inherit', 'inherit'], detached: true });
  let stops = 0;
  const stop = () => {
    stops++;
    process.stderr.write(stops === 1 ? 'cpc: stopping the test runner; the report keeps every result reached\n' : 'cpc: stopping the test runner now\n');
    try {
      process.kill(-child.pid!, stops === 1 ? 'SIGINT' : 'SIGKILL');
    } catch { /* already gone */ }
  };
  const onSignal = (signal: NodeJS.Signals) => {
    outcome.interruptedBy ??= signal;
    stop();
  };
  const onExit = () => { try { process.kill(-child.pid!, 'SIGKILL'); } catch { /* gone */ } };
  process.on('SIGINT', onSignal);
  process.on('SIGTERM', onSignal);
  process.on('exit', onExit);
  let misses = 0;
  let probing = false;
  const timer = watch && setInterval(() => {
    if (probing || outcome.targetLost || outcome.interruptedBy) return;
    if (watch.activity && grewWithin(watch.activity, watch.everyMs)) { misses = 0; return; }
    probing = true;
    // A slow answer is still an answer: only a refused, failed or very late probe counts as a miss.
    void probe(watch.url, Math.max(watch.everyMs, 5_000)).then((why) => {
      probing = false;
      misses = why ? misses + 1 : 0;
      if (why && misses >= watch.failures && !outcome.targetLost && !outcome.interruptedBy) {
        outcome.targetLost = `the target stopped answering ${watch.url} (${why})`;
        stop();
        setTimeout(() => { if (child.exitCode === null && child.signalCode === null) stop(); }, 15_000).unref();
      }
    });
  }, watch.everyMs);
  const code = await exitOf(child);
  if (timer) clearInterval(timer);
  process.off('SIGINT', onSignal);
  process.off('SIGTERM', onSignal);
  process.off('exit', onExit);
  return { code, ...outcome };
}
