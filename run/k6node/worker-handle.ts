/**
 * One worker thread seen from the main thread: spawning it on the bundle, answering its HTTP
 * calls through the engine, routing its events, and waiting for a given answer (rejecting if
 * the thread dies first).
 */
import { MessageChannel, Worker } from 'node:worker_threads';
import type { HttpEngine } from './http-engine.js';
import type { FromWorker, HttpCall, ToWorker, WorkerSetup } from './protocol.js';
import { WorkerDiedError, WorkerTimeoutError } from '../../lib/errors.js';

type Waiter = { match: (m: FromWorker) => boolean; resolve: (m: FromWorker) => void; reject: (e: Error) => void };

export class WorkerHandle {
  readonly #worker: Worker;
  readonly #waiters: Waiter[] = [];
  #dead: Error | undefined;
  exited = false;

  constructor(bundle: string, setup: Omit<WorkerSetup, 'port' | 'signal'>, engine: HttpEngine, onEvent: (m: FromWorker, h: WorkerHandle) => void) {
    const { port1, port2 } = new MessageChannel();
    const signal = new SharedArrayBuffer(4);
    const wake = new Int32Array(signal);
    port1.on('message', ({ id, call }: { id: number; call: HttpCall }) => {
      void engine.run(setup.vuId, call).then((responses) => {
        port1.postMessage({ id, responses });
        Atomics.store(wake, 0, id);
        Atomics.notify(wake, 0);
      });
    });
    this.#worker = new Worker(bundle, {
      workerData: { ...setup, signal, port: port2 } satisfies WorkerSetup,
      transferList: [port2], execArgv: ['--enable-source-maps'], stdout: false, stderr: false,
    });
    this.#worker.on('message', (m: FromWorker) => {
      const i = this.#waiters.findIndex((w) => w.match(m));
      if (i !== -1) this.#waiters.splice(i, 1)[0]!.resolve(m);
      onEvent(m, this);
    });
    const die = (e: Error) => {
      this.#dead ??= e;
      for (const w of this.#waiters.splice(0)) w.reject(e);
    };
    this.#worker.on('error', (e) => die(new WorkerDiedError(e instanceof Error ? e.message : String(e), e instanceof Error ? e.stack : undefined)));
    this.#worker.on('exit', (code) => {
      this.exited = true;
      port1.close();
      die(new WorkerDiedError(`the worker exited with code ${code}`));
    });
  }

  send(message: ToWorker): void {
    this.#worker.postMessage(message);
  }

  /** The next message matching `match`; rejects when the worker dies first (or `timeoutMs` passes). */
  next<T extends FromWorker>(match: (m: FromWorker) => m is T, timeoutMs?: number): Promise<T> {
    if (this.#dead) return Promise.reject(this.#dead);
    return new Promise<T>((resolve, reject) => {
      let timer: NodeJS.Timeout | undefined;
      const waiter: Waiter = {
        match,
        resolve: (m) => { if (timer) clearTimeout(timer); resolve(m as T); },
        reject: (e) => { if (timer) clearTimeout(timer); reject(e); },
      };
      this.#waiters.push(waiter);
      if (timeoutMs !== undefined) {
        timer = setTimeout(() => {
          this.#waiters.splice(this.#waiters.indexOf(waiter), 1);
          reject(new WorkerTimeoutError(timeoutMs));
        }, timeoutMs);
      }
    });
  }

  async terminate(): Promise<void> {
    if (!this.exited) await this.#worker.terminate();
  }
}

export const isType = <K extends FromWorker['type']>(type: K) => (m: FromWorker): m is Extract<FromWorker, { type: K }> => m.type === type;
export const isDone = (phase: string) => (m: FromWorker): m is Extract<FromWorker, { type: 'done' }> => m.type === 'done' && m.phase === phase;
