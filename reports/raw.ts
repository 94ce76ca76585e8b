// The raw results' records are part of the protocol between the Playwright processes and the report (lib/protocol.ts).
export type { PropertyRecord, RawTestResult, TestUsage, RawPlannedTest, RawRunHeader, RawRunPlan, RawRunFooter } from '../lib/protocol.js';
export { RAW_FILE } from '../lib/protocol.js';
