import { INSTALLED } from './paths.js';

// The seed itself is chosen once per run by lib/run-config.ts (chooseSeed).

const shellWord = (s: string): string => (/^[\w@%+=:,./-]+$/.test(s) ? s : `'${s.replace(/'/g, `'\\''`)}'`);

/**
 * The command that replays a run: same seed, same selection, target from the environment
 * (`npx cpc conformance` from an installed package, the npm script from a clone).
 */
export function replayCommand(seed: number, args: readonly string[], installed = INSTALLED): string {
  const words = args.map(shellWord).join(' ');
  if (installed) return `CPC_SEED=${seed} npx cpc conformance${words ? ` ${words}` : ''}`;
  return `CPC_SEED=${seed} npm run conformance${words ? ` -- ${words}` : ''}`;
}
