import type { FaultDef } from '../faults.js';

/** Faults of the graphql surface (see emulator/faults.ts). */
export const graphqlFaults = {
} as const satisfies Record<string, FaultDef>;
