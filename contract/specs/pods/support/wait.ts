import { test } from '@playwright/test';
import type { ApiClient, ApiResult } from '../../../../lib/client/api.js';
import type { Pod } from '../../../../lib/types.gen.js';
import type { Emu } from '../../../support/fixtures.js';
import { runConfig } from '../../../../lib/run-config.js';
import { blocked } from '../../../support/rules.js';

/**
 * Readiness polling (spec: "clients observe readiness by reading the pod (operation `getPod`)
 * until `status` is `RUNNING`"). On the emulator the test moves the virtual clock between
 * reads; on a real target it waits for real, at most `CPC_POD_READY_TIMEOUT_MS` (default 10
 * minutes), first after `CPC_POD_POLL_MS` (default 5 s), then doubling up to 4x that. Both are bounded.
 */
export interface WaitOptions {
  /** Virtual milliseconds between reads on the emulator (default 1 s). */
  stepMs?: number;
  /** Longest wait, virtual on the emulator, real elsewhere. */
  maxMs?: number;
}

export interface WaitResult {
  /** The last pod read (whatever its status). */
  pod: Pod;
  /** Every status read, in order, one per getPod. */
  seen: string[];
  /** Every getPod answer, for evidence. */
  answers: ApiResult<Pod>[];
  reached: boolean;
  /** Time waited: virtual on the emulator, real elsewhere. */
  waitedMs: number;
}

/** The target profile's readiness bound and first poll interval (lib/profile.ts); later polls back off to 4x. */
export const READY_TIMEOUT_MS = runConfig().profile.readyTimeoutMs;
const POLL_MS = runConfig().profile.pollMs;
/** The longest virtual wait for readiness on the emulator: a pod not RUNNING by then fails readiness. */
export const EMULATED_READY_BOUND_MS = 10 * 60_000;
/** Server errors in a row (5xx) after which a wait stops, blocked. */
const SERVER_ERRORS_BLOCK = 3;

export async function waitForStatus(api: ApiClient, emu: Emu, podId: string, statuses: readonly string[], options: WaitOptions = {}): Promise<WaitResult> {
  const virtual = emu.available;
  const maxMs = options.maxMs ?? (virtual ? EMULATED_READY_BOUND_MS : READY_TIMEOUT_MS);
  let stepMs = virtual ? options.stepMs ?? 1_000 : POLL_MS;
  if (!virtual) test.setTimeout(maxMs + 120_000);
  const seen: string[] = [];
  const answers: ApiResult<Pod>[] = [];
  let waitedMs = 0;
  let serverErrors = 0;
  for (;;) {
    const res = await api.op<Pod>('getPod', { params: { podId } });
    answers.push(res);
    // A server error says nothing of the pod (a gateway that lost its upstream answers 502): the
    // read is asked again, and a target that keeps answering so stops the test, blocked, rather
    // than its rules being judged from an error page.
    if (res.status >= 500) {
      if (++serverErrors >= SERVER_ERRORS_BLOCK) blocked(`getPod answered ${res.status} ${SERVER_ERRORS_BLOCK} times in a row while the test waited for the pod to reach ${statuses.join(' or ')}: ${res.text.slice(0, 160)}`);
      if (virtual) await emu.advance(stepMs);
      else await new Promise((r) => setTimeout(r, 1_000));
      continue;
    }
    serverErrors = 0;
    const ok = res.status >= 200 && res.status < 300;
    const status = ok ? String(res.body?.status) : `HTTP ${res.status}`;
    seen.push(status);
    if (statuses.includes(status) || !ok || waitedMs >= maxMs) {
      return { pod: res.body, seen, answers, reached: statuses.includes(status), waitedMs };
    }
    if (virtual) await emu.advance(stepMs);
    else await new Promise((r) => setTimeout(r, Math.min(stepMs, maxMs - waitedMs)));
    waitedMs += virtual ? stepMs : Math.min(stepMs, maxMs - waitedMs);
    // A real target is polled with backoff (each read costs rate-limit quota): 2x per read, at most 4x the first interval.
    if (!virtual) stepMs = Math.min(stepMs * 2, POLL_MS * 4);
  }
}
