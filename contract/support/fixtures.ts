import { relative, sep } from 'node:path';
import { test as base } from '@playwright/test';
import { readPlan, testKey } from '../../test/detection/plan.js';
import { loadTargetConfig, type TargetConfig } from '../../lib/config.js';
import { ConfigError } from '../../lib/errors.js';
import { ApiClient, type Keys, type KeyRole, type SurfaceUrls } from '../../lib/client/api.js';
import { EmulatorControl, type WorldInfo, type WorldOptions } from '../../lib/client/control.js';
import { registerSecret } from '../../lib/redact.js';
import { playwrightTransport } from './transport.js';

/** What every test knows about the target, resolved once per worker. */
export interface TargetContext {
  config: TargetConfig;
  urls: SurfaceUrls;
  /** The emulator's control surface, when the target answers it. */
  control?: EmulatorControl;
  envKeys: Keys;
  endpointId?: string;
}

/** The emulator-only powers a test may use; each skips the test, with its reason, elsewhere. */
export interface Emu {
  readonly available: boolean;
  readonly world: WorldInfo | undefined;
  /** Skips the test unless the control surface is there; `why` says what it is needed for. */
  require(why: string): void;
  readonly control: EmulatorControl | undefined;
  advance(ms: number): Promise<number>;
  setQuotas(quotas: Partial<Record<'minute' | 'hour' | 'day', number>>, resetCounters?: boolean): Promise<void>;
}

/** Quotas for test worlds: high enough that only rate-limit tests meet a 429. */
export const TEST_WORLD_QUOTAS = { minute: 100_000, hour: 1_000_000, day: 10_000_000 } as const;

type WorkerFixtures = { target: TargetContext; faults: string[]; detection: boolean };
type TestFixtures = { worldOptions: WorldOptions; world: WorldInfo | undefined; api: ApiClient; emu: Emu; detectionFault: string | undefined };

export const test = base.extend<TestFixtures, WorkerFixtures>({
  faults: [[], { option: true, scope: 'worker' }],
  /** Set by the detection matrix's projects: every test runs with a fault on and is expected to fail. */
  detection: [false, { option: true, scope: 'worker' }],

  // The detection matrix runs each planned test once per fault it was selected for
  // (repetition i: its i-th fault). A failing run is the expected outcome there; marking it so
  // keeps Playwright from restarting the worker. The matrix reads the actual status.
  detectionFault: [async ({ detection }, use, testInfo) => {
    if (!detection) { await use(undefined); return; }
    const file = relative(testInfo.config.rootDir, testInfo.file).split(sep).join('/');
    const faults = readPlan().tests[testKey(file, testInfo.titlePath.slice(1))] ?? [];
    const fault = faults[testInfo.repeatEachIndex];
    testInfo.skip(fault === undefined, 'detection: no fault planned for this repetition');
    testInfo.annotations.push({ type: 'fault', description: fault! });
    testInfo.fail();
    await use(fault);
  }, { auto: true }],

  worldOptions: [{}, { option: true }],

  target: [async ({}, use) => {
    const config = loadTargetConfig();
    if (!config.baseUrl) throw new ConfigError('no target: CPC_BASE_URL is unset and global setup did not start the emulator');
    const urls: SurfaceUrls = { baseUrl: config.baseUrl, serverlessUrl: config.serverlessUrl ?? config.baseUrl, restV1Url: config.restV1Url ?? config.baseUrl };
    const control = await EmulatorControl.detect(config.baseUrl);
    const envKeys: Keys = {};
    if (config.apiKey) envKeys.main = config.apiKey;
    if (config.apiKeyReadonly) envKeys.readonly = config.apiKeyReadonly;
    if (config.apiKeyOther) envKeys.other = config.apiKeyOther;
    Object.values(envKeys).forEach(registerSecret);
    await use({ config, urls, ...(control ? { control } : {}), envKeys, ...(config.endpointId ? { endpointId: config.endpointId } : {}) });
  }, { scope: 'worker' }],

  // A fresh emulator world per test: its own accounts, keys, clock, quotas and faults.
  world: async ({ target, faults, worldOptions, detectionFault }, use) => {
    if (!target.control) { await use(undefined); return; }
    const all = [...faults, ...(worldOptions.faults ?? []), ...(detectionFault ? [detectionFault] : [])];
    const world = await target.control.createWorld({ quotas: TEST_WORLD_QUOTAS, ...worldOptions, faults: all });
    await use(world);
    await target.control.deleteWorld(world.id).catch(() => undefined);
  },

  api: async ({ request, target, world }, use, testInfo) => {
    const keys = world ? world.keys : target.envKeys;
    const client = new ApiClient(target.urls, keys, playwrightTransport(request), world ? { 'x-emulator-world': world.id } : {},
      (role: KeyRole) => testInfo.skip(true, `the target has no ${role} key (set ${role === 'main' ? 'CPC_API_KEY' : role === 'readonly' ? 'CPC_API_KEY_READONLY' : 'CPC_API_KEY_OTHER'})`));
    await use(client);
    if (client.history.length > 0) {
      await testInfo.attach('evidence', { body: JSON.stringify(client.history.slice(-6), null, 2), contentType: 'application/json' });
    }
  },

  emu: async ({ target, world }, use, testInfo) => {
    const control = target.control;
    const emu: Emu = {
      available: control !== undefined && world !== undefined,
      world,
      control,
      require(why: string) {
        testInfo.skip(!control || !world, `needs the emulator's control surface to ${why}; the target has none`);
      },
      async advance(ms) {
        this.require('move the virtual clock');
        return control!.advance(world!.id, ms);
      },
      async setQuotas(quotas, resetCounters = true) {
        this.require('set rate-limit quotas');
        await control!.setQuotas(world!.id, quotas, resetCounters);
      },
    };
    await use(emu);
  },
});

export { expect } from '@playwright/test';
