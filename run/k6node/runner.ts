/**
 * `runK6ScriptOnNode`: runs a k6 script on Node, with k6's life cycle (init, setup, scenarios,
 * teardown, handleSummary), its thresholds and its exit codes. One worker thread per VU plus a
 * controller thread; the main thread does the HTTP I/O and keeps the metrics.
 */
import { rmSync } from 'node:fs';
import { dirname, resolve } from 'node:path';
import { bundleScript } from './bundle.js';
import { parseDuration } from './duration.js';
import { EXIT, type ExitCode } from './exit-codes.js';
import { K6RunError, WorkerTimeoutError } from '../../lib/errors.js';
import { HttpEngine } from './http-engine.js';
import { BUILTIN_METRICS, MetricsEngine } from './metrics-engine.js';
import { normaliseOptions, type RunOptions } from './options.js';
import { ABORT, SHARED_COUNTERS, type FromWorker } from './protocol.js';
import { CheckTree, summaryData } from './summary-data.js';
import { writeSummaryOutputs, defaultSummaryText } from './summary-output.js';
import { isDone, isType, WorkerHandle } from './worker-handle.js';

export interface RunScriptOptions {
  script: string;
  /** Added to `__ENV` (k6's `-e NAME=value`). */
  env?: Record<string, string>;
  /** Include the process environment in `__ENV`, as k6 does by default. */
  includeSystemEnv?: boolean;
  /** Where `handleSummary` file paths are relative to (k6: its working directory). */
  cwd?: string;
  /** Where the run's own output goes (default: the process's stdout and stderr). */
  out?: (text: string) => void;
  err?: (text: string) => void;
}

export interface RunScriptResult {
  exitCode: number;
  /** Threshold sub-metrics or metrics that failed at the end. */
  breached: string[];
  durationMs: number;
  /** The data handleSummary received (absent when the run stopped before it). */
  summaryData?: Record<string, unknown>;
  /** Files handleSummary wrote. */
  files: string[];
  /** Why the run failed, when not by thresholds. */
  error?: string;
}

const LEVELS = { debug: 'DEBU', info: 'INFO', warn: 'WARN', error: 'ERRO' } as const;

export async function runK6ScriptOnNode(options: RunScriptOptions): Promise<RunScriptResult> {
  const out = options.out ?? ((t: string) => void process.stdout.write(t));
  const err = options.err ?? ((t: string) => void process.stderr.write(t));
  const started = Date.now();
  const stamp = () => String(Math.floor((Date.now() - started) / 1000)).padStart(4, '0');
  const log = (level: keyof typeof LEVELS, message: string) => err(`${LEVELS[level]}[${stamp()}] ${message}\n`);
  const fail = (e: unknown): RunScriptResult => {
    const exitCode = e instanceof K6RunError ? e.exitCode : EXIT.scriptException;
    const message = e instanceof Error ? e.message : String(e);
    log('error', message);
    return { exitCode, breached: [], durationMs: Date.now() - started, files: [], error: message };
  };

  let bundle: string;
  try { bundle = await bundleScript(options.script); } catch (e) { return fail(e); }
  // K6NODE=1 lets a script (its summary) say which runner ran it; k6 never sets it.
  const env = { ...(options.includeSystemEnv === false ? {} : (process.env as Record<string, string>)), ...options.env, K6NODE: '1' };
  const control = new SharedArrayBuffer(4 * (SHARED_COUNTERS + 64));
  const flags = new Int32Array(control);
  const engine = new HttpEngine();
  const checks = new CheckTree();
  let metrics: MetricsEngine | undefined;
  let abortReason: string | undefined;
  const abort = (reason: string, exitCode: ExitCode) => {
    if (abortReason !== undefined) return;
    abortReason = reason;
    runError ??= new K6RunError(exitCode, reason);
    Atomics.store(flags, ABORT, 1);
    Atomics.notify(flags, ABORT);
  };
  let runError: K6RunError | undefined;
  const onEvent = (m: FromWorker) => {
    if (m.type === 'samples') { metrics?.ingest(m.samples); checks.ingest(m.samples); }
    else if (m.type === 'metric') metrics?.define(m.def);
    else if (m.type === 'log') log(m.level, m.level === 'error' ? m.message : `${m.message}  source=console`);
    else if (m.type === 'abort') abort(m.reason, EXIT.scriptAborted);
  };
  const setupBase = { env, scriptDir: dirname(resolve(options.script)), control };
  const handles: WorkerHandle[] = [];
  const spawn = (role: 'controller' | 'vu', vuId: number) => {
    const h = new WorkerHandle(bundle, { ...setupBase, role, vuId }, engine, onEvent);
    handles.push(h);
    return h;
  };

  try {
    const controller = spawn('controller', 0);
    const init = await controller.next(isType('init')).catch((e: Error) => { throw new K6RunError(EXIT.scriptException, e.message); });
    const run: RunOptions = normaliseOptions(init.options, init.exports);
    metrics = new MetricsEngine([...BUILTIN_METRICS, ...init.metrics], run.thresholds, parseDuration, (m) => log('error', m));
    if (run.scenarios.length > 64) throw new K6RunError(EXIT.invalidConfig, 'the Node path runs at most 64 scenarios');

    let vuId = 0;
    const vus = run.scenarios.flatMap((s, index) => Array.from({ length: s.vus }, () => ({ scenario: s, index, handle: spawn('vu', ++vuId) })));
    await Promise.all(vus.map((v) => v.handle.next(isType('ready')))).catch((e: Error) => { throw new K6RunError(EXIT.scriptException, e.message); });
    metrics.ingest([{ metric: 'vus_max', value: vus.length, tags: {} }]);

    controller.send({ type: 'setup' });
    const setupDone = await controller.next(isDone('setup'), run.setupTimeoutMs).catch((e: Error) => {
      throw e instanceof WorkerTimeoutError ? new K6RunError(EXIT.setupTimeout, `setup() execution timed out after ${run.setupTimeoutMs / 1000} seconds`) : new K6RunError(EXIT.scriptException, e.message);
    });
    if (setupDone.error) throw abortReason !== undefined ? runError! : new K6RunError(EXIT.scriptException, setupDone.error.stack ?? setupDone.error.message);
    const setupData = setupDone.result as string | undefined;

    const t0 = Date.now() + 20;
    metrics.ingest([{ metric: 'vus', value: vus.length, tags: {} }]);
    const ticker = setInterval(() => {
      const { breached, abort: shouldAbort } = metrics!.evaluate(Date.now() - started, false);
      if (shouldAbort) abort(`thresholds on metrics '${breached.join(', ')}' were breached; at least one has abortOnFail enabled, stopping test prematurely`, EXIT.thresholdsFailed);
    }, 2000);
    await Promise.all(vus.map(async ({ scenario, index, handle }) => {
      const startAt = t0 + scenario.startTimeMs;
      handle.send({ type: 'run', scenario, scenarioIndex: index, startAt, setupData, batch: run.batch, batchPerHost: run.batchPerHost });
      const hardStop = startAt + scenario.durationMs + scenario.gracefulStopMs - Date.now();
      const done = handle.next(isDone('run')).then(() => undefined, () => undefined);
      let timer: NodeJS.Timeout | undefined;
      const stop = new Promise<void>((r) => { timer = setTimeout(r, Math.max(0, hardStop)); });
      const aborted = new Promise<void>((r) => { const t = setInterval(() => { if (abortReason !== undefined) { clearInterval(t); setTimeout(r, 2000); } }, 50); void done.then(() => { clearInterval(t); }); });
      await Promise.race([done, stop, aborted]);
      clearTimeout(timer);
      await handle.terminate();
    }));
    clearInterval(ticker);
    metrics.ingest([{ metric: 'vus', value: 0, tags: {} }]);

    controller.send({ type: 'teardown', data: setupData });
    const teardownDone = await controller.next(isDone('teardown'), run.teardownTimeoutMs).catch((e: Error) => {
      throw e instanceof WorkerTimeoutError ? new K6RunError(EXIT.teardownTimeout, `teardown() execution timed out after ${run.teardownTimeoutMs / 1000} seconds`) : e;
    });
    if (teardownDone.error) runError ??= new K6RunError(EXIT.scriptException, teardownDone.error.stack ?? teardownDone.error.message);

    const durationMs = Date.now() - started;
    const { breached } = metrics.evaluate(durationMs, true);
    if (breached.length > 0) runError ??= new K6RunError(EXIT.thresholdsFailed, `thresholds on metrics '${breached.join(', ')}' have been crossed`);
    const data = summaryData({ metrics: metrics.summary(durationMs, run.summaryTrendStats), checks, trendStats: run.summaryTrendStats, durationMs, setupData });
    let files: string[] = [];
    if (init.exports.includes('handleSummary')) {
      controller.send({ type: 'summary', data });
      const summaryDone = await controller.next(isDone('summary'));
      if (summaryDone.error) log('error', `failed to handle the end-of-test summary: ${summaryDone.error.message}`);
      else {
        const written = writeSummaryOutputs(summaryDone.result, options.cwd ?? process.cwd(), out, err);
        files = written.files;
        if (written.errors.length) log('error', `failed to handle the end-of-test summary: Could not save some summary information: ${written.errors.join('; ')}`);
      }
    } else out(defaultSummaryText(data));
    if (runError) log('error', runError.message);
    return { exitCode: runError?.exitCode ?? EXIT.ok, breached, durationMs, summaryData: data, files, ...(runError && runError.exitCode !== EXIT.thresholdsFailed ? { error: runError.message } : {}) };
  } catch (e) {
    return fail(e);
  } finally {
    await Promise.all(handles.map((h) => h.terminate().catch(() => undefined)));
    await engine.close();
    rmSync(dirname(bundle), { recursive: true, force: true });
  }
}
