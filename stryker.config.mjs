// Mutation testing of the emulator's validation and state-machine code (`npm run mutation`).
// What is mutated, and which specs test each part, is `mutation/scope.json`. The contract and
// property suites are the test runner: Stryker's `command` runner starts
// bin/commands/mutation-run.ts in its sandbox for every mutant. Equivalent survivors are listed,
// with reasons, in mutation/EQUIVALENT.md and mutation/equivalent.json.
import { readFileSync } from 'node:fs';

const scope = JSON.parse(readFileSync(new URL('./mutation/scope.json', import.meta.url), 'utf8'));

/** @type {import('@stryker-mutator/api/core').PartialStrykerOptions} */
export default {
  mutate: scope.groups.flatMap((g) => g.mutate),
  testRunner: 'command',
  commandRunner: { command: 'node --import tsx bin/commands/mutation-run.ts' },
  // Each command is a whole Playwright run (an emulator process and one worker); two at once
  // keep both cores busy while one of them is starting up.
  concurrency: 2,
  // The dry run (every group, no mutant) sets the timeout; a mutant that hangs the emulator's
  // event loop ends as Timeout (detected) after that time.
  timeoutFactor: 1.5,
  timeoutMS: 10_000,
  dryRunTimeoutMinutes: 10,
  plugins: ['@stryker-mutator/*', './mutation/ignorers.mjs'],
  // Fault switches and problem wording: see mutation/ignorers.mjs for why each is noise.
  ignorers: ['cpc-scope', 'cpc-faults', 'cpc-messages'],
  mutator: { excludedMutations: [] },
  ignorePatterns: ['reports/out', 'test-results', 'playwright-report', '.github', '.ci', '.cache'],
  reporters: ['clear-text', 'progress', 'json', 'html'],
  jsonReporter: { fileName: 'reports/out/mutation/mutation.json' },
  htmlReporter: { fileName: 'reports/out/mutation/mutation.html' },
  clearTextReporter: { allowColor: false, logTests: false, maxTestsToLog: 0 },
  tempDirName: '.stryker-tmp',
  cleanTempDir: true,
};
