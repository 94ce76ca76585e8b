import { resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import { ConfigError, CpcError } from '../../lib/errors.js';

/**
 * Runs `main` when the module at `moduleUrl` is the script Node started (`npm run load`,
 * `npm run variants`), not when it is imported. The exit code is main's; an error prints one
 * line prefixed with `name` (and its code), never a stack trace: 2 for a configuration error, 1
 * otherwise.
 */
export function runAsScript(name: string, moduleUrl: string, main: (argv: string[]) => Promise<number>): void {
  if (!process.argv[1] || resolve(process.argv[1]) !== fileURLToPath(moduleUrl)) return;
  main(process.argv.slice(2)).then(
    (code) => { process.exitCode = code; },
    (error: unknown) => {
      process.stderr.write(`${name}: ${error instanceof CpcError ? `${error.code}: ` : ''}${error instanceof Error ? error.message : String(error)}\n`);
      process.exitCode = error instanceof ConfigError ? 2 : 1;
    },
  );
}
