import type { PodAction, PodStatus } from '../../lib/types.gen.js';
import type { PodRecord } from './pod-record.js';

/**
 * A pod's life on the world's virtual clock (spec, States and transitions):
 * `PROVISIONING` -> `STARTING` -> `RUNNING`. The status is settled lazily from the virtual
 * time whenever the pod is read, so no timer is needed per pod and the result is the same
 * whether the clock moves in steps (manual mode) or with real time (auto mode).
 */

/** Virtual time a pod spends allocating a machine (emulator's choice; the spec gives none). */
export const PROVISIONING_MS = 5_000;
/** Virtual time the container takes to become healthy. */
export const STARTING_MS = 10_000;

/**
 * Valid actions by status, as the live platform publishes them (platform-notes). The spec
 * only says `actions` lists the "valid state transitions for the current status".
 */
export const ACTIONS_BY_STATUS: Readonly<Record<PodStatus, readonly PodAction[]>> = {
  PROVISIONING: ['stop', 'terminate'],
  STARTING: ['stop', 'terminate'],
  RUNNING: ['stop', 'restart', 'terminate'],
  EXITED: ['start', 'terminate'],
  ERROR: ['start', 'terminate'],
  TERMINATED: [],
};

/** Actions that a lock forbids (spec: "A locked pod cannot be stopped or reset."). */
export const LOCK_FORBIDS: readonly PodAction[] = ['stop', 'restart'];

/**
 * What the pod may do now; a locked pod lists neither `stop` nor `restart`, unless
 * `byStatusOnly` (the variant `pods.locked-lists-actions`: actions by status only, as the live
 * platform publishes them).
 */
export function availableActions(pod: PodRecord, byStatusOnly = false): PodAction[] {
  const all = ACTIONS_BY_STATUS[pod.status];
  return pod.locked && !byStatusOnly ? all.filter((a) => !LOCK_FORBIDS.includes(a)) : [...all];
}

/** Statuses in which the pod is billed (cost is 0.0 otherwise; spec: 0.0 when EXITED or TERMINATED). */
export const BILLED: ReadonlySet<PodStatus> = new Set(['PROVISIONING', 'STARTING', 'RUNNING']);

/** Time a pod of a world with legal chaos spends provisioning and starting beyond the emulator's own (emulator/chaos/). */
const EXTRA_TIMES = new WeakMap<PodRecord, { provisioningMs: number; startingMs: number }>();

export function setPodTimes(pod: PodRecord, extra: { provisioningMs: number; startingMs: number }): void {
  EXTRA_TIMES.set(pod, extra);
}

/**
 * Moves the pod along its automatic transitions up to `now`. `stuckInStarting` is the fault
 * that keeps a pod from ever becoming healthy.
 */
export function settle(pod: PodRecord, now: number, stuckInStarting = false): void {
  for (;;) {
    const provisioningMs = pod.status === 'PROVISIONING' ? PROVISIONING_MS + (EXTRA_TIMES.get(pod)?.provisioningMs ?? 0) : 0;
    const startingMs = pod.status === 'STARTING' ? STARTING_MS + (EXTRA_TIMES.get(pod)?.startingMs ?? 0) : 0;
    if (pod.status === 'PROVISIONING' && now >= pod.statusSince + provisioningMs) {
      pod.status = 'STARTING';
      pod.statusSince += provisioningMs;
    } else if (pod.status === 'STARTING' && !stuckInStarting && now >= pod.statusSince + startingMs) {
      pod.status = 'RUNNING';
      pod.statusSince += startingMs;
      pod.startedAt = pod.statusSince;
    } else {
      return;
    }
  }
}

/** The effect of an accepted action (its validity is checked by the caller). */
export function applyAction(pod: PodRecord, action: Exclude<PodAction, 'terminate'>, now: number): void {
  switch (action) {
    case 'stop':
      pod.status = 'EXITED';
      break;
    case 'start':
      // A stopped pod needs a machine again, so it goes through provisioning.
      pod.status = 'PROVISIONING';
      break;
    case 'restart':
      // The container restarts on the same machine: it is STARTING until healthy again.
      pod.status = 'STARTING';
      break;
  }
  pod.statusSince = now;
}
