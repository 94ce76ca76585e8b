/**
 * Run counts of the pod properties: 200 by default (`CPC_PROPERTY_RUNS` changes it). Against a
 * real target, creating that many pods costs money, so the valid-creation property asks for an
 * explicit opt-in there.
 */
export const propertyRuns = (): number => Number(process.env.CPC_PROPERTY_RUNS ?? 200);

export const POD_CREATION_OPT_IN = 'CPC_ALLOW_POD_CREATION_AT_SCALE';
