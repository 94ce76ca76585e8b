/**
 * The fault catalog: named switches that each break exactly one MUST rule, so the suite can
 * prove it detects the breach (test/detection). Each surface keeps its faults beside its code.
 */
import { coreFaults } from './faults/core.js';
import { podFaults } from './pods/faults.js';
import { serverlessFaults } from './serverless/faults.js';
import { graphqlFaults } from './graphql/faults.js';

export interface FaultDef {
  /** The rule this fault breaks; the detection matrix expects the suite to fail it. */
  rule: string;
  description: string;
}

export const faultCatalog = { ...coreFaults, ...podFaults, ...serverlessFaults, ...graphqlFaults };

export type FaultId = keyof typeof faultCatalog;

export const isFaultId = (id: string): id is FaultId => Object.hasOwn(faultCatalog, id);
