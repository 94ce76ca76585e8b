import { readFileSync } from 'node:fs';
import { resolve } from 'node:path';
import type { Budgets } from './plan.js';
import { ConfigError } from './errors.js';

/**
 * The target profile: what the suite creates pods with on a target, and how long it waits.
 * A real deployment is not the emulator: its catalog, capacity and images are its own, and a
 * pod whose container exits at once never stays RUNNING. Read from a JSON file
 * (`CPC_PROFILE=path/to/profile.json`) and environment variables, which win over the file:
 *
 * | field | variable | default |
 * |---|---|---|
 * | gpuType | CPC_GPU_TYPE | an NVIDIA type from the catalog, available ones first |
 * | gpuTypes | CPC_GPU_TYPES (comma list) | none: every NVIDIA type of the catalog may be tried |
 * | cpuFlavor | CPC_CPU_FLAVOR | a flavor from the catalog with a valid vCPU count |
 * | dataCenter | CPC_DATA_CENTER | none: the target schedules |
 * | podImage | CPC_POD_IMAGE | busybox:latest |
 * | podArgs | CPC_POD_ARGS | sleep infinity (a long-running command) |
 * | workerImage | CPC_WORKER_IMAGE (or `--worker-image`) | none: the run provisions no serverless template or endpoint (run/provision/) |
 * | readyTimeoutMs | CPC_POD_READY_TIMEOUT_MS | 600000 (10 minutes to RUNNING) |
 * | pollMs | CPC_POD_POLL_MS | 5000 (first readiness poll; later polls back off to 4x) |
 * | rateLimitBudgetMs | CPC_RATE_LIMIT_BUDGET_MS | 300000 (longest rate-limit wait per test) |
 * | cleanupWaitMs | CPC_CLEANUP_WAIT_MS | 150000 (retrying deletions after the run) |
 * | targetName | CPC_TARGET_NAME | the base URL (`embedded emulator` for the embedded one): the label of the target's report history |
 * | requireAllMust | CPC_REQUIRE_ALL_MUST (1/true, 0/false) | false: the certification gate of `--require-all-must` |
 *
 * An invalid value is a {@link ConfigError} naming the variable (the CLI exits 2).
 */
export interface TargetProfile {
  gpuType?: string;
  /**
   * The GPU types a valid GPU create may be placed on, in the order they are tried when the
   * target refuses one for capacity (a team may allow only cheap types). Without it: the
   * catalog's NVIDIA types, those it reports available first, `gpuType` before them.
   */
  gpuTypes?: string[];
  cpuFlavor?: string;
  dataCenter?: string;
  podImage: string;
  podArgs: string;
  /**
   * An image serving the conformance handler (worker/, emulator/serverless/HANDLER.md): the run
   * makes a serverless template of it and the queue-based endpoints its job tests need, and
   * deletes them at the end (run/provision/).
   */
  workerImage?: string;
  readyTimeoutMs: number;
  pollMs: number;
  rateLimitBudgetMs: number;
  cleanupWaitMs: number;
  /** Budgets the run may not pass (`--max-*` flags win): lib/plan.ts. */
  budgets?: Budgets;
  /** The label reports of this target carry (`cpc conformance --target-name` wins): `--previous` and `cpc report --history` refuse another target's reports. */
  targetName?: string;
  /** The certification gate (`cpc conformance --require-all-must`): a run that left any MUST rule undecided exits 1. */
  requireAllMust?: boolean;
}

const STRINGS = { gpuType: 'CPC_GPU_TYPE', cpuFlavor: 'CPC_CPU_FLAVOR', dataCenter: 'CPC_DATA_CENTER', podImage: 'CPC_POD_IMAGE', podArgs: 'CPC_POD_ARGS', workerImage: 'CPC_WORKER_IMAGE', targetName: 'CPC_TARGET_NAME' } as const;
const NUMBERS = {
  readyTimeoutMs: 'CPC_POD_READY_TIMEOUT_MS', pollMs: 'CPC_POD_POLL_MS', rateLimitBudgetMs: 'CPC_RATE_LIMIT_BUDGET_MS', cleanupWaitMs: 'CPC_CLEANUP_WAIT_MS',
} as const;
const LISTS = { gpuTypes: 'CPC_GPU_TYPES' } as const;
const BOOLEANS = { requireAllMust: 'CPC_REQUIRE_ALL_MUST' } as const;
/** Budgets (lib/plan.ts): counts are integers, the cost USD. */
const BUDGETS = { maxPods: 'CPC_MAX_PODS', maxGpuPods: 'CPC_MAX_GPU_PODS', maxRequests: 'CPC_MAX_REQUESTS', maxCostUsd: 'CPC_MAX_COST' } as const;
const BUDGET_FIELD: Record<keyof typeof BUDGETS, keyof Budgets> = { maxPods: 'pods', maxGpuPods: 'gpuPods', maxRequests: 'requests', maxCostUsd: 'costUsd' };
export const PROFILE_VARIABLES = { ...STRINGS, ...NUMBERS, ...LISTS, ...BOOLEANS, ...BUDGETS, file: 'CPC_PROFILE' } as const;

/** A budget's value: a count is an integer of 0 or more, the cost a number of 0 or more (USD). */
export function parseBudget(field: keyof Budgets, raw: unknown, where: string, setting: string): number {
  const n = typeof raw === 'number' ? raw : typeof raw === 'string' && /^\d+(\.\d+)?$/.test(raw.trim()) ? Number(raw) : NaN;
  const ok = field === 'costUsd' ? Number.isFinite(n) && n >= 0 : Number.isInteger(n) && n >= 0;
  if (!ok) throw new ConfigError(`${where} must be ${field === 'costUsd' ? 'a number of USD of 0 or more' : 'an integer of 0 or more'}, got ${JSON.stringify(raw)}`, setting);
  return n;
}

export const DEFAULT_PROFILE: TargetProfile = {
  podImage: 'busybox:latest', podArgs: 'sleep infinity', readyTimeoutMs: 600_000, pollMs: 5_000, rateLimitBudgetMs: 300_000, cleanupWaitMs: 150_000,
};

/** Bounds per number: a poll faster than 100 ms or a wait longer than a day is a typo. */
const LIMITS: Record<keyof typeof NUMBERS, [number, number]> = {
  readyTimeoutMs: [1_000, 86_400_000], pollMs: [100, 3_600_000], rateLimitBudgetMs: [0, 86_400_000], cleanupWaitMs: [0, 86_400_000],
};

function readFile(path: string): Record<string, unknown> {
  let text: string;
  try {
    text = readFileSync(resolve(path), 'utf8');
  } catch (e) {
    throw new ConfigError(`CPC_PROFILE: cannot read ${path}: ${(e as NodeJS.ErrnoException).code ?? (e as Error).message}`, 'CPC_PROFILE');
  }
  let value: unknown;
  try { value = JSON.parse(text); } catch (e) {
    throw new ConfigError(`CPC_PROFILE: ${path} is not JSON: ${(e as Error).message}`, 'CPC_PROFILE');
  }
  if (value === null || typeof value !== 'object' || Array.isArray(value)) throw new ConfigError(`CPC_PROFILE: ${path} must hold a JSON object`, 'CPC_PROFILE');
  const known = new Set([...Object.keys(STRINGS), ...Object.keys(NUMBERS), ...Object.keys(LISTS), ...Object.keys(BOOLEANS), ...Object.keys(BUDGETS)]);
  const unknown = Object.keys(value).filter((k) => !known.has(k));
  if (unknown.length) throw new ConfigError(`CPC_PROFILE: unknown field(s) ${unknown.join(', ')} in ${path} (known: ${[...known].join(', ')})`, 'CPC_PROFILE');
  return value as Record<string, unknown>;
}

/** Reads and validates the profile; throws {@link ConfigError} naming the variable (or file field) at fault. */
export function loadProfile(env: NodeJS.ProcessEnv): TargetProfile {
  const file = env.CPC_PROFILE?.trim() ? readFile(env.CPC_PROFILE.trim()) : {};
  const profile: TargetProfile = { ...DEFAULT_PROFILE };
  /** A field's value: its variable when set (a list split at commas), else the profile file's; with where it came from, for errors. */
  const given = (field: string, variable: string, list = false): { raw: unknown; where: string } | undefined => {
    const fromEnv = env[variable];
    if (fromEnv !== undefined && fromEnv.trim() !== '') return { raw: list ? fromEnv.split(',').map((s) => s.trim()).filter(Boolean) : fromEnv.trim(), where: variable };
    return file[field] === undefined ? undefined : { raw: file[field], where: `CPC_PROFILE field "${field}" (or ${variable})` };
  };
  for (const [field, variable] of Object.entries(STRINGS) as [keyof typeof STRINGS, string][]) {
    const v = given(field, variable);
    if (!v) continue;
    if (typeof v.raw !== 'string' || v.raw.trim() === '') throw new ConfigError(`${v.where} must be a non-empty string, got ${JSON.stringify(v.raw)}`, variable);
    if ([...v.raw].some((c) => c.charCodeAt(0) < 0x20)) throw new ConfigError(`${v.where} must not contain control characters`, variable);
    profile[field] = v.raw.trim();
  }
  for (const [field, variable] of Object.entries(LISTS) as [keyof typeof LISTS, string][]) {
    const v = given(field, variable, true);
    if (!v) continue;
    const raw = v.raw;
    if (!Array.isArray(raw) || raw.length === 0 || !raw.every((s) => typeof s === 'string' && s.trim() !== '' && ![...s].some((c) => c.charCodeAt(0) < 0x20))) {
      throw new ConfigError(`${v.where} must be a non-empty list of GPU type ids, got ${JSON.stringify(raw)}`, variable);
    }
    profile[field] = (raw as string[]).map((s) => s.trim());
  }
  for (const [field, variable] of Object.entries(NUMBERS) as [keyof typeof NUMBERS, string][]) {
    const v = given(field, variable);
    if (!v) continue;
    const n = typeof v.raw === 'number' ? v.raw : typeof v.raw === 'string' && /^\d+$/.test(v.raw) ? Number(v.raw) : NaN;
    const [min, max] = LIMITS[field];
    if (!Number.isInteger(n) || n < min || n > max) throw new ConfigError(`${v.where} must be an integer number of milliseconds from ${min} to ${max}, got ${JSON.stringify(v.raw)}`, variable);
    profile[field] = n;
  }
  for (const [field, variable] of Object.entries(BOOLEANS) as [keyof typeof BOOLEANS, string][]) {
    const v = given(field, variable);
    if (!v) continue;
    const on = v.raw === true || v.raw === '1' || v.raw === 'true';
    if (!on && v.raw !== false && v.raw !== '0' && v.raw !== 'false') throw new ConfigError(`${v.where} must be true or false (1 or 0), got ${JSON.stringify(v.raw)}`, variable);
    profile[field] = on;
  }
  for (const [field, variable] of Object.entries(BUDGETS) as [keyof typeof BUDGETS, string][]) {
    const v = given(field, variable);
    if (v) profile.budgets = { ...profile.budgets, [BUDGET_FIELD[field]]: parseBudget(BUDGET_FIELD[field], v.raw, v.where, variable) };
  }
  return profile;
}
