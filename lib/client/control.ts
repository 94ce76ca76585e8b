import { registerSecret } from '../redact.js';
import { loadUndici } from './transport.js';
import { ControlError } from '../errors.js';
import type { ChaosWorldOptions } from '../chaos/options.js';

/** What `POST /__emulator/worlds` answers. */
export interface WorldInfo {
  id: string;
  now: string;
  nowMs: number;
  accountId: string;
  otherAccountId: string;
  /** `expired`: a key of the main account that has already expired. */
  keys: { main: string; readonly: string; other: string; expired: string };
  seeded: Record<string, unknown>;
}

export interface WorldOptions {
  quotas?: Partial<Record<'minute' | 'hour' | 'day', number>>;
  faults?: readonly string[];
  /** Conforming variants or variant sets (`live`) the world answers with. */
  variants?: readonly string[];
  clock?: { mode?: 'manual' | 'auto'; scale?: number };
  seed?: number;
  /** Legal chaos in the world (emulator/chaos/), its draws keyed by `key`. */
  chaos?: ChaosWorldOptions;
  /** Queue-based endpoints served by worker processes outside the emulator (emulator/README.md "Outside workers"). */
  outsideWorkers?: boolean;
}

/**
 * The emulator's control surface (`/__emulator`), used when the target answers it. Against
 * any other target it is absent and tests that need it skip with a stated reason.
 */
export class EmulatorControl {
  constructor(readonly baseUrl: string) {}

  /** The control surface of the emulator at `baseUrl`, or undefined if nothing answers there. */
  static async detect(baseUrl: string): Promise<EmulatorControl | undefined> {
    try {
      const { request } = await loadUndici();
      const res = await request(`${baseUrl}/__emulator`, { method: 'GET', signal: AbortSignal.timeout(5000) });
      const text = await res.body.text();
      if (res.statusCode !== 200) return undefined;
      const body = JSON.parse(text) as { emulator?: string };
      return body.emulator === 'compute-platform-emulator' ? new EmulatorControl(baseUrl) : undefined;
    } catch {
      return undefined;
    }
  }

  async createWorld(options: WorldOptions = {}): Promise<WorldInfo> {
    const info = await this.#call<WorldInfo>('POST', '/worlds', options);
    for (const key of Object.values(info.keys)) registerSecret(key);
    return info;
  }

  deleteWorld(world: string): Promise<void> {
    return this.#call('DELETE', `/worlds/${world}`);
  }

  reset(world: string): Promise<void> {
    return this.#call('POST', `/worlds/${world}/reset`);
  }

  /** Moves the world's virtual clock forward; returns the new time in epoch ms. */
  async advance(world: string, ms: number): Promise<number> {
    return (await this.#call<{ nowMs: number }>('POST', `/worlds/${world}/clock`, { advanceMs: Math.round(ms) })).nowMs;
  }

  async now(world: string): Promise<number> {
    return (await this.#call<{ nowMs: number }>('GET', `/worlds/${world}`)).nowMs;
  }

  setClock(world: string, clock: { mode?: 'manual' | 'auto'; scale?: number }): Promise<unknown> {
    return this.#call('POST', `/worlds/${world}/clock`, clock);
  }

  setQuotas(world: string, quotas: Partial<Record<'minute' | 'hour' | 'day', number>>, resetCounters = false): Promise<unknown> {
    return this.#call('PUT', `/worlds/${world}/quotas`, { quotas, resetCounters });
  }

  setFaults(world: string, faults: readonly string[]): Promise<unknown> {
    return this.#call('PUT', `/worlds/${world}/faults`, { faults });
  }

  setVariants(world: string, variants: readonly string[]): Promise<unknown> {
    return this.#call('PUT', `/worlds/${world}/variants`, { variants });
  }

  async mintKey(world: string, options: { accountId?: string; scopes?: ('read' | 'write')[]; label?: string; expiresInMs?: number }): Promise<string> {
    const { key } = await this.#call<{ key: string }>('POST', `/worlds/${world}/keys`, options);
    registerSecret(key);
    return key;
  }

  async #call<T = void>(method: string, path: string, body?: unknown): Promise<T> {
    const { request } = await loadUndici();
    const res = await request(`${this.baseUrl}/__emulator${path}`, {
      method: method as 'GET',
      headers: body === undefined ? {} : { 'content-type': 'application/json' },
      body: body === undefined ? undefined : JSON.stringify(body),
      signal: AbortSignal.timeout(30_000),
    });
    const text = await res.body.text();
    if (res.statusCode >= 300) throw new ControlError(`control ${method} ${path} answered ${res.statusCode}: ${text.slice(0, 300)}`, res.statusCode);
    return (text ? JSON.parse(text) : undefined) as T;
  }
}
