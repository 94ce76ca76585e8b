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

/**
 * Moves the pod along its automatic transitions up to `now`. `stuckInStarting` is the fault
 * that keeps a pod from ever becoming healthy.
 */
export function settle(pod: PodRecord, now: number, stuckInStarting = false): void {
  for (;;) {
    if (pod.status === 'PROVISIONING' && now >= pod.statusSince + PROVISIONING_MS) {
      pod.status = 'STARTING';
      pod.statusSince += PROVISIONING_MS;
    } else if (pod.status === 'STARTING' && !stuckInStarting && now >= pod.statusSince + STARTING_MS) {
      pod.status = 'RUNNING';
      pod.statusSince += STARTING_MS;
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
