import fc from 'fast-check';
import { advanceClockCommand } from './advance-clock.js';
import { createPodCommand } from './create-pod.js';
import { getPodCommand } from './get-pod.js';
import { lockPodCommand } from './lock-pod.js';
import { patchMountsCommand } from './patch-mounts.js';
import { podActionCommand } from './pod-action.js';
import type { PodModel, PodReal } from './model.js';

/**
 * The model-based property of a pod's life: any sequence of creations, mount PATCHes, locks,
 * actions, reads and clock moves keeps the target in agreement with the model of the spec's
 * rules. A divergence shrinks to the shortest command sequence that shows it.
 */
export function podLifecycleProperty(real: () => Promise<PodReal>, maxCommands = 10) {
  return fc.asyncProperty(
    fc.commands([createPodCommand(), getPodCommand(), patchMountsCommand(), lockPodCommand(), podActionCommand(), advanceClockCommand()], { maxCommands }),
    async (cmds) => {
      const r = await real();
      await fc.asyncModelRun(() => ({ model: { pods: [], clock: 0 } as PodModel, real: r }), cmds);
    },
  );
}
