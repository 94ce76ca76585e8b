/**
 * One worker thread's view of the run: which VU it is, what phase and scenario it is in, the
 * metric samples it has not sent yet, and the blocking primitives (HTTP bridge, sleep) that
 * make k6's synchronous API possible on Node. Bundled into the script, never imported by the
 * main thread.
 */
import { parentPort, receiveMessageOnPort, workerData } from 'node:worker_threads';
import { ABORT, type FromWorker, type HttpCall, type WireResponse, type WorkerSetup } from '../protocol.js';
import type { MetricDef, Sample } from '../metrics-engine.js';
import type { Scenario } from '../options.js';
import { AbortedError, InternalError } from '../../../lib/errors.js';

export type Phase = 'init' | 'setup' | 'vu' | 'teardown' | 'summary';

const setup = workerData as WorkerSetup;
const control = new Int32Array(setup.control);
const signal = new Int32Array(setup.signal);

export const ctx = {
  role: setup.role,
  vuId: setup.vuId,
  env: setup.env,
  scriptDir: setup.scriptDir,
  phase: 'init' as Phase,
  scenario: undefined as Scenario | undefined,
  scenarioStartTime: 0,
  iterationInScenario: 0,
  /** The iteration's number across all VUs of the scenario (shared-iterations: the index claimed). */
  iterationInTest: 0,
  iterationInInstance: 0,
  /** Current group path: '' at the root, `::a::b` inside groups. */
  group: '',
  batch: 20,
  batchPerHost: 6,
  responseCallback: undefined as ((status: number) => boolean) | undefined,
  metrics: new Map<string, MetricDef>(),
};

let pending: Sample[] = [];
let lastFlush = Date.now();
/** How often samples reach the main thread at most (k6 evaluates thresholds every 2 s). */
const FLUSH_MS = 200;

export function post(message: FromWorker): void {
  parentPort!.postMessage(message);
}

/** Tags every sample of the current phase carries (k6's `scenario` and `group`). */
export function baseTags(): Record<string, string> {
  const tags: Record<string, string> = { group: ctx.group };
  if (ctx.scenario) Object.assign(tags, ctx.scenario.tags, { scenario: ctx.scenario.name });
  return tags;
}

export function emit(metric: string, value: number, tags: Record<string, string>): void {
  pending.push({ metric, value, tags });
  if (pending.length >= 2000) flush();
}

export function flush(): void {
  lastFlush = Date.now();
  if (pending.length === 0) return;
  post({ type: 'samples', samples: pending });
  pending = [];
}

/** Sends the samples if the last send is older than {@link FLUSH_MS}: cheap enough to call after every iteration. */
export function flushSoon(): void {
  if (Date.now() - lastFlush >= FLUSH_MS) flush();
}

export function aborting(): boolean {
  return Atomics.load(control, ABORT) !== 0;
}

export function throwIfAborting(): void {
  if (aborting()) throw new AbortedError('the test run is aborting');
}

/** Blocks for `ms` (k6's `sleep`), waking early when the run aborts. */
export function blockFor(ms: number): void {
  if (ms >= FLUSH_MS) flush();
  else flushSoon();
  if (ms > 0) Atomics.wait(control, ABORT, 0, ms);
  throwIfAborting();
}

let callId = 0;

/**
 * Sends requests to the main thread and blocks until their responses arrive. The main thread
 * posts the answer, then stores the call's id in the signal and wakes this thread; the answer
 * can become readable a moment after the wake-up, so an empty read waits a millisecond and
 * reads again.
 */
export function httpCall(call: HttpCall): WireResponse[] {
  flushSoon();
  throwIfAborting();
  const id = ++callId;
  setup.port.postMessage({ id, call });
  for (let seen = Atomics.load(signal, 0); seen !== id; seen = Atomics.load(signal, 0)) Atomics.wait(signal, 0, seen);
  for (;;) {
    const reply = receiveMessageOnPort(setup.port)?.message as { id: number; responses: WireResponse[] } | undefined;
    if (reply?.id === id) return reply.responses;
    if (reply) throw new InternalError(`k6node: the HTTP bridge answered call ${reply.id} while call ${id} waited`);
    Atomics.wait(signal, 0, id, 1);
  }
}

/** Run-wide iteration counter of a shared-iterations scenario: the index claimed. */
export function claimSharedIteration(index: number): number {
  return Atomics.add(control, index, 1);
}
