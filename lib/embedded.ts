import { startEmulator } from '../emulator/server.js';
import type { TargetConfig } from './config.js';

/** The embedded emulator of a run: the target it makes, and how to stop it. */
export interface EmbeddedTarget {
  /** `kind: 'embedded'`, every surface at the emulator's loopback URL. */
  target: TargetConfig;
  url: string;
  close(): Promise<void>;
}

/**
 * Starts the embedded emulator on a free loopback port: the one way the command line, the
 * matrices, the load runner and Playwright's global setup start it. Tests make their own worlds
 * through its control surface, so it starts with none of a run's faults or variants.
 */
export async function startEmbedded(): Promise<EmbeddedTarget> {
  const running = await startEmulator({ port: 0, host: '127.0.0.1' });
  return {
    target: { kind: 'embedded', baseUrl: running.url, serverlessUrl: running.url, restV1Url: running.url },
    url: running.url,
    close: () => running.close(),
  };
}
