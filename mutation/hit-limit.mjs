// Preloaded (node --import) into the Playwright processes of a mutation run, before the
// emulator's instrumented code loads. Stryker's instrumented code counts the active mutant's
// executions once `hitCount` exists and throws past `hitLimit`; Stryker's own test runners
// arm it to end infinite loops at once, but its command runner cannot reach the process that
// runs the code. A mutant that loops forever inside the emulator then fails the request it
// serves (500) within a second instead of hanging the run until Stryker's timeout.
// No normal run comes near the limit: a group's whole run executes any one mutant switch at
// most some tens of thousands of times.
const limit = Number(process.env.CPC_MUTATION_HIT_LIMIT ?? 5_000_000);
const ns = (globalThis.__stryker__ ??= {});
ns.hitCount = 0;
ns.hitLimit = limit;
