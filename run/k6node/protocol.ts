/**
 * Messages between the Node path's main thread and its worker threads (one per VU, plus a
 * controller for init, setup, teardown and handleSummary). HTTP is synchronous in k6, so a
 * worker posts its requests on a MessagePort and blocks on a SharedArrayBuffer until the main
 * thread, which does the I/O with undici, has posted the answer back.
 */
import type { MessagePort } from 'node:worker_threads';
import type { MetricDef, Sample } from './metrics-engine.js';
import type { Scenario } from './options.js';

export interface WireRequest {
  method: string;
  url: string;
  headers: Record<string, string>;
  body: string | Uint8Array | null;
  timeoutMs: number;
  responseType: 'text' | 'binary' | 'none';
  redirects: number;
}

export interface WireTimings { blocked: number; connecting: number; tls_handshaking: number; sending: number; waiting: number; receiving: number; duration: number }

export interface WireResponse {
  status: number;
  statusText: string;
  /** Header names in Go's canonical form (`Ratelimit-Policy`), repeated values joined with ", ", as k6 shows them. */
  headers: Record<string, string>;
  body: string | ArrayBuffer | null;
  url: string;
  error: string;
  errorCode: number;
  timings: WireTimings;
  bytesSent: number;
  bytesReceived: number;
}

export interface HttpCall { requests: WireRequest[]; batch: number; batchPerHost: number }

/** Index of the run-wide abort flag in the control buffer (0: running, 1: aborting). */
export const ABORT = 0;
/** First index of the shared iteration counters, one per scenario. */
export const SHARED_COUNTERS = 1;

export interface WorkerSetup {
  role: 'controller' | 'vu';
  vuId: number;
  env: Record<string, string>;
  scriptDir: string;
  /** Run-wide flags and counters (Int32). */
  control: SharedArrayBuffer;
  /** This worker's HTTP wake-up signal (Int32[1]). */
  signal: SharedArrayBuffer;
  port: MessagePort;
}

export interface ErrorInfo { message: string; stack?: string }

export type ToWorker =
  | { type: 'setup' }
  | { type: 'teardown'; data: string | undefined }
  | { type: 'summary'; data: unknown }
  | { type: 'run'; scenario: Scenario; scenarioIndex: number; startAt: number; setupData: string | undefined; batch: number; batchPerHost: number };

export type FromWorker =
  | { type: 'init'; options: Record<string, unknown> | undefined; metrics: MetricDef[]; exports: string[] }
  | { type: 'ready' }
  | { type: 'metric'; def: MetricDef }
  | { type: 'samples'; samples: Sample[] }
  | { type: 'log'; level: 'debug' | 'info' | 'warn' | 'error'; message: string }
  | { type: 'abort'; reason: string }
  | { type: 'done'; phase: 'setup' | 'teardown' | 'summary' | 'run'; result?: unknown; error?: ErrorInfo };
