/**
 * A worker thread's life, after the script's init context has run: the controller reports the
 * options and metrics, then runs setup, teardown and handleSummary on command; a VU waits for
 * its scenario and runs iterations by its executor's rule until done, deadline or abort.
 */
import { readFileSync } from 'node:fs';
import { resolve } from 'node:path';
import { parentPort } from 'node:worker_threads';
import type { ErrorInfo, ToWorker } from '../protocol.js';
import { SHARED_COUNTERS } from '../protocol.js';
import { aborting, baseTags, blockFor, claimSharedIteration, ctx, emit, flush, flushSoon, post } from './context.js';
import { AbortedError, K6ScriptError } from '../../../lib/errors.js';

type Fn = (data?: unknown) => unknown;
const g = globalThis as Record<string, unknown>;

// k6's globals: the environment, VU and iteration numbers, and open() for the init context.
g.__ENV = { ...ctx.env };
g.__VU = ctx.role === 'vu' ? ctx.vuId : 0;
g.__ITER = 0;
g.open = (path: string, mode?: string): string | ArrayBuffer => {
  if (ctx.phase !== 'init') throw new K6ScriptError('open() is only available in the init context');
  const bytes = readFileSync(resolve(ctx.scriptDir, path));
  return mode === 'b' ? bytes.buffer.slice(bytes.byteOffset, bytes.byteOffset + bytes.byteLength) : bytes.toString('utf8');
};
for (const level of ['log', 'info', 'warn', 'error', 'debug'] as const) {
  console[level] = (...args: unknown[]) => post({
    type: 'log', level: level === 'log' ? 'info' : level,
    message: args.map((a) => (typeof a === 'string' ? a : a instanceof Error ? a.message : JSON.stringify(a))).join(' '),
  });
}

const errorInfo = (e: unknown): ErrorInfo => (e instanceof Error ? { message: e.message, ...(e.stack ? { stack: e.stack } : {}) } : { message: String(e) });
const parseData = (data: string | undefined): unknown => (data === undefined ? undefined : JSON.parse(data));

function runPhase(phase: 'setup' | 'teardown' | 'summary', fn: Fn | undefined, arg: unknown): void {
  ctx.phase = phase;
  ctx.group = phase === 'summary' ? '' : `::${phase}`;
  try {
    const result = fn ? fn(arg) : undefined;
    flush();
    post({ type: 'done', phase, result: phase === 'setup' ? (result === undefined ? undefined : JSON.stringify(result)) : result });
  } catch (e) {
    flush();
    post({ type: 'done', phase, error: errorInfo(e) });
  }
}

function iterate(fn: Fn, data: unknown): void {
  g.__ITER = ctx.iterationInScenario;
  const start = performance.now();
  ctx.group = '';
  try {
    fn(data);
  } catch (e) {
    if (e instanceof AbortedError) throw e;
    const info = errorInfo(e);
    post({ type: 'log', level: 'error', message: `${info.stack ?? info.message}` });
  } finally {
    ctx.group = '';
  }
  emit('iteration_duration', performance.now() - start, baseTags());
  emit('iterations', 1, baseTags());
  flushSoon();
}

function runScenario(fn: Fn, msg: Extract<ToWorker, { type: 'run' }>): void {
  const { scenario } = msg;
  ctx.phase = 'vu';
  ctx.scenario = scenario;
  ctx.batch = msg.batch;
  ctx.batchPerHost = msg.batchPerHost;
  g.__ENV = { ...ctx.env, ...scenario.env };
  blockFor(msg.startAt - Date.now());
  ctx.scenarioStartTime = msg.startAt;
  const deadline = msg.startAt + scenario.durationMs;
  const data = parseData(msg.setupData);
  for (let own = 0; !aborting() && Date.now() < deadline; own++) {
    let claimed = own;
    if (scenario.executor === 'shared-iterations') {
      claimed = claimSharedIteration(SHARED_COUNTERS + msg.scenarioIndex);
      if (claimed >= scenario.iterations) break;
    } else if (scenario.executor === 'per-vu-iterations' && own >= scenario.iterations) break;
    ctx.iterationInScenario = own;
    ctx.iterationInTest = claimed;
    iterate(fn, data);
    ctx.iterationInInstance++;
  }
}

/** Called by the bundle's entry once the script module (its init context) has evaluated. */
export function start(script: Record<string, unknown>): void {
  const fnOf = (name: string): Fn | undefined => (typeof script[name] === 'function' ? (script[name] as Fn) : undefined);
  ctx.phase = ctx.role === 'controller' ? 'setup' : 'vu';
  if (ctx.role === 'controller') {
    post({
      type: 'init', options: script.options as Record<string, unknown> | undefined, metrics: [...ctx.metrics.values()],
      exports: Object.keys(script).filter((k) => typeof script[k] === 'function'),
    });
  } else post({ type: 'ready' });
  parentPort!.on('message', (msg: ToWorker) => {
    if (msg.type === 'setup') runPhase('setup', fnOf('setup'), undefined);
    else if (msg.type === 'teardown') runPhase('teardown', fnOf('teardown'), parseData(msg.data));
    else if (msg.type === 'summary') runPhase('summary', fnOf('handleSummary'), msg.data);
    else if (msg.type === 'run') {
      try {
        runScenario(fnOf(msg.scenario.exec)!, msg);
      } catch (e) {
        if (!(e instanceof AbortedError)) post({ type: 'log', level: 'error', message: errorInfo(e).message });
      }
      flush();
      post({ type: 'done', phase: 'run' });
    }
  });
}
