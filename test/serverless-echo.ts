// What the conformance handler (emulator/serverless/HANDLER.md) gives as the output of a job
// whose input asks nothing of it: the tests that drive real clients judge their answers by it.
export const ECHO = (input: Record<string, unknown>): unknown => input;
