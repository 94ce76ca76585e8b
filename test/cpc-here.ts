// `cpc report` and `cpc diff` in the test's own process. They read saved reports, write files
// and print, all synchronously, so a test that is about what they write and print needs no
// process of its own: a `cpc` process costs a Node start and the report modules' load (about
// 0.4 CPU-s) for every call. What a process adds (the entry, its exit code as the shell sees it)
// is held by the tests that still start `cpc` (cli-help, cli-nohang, package-install).
import { reportCommand } from '../bin/commands/report.js';
import { diffCommand } from '../bin/commands/diff.js';
import { exitCodeForError, failureText } from '../lib/errors.js';

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
