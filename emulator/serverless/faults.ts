import type { FaultDef } from '../faults.js';

/** Faults of the serverless surface (see emulator/faults.ts). */
export const serverlessFaults = {
} as const satisfies Record<string, FaultDef>;
