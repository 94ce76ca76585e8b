import type { FaultDef } from '../faults.js';

/** Faults of the pods surface (see emulator/faults.ts). */
export const podFaults = {
} as const satisfies Record<string, FaultDef>;
