/**
 * The command line's routing (bin/cpc.ts runs it as `cpc`): the usage, help, and each command's
 * function. Returns the exit code; an error a command throws is the caller's to print
 * (`failureText`) and to turn into the catalog's exit code.
 */
import { spawn } from 'node:child_process';
import { join } from 'node:path';
import { InternalError, UsageError } from '../lib/errors.js';
import { PROJECT_ROOT, defaultOutDir, tsxLoader } from '../run/paths.js';
import { USAGE, USAGES } from './usage.js';
import { exitOf } from '../run/child.js';
import { wantsHelp } from './args.js';

// Each command's modules load when that command runs (`await import`), so help, usage errors
// and configuration errors answer without loading the suite, the reports and Playwright.

/** What `cpc` prints and its exit code when it answers without running a command. */
export interface UsageAnswer { code: number; stdout: string; stderr: string }

/**
 * The answers that need no command (no command: the usage on stderr, exit 2; `--help`, `help`,
 * `help X`, `X --help`: the usage, exit 0), or undefined when `argv` runs a command. An unknown
 * command throws a UsageError. Synchronous and without output of its own: main prints it.
 */
export function usageAnswer(argv: readonly string[]): UsageAnswer | undefined {
  const [command, ...rest] = argv;
  if (command === undefined) return { code: 2, stdout: '', stderr: USAGE };
  if (command === '--help' || command === '-h') return { code: 0, stdout: USAGE, stderr: '' };
  if (command === 'help') {
    const about = rest[0];
    if (about !== undefined && !(about in USAGES)) throw new UsageError(`unknown command "${about}"`, USAGE);
    return { code: 0, stdout: about === undefined ? USAGE : USAGES[about]!, stderr: '' };
  }
  if (!(command in USAGES)) throw new UsageError(`unknown command "${command}"`, USAGE);
  return wantsHelp(rest) ? { code: 0, stdout: USAGES[command]!, stderr: '' } : undefined;
}

/** Runs `cpc ...argv`: its exit code. Help and usage answer before any command's module loads. */
export async function main(argv: string[]): Promise<number> {
  const answer = usageAnswer(argv);
  if (answer) {
    process.stdout.write(answer.stdout);
    process.stderr.write(answer.stderr);
    return answer.code;
  }
  const [command, ...rest] = argv as [string, ...string[]];
  switch (command) {
    case 'conformance': return (await import('./commands/conformance.js')).conformanceCommand(rest);
    case 'preflight': return (await import('./commands/preflight.js')).preflightCommand(rest);
    case 'report': return rest[0] === 'diff' ? (await import('./commands/diff.js')).diffCommand(rest.slice(1)) : (await import('./commands/report.js')).reportCommand(rest);
    case 'diff': return (await import('./commands/diff.js')).diffCommand(rest);
    case 'detect': return (await import('./commands/detect.js')).detectCommand(rest);
    case 'emulator': return spawnSuiteScript(join(PROJECT_ROOT, 'emulator', 'main.ts'), rest);
    case 'load': return spawnSuiteScript(join(PROJECT_ROOT, 'bin', 'commands', 'load.ts'), rest.includes('--out') || rest.some((a) => a.startsWith('--out=')) ? rest : [...rest, '--out', defaultOutDir('load')]);
    // USAGES names the commands this switch runs (bin/usage.ts): one it does not name never gets here.
    default: throw new InternalError(`the command "${command}" has a usage but no case in bin/main.ts`);
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

