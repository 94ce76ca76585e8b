import type { FullConfig } from '@playwright/test';
import { startEmulator } from '../emulator/server.js';

/**
 * With no target configured (no CPC_BASE_URL), start the embedded emulator on a free loopback
 * port for this run and point the suite at it. Workers inherit the environment.
 */
export default async function globalSetup(_config: FullConfig): Promise<(() => Promise<void>) | undefined> {
  if (process.env.CPC_BASE_URL) return undefined;
  const running = await startEmulator({ port: 0, host: '127.0.0.1' });
  process.env.CPC_BASE_URL = running.url;
  process.env.CPC_SERVERLESS_URL = running.url;
  process.env.CPC_REST_V1_URL = running.url;
  process.env.CPC_TARGET_KIND = 'embedded';
  return () => running.close();
}
