import { ConfigError } from './errors.js';
import { registerSecret } from './redact.js';
import type { Keys, SurfaceUrls } from './client/api.js';

/**
 * Where the suite points. With nothing configured the embedded emulator is the target.
 * Environment variables (these names exactly, so every runner configures the suite alike):
 * CPC_BASE_URL, CPC_SERVERLESS_URL, CPC_REST_V1_URL, CPC_API_KEY, CPC_API_KEY_READONLY,
 * CPC_API_KEY_OTHER, CPC_API_KEY_EXPIRED, CPC_ENDPOINT_ID. CLI flags of the same names (`--base-url`...) win.
 */
/** The keys and ids a user gives for a deployment (each optional: what is missing skips the tests that need it). */
export interface TargetKeys {
  apiKey?: string;
  apiKeyReadonly?: string;
  apiKeyOther?: string;
  /** A key of the account that has expired: the expired-key checks run with it (only an emulator can mint one itself). */
  apiKeyExpired?: string;
  endpointId?: string;
}

/** The three surfaces' base URLs (a deployment may split them; the emulator serves all three). */
export interface SurfaceAddresses { baseUrl: string; serverlessUrl: string; restV1Url: string }

/**
 * What the user named, validated ({@link loadTargetConfig}): no target, which means the
 * embedded emulator, started for the run; or a deployment's addresses and keys.
 */
export type TargetSetting = { kind: 'embedded' } | ({ kind: 'remote' } & SurfaceAddresses & TargetKeys);

/**
 * The run's target, resolved once before any test runs (the command line, or global setup for a
 * plain `npx playwright test`): the embedded emulator, started, or a deployment, with whether
 * the emulator's control surface answers there. Nothing downstream probes or defaults it again.
 */
export type Target = ({ kind: 'embedded'; control: true } & SurfaceAddresses) | ({ kind: 'remote'; control: boolean } & SurfaceAddresses & TargetKeys);

/** The keys a target's tests use outside an emulator world (the embedded emulator has none: each world mints its own). */
export const keysOf = (t: Target | TargetSetting): TargetKeys => (t.kind === 'remote' ? t : {});

/** A target as an API client takes it: its three surfaces and its keys by role (the one mapping from one to the other). */
export function clientSettingsOf(t: Target): { urls: SurfaceUrls; keys: Keys } {
  const k = keysOf(t);
  return {
    urls: { baseUrl: t.baseUrl, serverlessUrl: t.serverlessUrl, restV1Url: t.restV1Url },
    keys: { ...(k.apiKey ? { main: k.apiKey } : {}), ...(k.apiKeyReadonly ? { readonly: k.apiKeyReadonly } : {}), ...(k.apiKeyOther ? { other: k.apiKeyOther } : {}) },
  };
}

/**
 * Registers a target's keys with lib/redact.ts, so no log, report or evidence shows them: called
 * where keys enter a process, when the user's variables are read ({@link loadTargetConfig}) and
 * when a handed-down run configuration is read (lib/run-config.ts).
 */
export function registerKeys(t: Target | TargetSetting): void {
  const k = keysOf(t);
  registerSecret(k.apiKey);
  registerSecret(k.apiKeyReadonly);
  registerSecret(k.apiKeyOther);
  registerSecret(k.apiKeyExpired);
}

export const ENV_VARS = {
  baseUrl: 'CPC_BASE_URL',
  serverlessUrl: 'CPC_SERVERLESS_URL',
  restV1Url: 'CPC_REST_V1_URL',
  apiKey: 'CPC_API_KEY',
  apiKeyReadonly: 'CPC_API_KEY_READONLY',
  apiKeyOther: 'CPC_API_KEY_OTHER',
  apiKeyExpired: 'CPC_API_KEY_EXPIRED',
  endpointId: 'CPC_ENDPOINT_ID',
} as const satisfies Record<keyof (SurfaceAddresses & TargetKeys), string>;

export type ConfigKey = keyof typeof ENV_VARS;

/** `--base-url` for `baseUrl`, and so on. */
export const flagOf = (key: ConfigKey): string => key.replace(/[A-Z]/g, (c) => `-${c.toLowerCase()}`).replace(/^-/, '');

function checkUrl(key: ConfigKey, value: string): string {
  let url: URL;
  try {
    url = new URL(value);
  } catch {
    throw new ConfigError(`${ENV_VARS[key]} is not a valid URL: "${value}"`, ENV_VARS[key]);
  }
  if (url.protocol !== 'http:' && url.protocol !== 'https:') throw new ConfigError(`${ENV_VARS[key]} must be an http or https URL, got "${url.protocol}"`, ENV_VARS[key]);
  if (url.search || url.hash) throw new ConfigError(`${ENV_VARS[key]} must not carry a query or fragment: "${value}"`, ENV_VARS[key]);
  if (url.username || url.password) throw new ConfigError(`${ENV_VARS[key]} must not carry credentials; use CPC_API_KEY`, ENV_VARS[key]);
  return value.replace(/\/+$/, '');
}

/**
 * Reads and validates the target configuration. Throws {@link ConfigError} (exit code 2)
 * for an invalid URL or an incomplete remote target. (The target profile is read once, with
 * the rest of the run's configuration: lib/run-config.ts.)
 */
export function loadTargetConfig(env: NodeJS.ProcessEnv = process.env, flags: Partial<Record<ConfigKey, string>> = {}): TargetSetting {
  const raw: Partial<Record<ConfigKey, string>> = {};
  for (const key of Object.keys(ENV_VARS) as ConfigKey[]) {
    const value = flags[key] ?? env[ENV_VARS[key]];
    if (value !== undefined && value.trim() !== '') raw[key] = value.trim();
  }
  if (raw.baseUrl === undefined) {
    const stray = (['serverlessUrl', 'restV1Url', 'apiKey'] as const).filter((k) => raw[k] !== undefined);
    if (stray.length > 0) throw new ConfigError(`${stray.map((k) => ENV_VARS[k]).join(', ')} set without CPC_BASE_URL; set CPC_BASE_URL to test a deployment, or unset them to test the embedded emulator`);
    return { kind: 'embedded' };
  }
  const baseUrl = checkUrl('baseUrl', raw.baseUrl);
  const config: TargetSetting & { kind: 'remote' } = {
    kind: 'remote',
    baseUrl,
    serverlessUrl: raw.serverlessUrl ? checkUrl('serverlessUrl', raw.serverlessUrl) : baseUrl,
    restV1Url: raw.restV1Url ? checkUrl('restV1Url', raw.restV1Url) : baseUrl,
  };
  for (const key of ['apiKey', 'apiKeyReadonly', 'apiKeyOther', 'apiKeyExpired', 'endpointId'] as const) {
    if (raw[key] !== undefined) config[key] = raw[key];
  }
  registerKeys(config);
  return config;
}

/** The configuration as environment variables, for child processes (Playwright, load). */
export function configToEnv(config: Target | TargetSetting): Record<string, string> {
  const env: Record<string, string> = {};
  if (config.kind === 'embedded' && !('baseUrl' in config)) return env;
  const values = config as Partial<SurfaceAddresses & TargetKeys>;
  for (const key of Object.keys(ENV_VARS) as ConfigKey[]) {
    const value = values[key];
    if (value !== undefined) env[ENV_VARS[key]] = value;
  }
  return env;
}
