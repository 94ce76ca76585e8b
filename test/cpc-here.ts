// `cpc report`, `cpc diff` and `cpc`'s help and usage in the test's own process. They print
// (and the reports write files) synchronously, so a test that is about what they write and
// print needs no process of its own: a `cpc` process costs a Node start and its modules' load
// (0.3 to 0.4 CPU-s) for every call. What a process adds (the entry, its exit code as the shell
// sees it) is held by the tests that still start `cpc` (cli-help, cli-nohang, package-install).
import { reportCommand } from '../bin/commands/report.js';
import { diffCommand } from '../bin/commands/diff.js';
import { usageAnswer, type UsageAnswer } from '../bin/main.js';
import { UsageError, exitCodeForError, failureText } from '../lib/errors.js';

/** The commands that can run here, routed as bin/cpc.ts routes them (`cpc report diff` is `cpc diff`). */
const HERE: Record<string, (rest: string[]) => number> = {
  report: (rest) => rest[0] === 'diff' ? diffCommand(rest.slice(1)) : reportCommand(rest),
  diff: diffCommand,
};

/**
 * `cpc report ...` or `cpc diff ...` in this process: its exit code and everything it printed
 * (standard output and error together, as `cpcSync` gives them). An error ends it as it ends
 * `cpc`: the one line `cpc` prints, and the catalog's exit code. The command is synchronous, so
 * nothing else in this process writes while its output is taken.
 */
export function cpcHere(args: string[]): { code: number; out: string } {
  const [command = '', ...rest] = args;
  const run = HERE[command];
  if (!run) throw new Error(`cpcHere runs ${Object.keys(HERE).join(' and ')} only, not "${command}": start cpc for it (cpcSync)`);
  let out = '';
  const take = (chunk: string | Uint8Array): boolean => {
    out += typeof chunk === 'string' ? chunk : Buffer.from(chunk).toString('utf8');
    return true;
  };
  const { stdout, stderr } = { stdout: process.stdout.write, stderr: process.stderr.write };
  process.stdout.write = take as typeof process.stdout.write;
  process.stderr.write = take as typeof process.stderr.write;
  try {
    const code = run(rest);
    return { code, out };
  } catch (error) {
    out += failureText('cpc', error);
    return { code: exitCodeForError(error), out };
  } finally {
    process.stdout.write = stdout;
    process.stderr.write = stderr;
  }
}

/**
 * `cpc ...args` for help and usage (`cpc`, `cpc --help`, `cpc help X`, `cpc X --help`, an
 * unknown command) in this process, as bin/main.ts answers them before any command runs: the exit
 * code and what `cpc` prints to each stream. Arguments that run a command are refused here.
 */
export function helpHere(args: string[]): UsageAnswer {
  try {
    const answer = usageAnswer(args);
    if (!answer) throw new Error(`helpHere: cpc ${args.join(' ')} runs a command; start cpc for it (cpc() in test/cli-support.ts)`);
    return answer;
  } catch (error) {
    if (error instanceof UsageError) return { code: exitCodeForError(error), stdout: '', stderr: failureText('cpc', error) };
    throw error;
  }
}
