import { resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import { errorLine, exitCodeForError } from '../lib/errors.js';

/**
 * Runs `main` when the module at `moduleUrl` is the script Node started (`npm run load`,
 * `npm run variants`), not when it is imported. The exit code is main's; an error prints one
 * line prefixed with `name`, never a stack trace, and exits with the error catalog's code
 * (lib/errors.ts: 2 for configuration and input, k6's own for a K6RunError, 1 otherwise).
 */
export function runAsScript(name: string, moduleUrl: string, main: (argv: string[]) => Promise<number>): void {
  if (!process.argv[1] || resolve(process.argv[1]) !== fileURLToPath(moduleUrl)) return;
  main(process.argv.slice(2)).then(
    (code) => { process.exitCode = code; },
    (error: unknown) => {
      process.stderr.write(`${name}: ${errorLine(error)}\n`);
      process.exitCode = exitCodeForError(error);
    },
  );
}
