/**
 * What the suite creates on a target, and its deletion before the run ends.
 *
 * Every exchange of a test's client is watched (cleanup/watch.ts): a successful creation is
 * recorded, a successful deletion crosses it off, whoever sends it. Records go to a run-wide
 * file (cleanup/registry.ts, one JSON line each, appended by every worker), so that after the
 * last test, also after a failure or an interruption, the global teardown deletes what is still
 * there (cleanup/sweep.ts) and lists what it could not delete in `leftovers.json` beside the
 * report (cleanup/leftovers.ts). Last it looks: what the account still lists under the run's
 * names is a leftover whatever the record says (cleanup/account.ts).
 */
export type { Resource } from './protocol.js';
export { uniqueNameFactory, type UniqueName } from './cleanup/names.js';
export { Registry, sortForDeletion } from './cleanup/registry.js';
export { mutationFields, podShapeOf, watch } from './cleanup/watch.js';
export { TestTracker, countKindOf } from './cleanup/tracker.js';
export { deleteResource, sweep } from './cleanup/sweep.js';
export { describeLeftovers, leftoversPath, recordedIds, writeLeftovers } from './cleanup/leftovers.js';
export { heldByRun, stillHeld } from './cleanup/account.js';
