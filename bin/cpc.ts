#!/usr/bin/env -S npx tsx
/**
 * cpc: the Compute Platform conformance suite's command line (installed as `cpc` by
 * bin/cpc.js; from a clone `npx tsx bin/cpc.ts` or the npm scripts).
 *
 * Exit codes: 0 conformant (with --baseline: no change; preflight: ready), 1 a MUST rule failed,
 * a test failed or the baseline changed (diff: the reports differ), 2 configuration error,
 * 130 interrupted. Errors print one line, never a stack trace; the error catalog (lib/errors.ts)
 * gives each error its code and exit code (2 for configuration and input). `cpc help <command>` and
 * `cpc <command> --help` print a command's usage.
 */
import { exitCodeForError, failureText } from '../lib/errors.js';
import { main } from './main.js';

/**
 * Ends the process with `code` once its output is written. Whatever is still open (a server,
 * a keep-alive socket, a timer of a failed step) never keeps `cpc` from exiting.
 */
function finish(code: number): void {
  process.exitCode = code;
  let pending = 2;
  const done = () => { if (--pending === 0) process.exit(code); };
  process.stdout.write('', done);
  process.stderr.write('', done);
}

main(process.argv.slice(2)).then(
  (code) => finish(code),
  // One line from the error catalog (a usage error adds the command's usage), and its exit code.
  (error: unknown) => {
    process.stderr.write(failureText('cpc', error));
    finish(exitCodeForError(error));
  },
);
