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
import { spawn } from 'node:child_process';
import { join } from 'node:path';
import { InternalError, UsageError, exitCodeForError, failureText } from '../lib/errors.js';
import { PROJECT_ROOT, defaultOutDir, tsxLoader } from '../run/paths.js';
import { USAGE, USAGES } from './usage.js';
import { exitOf } from '../run/child.js';
import { wantsHelp } from './args.js';

// Each command's modules load when that command runs (`await import`), so help, usage errors
// and configuration errors answer without loading the suite, the reports and Playwright.

async function main(argv: string[]): Promise<number> {
  const [command, ...rest] = argv;
  if (command === undefined) {
    process.stderr.write(USAGE);
    return 2;
  }
  if (command === '--help' || command === '-h') {
    process.stdout.write(USAGE);
    return 0;
  }
  if (command === 'help') {
    const about = rest[0];
    if (about !== undefined && !(about in USAGES)) throw new UsageError(`unknown command "${about}"`, USAGE);
    process.stdout.write(about === undefined ? USAGE : USAGES[about]!);
    return 0;
  }
  if (!(command in USAGES)) throw new UsageError(`unknown command "${command}"`, USAGE);
  if (wantsHelp(rest)) {
    process.stdout.write(USAGES[command]!);
    return 0;
  }
  switch (command) {
    case 'conformance': return (await import('./commands/conformance.js')).conformanceCommand(rest);
    case 'preflight': return (await import('./commands/preflight.js')).preflightCommand(rest);
    case 'report': return rest[0] === 'diff' ? (await import('./commands/diff.js')).diffCommand(rest.slice(1)) : (await import('./commands/report.js')).reportCommand(rest);
    case 'diff': return (await import('./commands/diff.js')).diffCommand(rest);
    case 'detect': return (await import('./commands/detect.js')).detectCommand(rest);
    case 'emulator': return spawnSuiteScript(join(PROJECT_ROOT, 'emulator', 'main.ts'), rest);
    case 'load': return spawnSuiteScript(join(PROJECT_ROOT, 'bin', 'commands', 'load.ts'), rest.includes('--out') || rest.some((a) => a.startsWith('--out=')) ? rest : [...rest, '--out', defaultOutDir('load')]);
    // USAGES names the commands this switch runs (bin/usage.ts): one it does not name never gets here.
    default: throw new InternalError(`the command "${command}" has a usage but no case in bin/cpc.ts`);
  }
}

/** Runs one of the suite's own scripts in a child Node (with tsx), forwarding signals; its exit code is ours. */
async function spawnSuiteScript(script: string, args: string[]): Promise<number> {
  const child = spawn(process.execPath, [`--import=${tsxLoader()}`, script, ...args], { stdio: 'inherit' });
  const forward = (signal: NodeJS.Signals) => { child.kill(signal); };
  process.on('SIGINT', forward);
  process.on('SIGTERM', forward);
  const code = await exitOf(child, undefined, (e) => { process.stderr.write(`cpc: cannot start ${script}: ${e.message}\n`); });
  process.off('SIGINT', forward);
  process.off('SIGTERM', forward);
  return code;
}

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
