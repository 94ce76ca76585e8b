import { bindEmulator } from '../emulator/server.js';
import type { Target } from '../lib/config.js';

/** The embedded emulator of a run: the target it makes, and how to stop it. */
export interface EmbeddedTarget {
  /** `kind: 'embedded'`, every surface at the emulator's loopback URL, its control surface there. */
  target: Target & { kind: 'embedded' };
  url: string;
  close(): Promise<void>;
}

/** An embedded emulator whose port is bound and whose code may still be loading. */
export interface BoundEmbedded {
  target: Target & { kind: 'embedded' };
  url: string;
  /** Settles once it serves (requests sent before wait for it). */
  running: Promise<EmbeddedTarget>;
}

/**
 * Binds the embedded emulator's free loopback port and loads the emulator behind it: the target
 * is known at once, so `cpc conformance` starts Playwright while the emulator's modules load.
 * Tests make their own worlds through its control surface, so it starts with none of a run's
 * faults or variants.
 */
export async function bindEmbedded(): Promise<BoundEmbedded> {
  const bound = await bindEmulator({ port: 0, host: '127.0.0.1' });
  const target: Target & { kind: 'embedded' } = { kind: 'embedded', control: true, baseUrl: bound.url, serverlessUrl: bound.url, restV1Url: bound.url };
  return {
    target, url: bound.url,
    running: bound.running.then((running) => ({ target, url: bound.url, close: () => running.close() })),
  };
}

/**
 * Starts the embedded emulator on a free loopback port and resolves once it serves: the one way
 * the command line, the matrices, the load runner and Playwright's global setup start it
 * ({@link bindEmbedded} when the caller has something to do meanwhile).
 */
export async function startEmbedded(): Promise<EmbeddedTarget> {
  return (await bindEmbedded()).running;
}
