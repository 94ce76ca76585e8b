/**
 * The fault catalog: named switches that each break exactly one MUST rule, so the suite can
 * prove it detects the breach (the detection matrix). Each surface keeps its faults beside its
 * code; they are assembled here, at the top, and handed down to each world (`catalog.ts`).
 */
import { coreFaults } from './faults/core.js';
import { podFaults } from './pods/faults.js';
import { serverlessFaults } from './serverless/faults.js';
import { graphqlFaults } from './graphql/faults.js';
import type { FaultDef, FaultId } from './switches.js';

export const faultCatalog = { ...coreFaults, ...podFaults, ...serverlessFaults, ...graphqlFaults } satisfies Record<FaultId, FaultDef>;

export const isFaultId = (id: string): id is FaultId => Object.hasOwn(faultCatalog, id);

/** Every fault id, in catalog order; a table merged here must add its ids to `FaultRegistry` (switches.ts), or this fails to compile. */
export const FAULT_IDS = Object.keys(faultCatalog) as (keyof typeof faultCatalog)[] satisfies readonly FaultId[];
