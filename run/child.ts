import type { ChildProcess } from 'node:child_process';

/** What a child's end means as an exit code: a signal, or a process that never started. */
export interface ExitCodes {
  /** The code when a signal ended the child (130, or k6's external abort). */
  signal: number;
  /** The code when the child could not start or gave none. */
  failed: number;
}

/**
 * Resolves with the child's exit code once it ends and its output is read (never rejects): its own code, else
 * `codes.signal` when a signal ended it, else `codes.failed` (it could not start).
 */
export function exitOf(child: ChildProcess, codes: ExitCodes = { signal: 130, failed: 1 }, onError?: (e: Error) => void): Promise<number> {
  return new Promise((resolve) => {
    child.on('error', (e) => { onError?.(e); resolve(codes.failed); });
    // 'close': the child ended and its output pipes are drained.
    child.on('close', (code, signal) => resolve(code ?? (signal ? codes.signal : codes.failed)));
  });
}
