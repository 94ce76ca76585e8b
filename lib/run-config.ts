import { randomBytes, randomInt } from 'node:crypto';
import { existsSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { ConfigError } from './errors.js';
import { loadProfile } from './profile.js';
import { ENV_VARS, loadTargetConfig, registerKeys, type ConfigKey, type Target } from './config.js';
import { RUN_CONFIG_VARIABLE, type DetectionPlan, type PlanKind, type RunConfig, type VariantPlan } from './protocol.js';
import { parseChaos, type ChaosOptions } from './chaos/options.js';
import { runFiles } from './run-folder.js';

/**
 * The run's configuration (lib/protocol.ts `RunConfig`): one typed object, resolved once by the
 * command line and handed to the Playwright processes as ONE environment variable holding JSON,
 * {@link RUN_CONFIG_VARIABLE}; for a plain `npx playwright test`, resolved once by Playwright's
 * runner process and read by its workers from a file ({@link runConfig}).
 * Global setup, the fixtures, the reporter, the property support and the load runner read it
 * through {@link runConfig}; nothing else reads `CPC_*` variables.
 *
 * The variables a user sets are read here only ({@link parseRunConfig}, {@link userSettings}):
 * the target (lib/config.ts: CPC_BASE_URL, CPC_SERVERLESS_URL, CPC_REST_V1_URL, CPC_API_KEY,
 * CPC_API_KEY_READONLY, CPC_API_KEY_OTHER, CPC_ENDPOINT_ID), the target profile (lib/profile.ts:
 * CPC_PROFILE, CPC_GPU_TYPE...), and the run's own:
 *
 * | variable | meaning |
 * |---|---|
 * | CPC_SEED | the run's seed (a replay); default: chosen once, printed |
 * | CPC_PATH | fast-check's path of one counterexample to replay |
 * | CPC_TEMPLATE_ID, CPC_MODEL_ENDPOINT_ID | ids a real target offers (a serverless template, a public model) |
 * | CPC_WORKERS | Playwright workers (default 2) |
 * | CPC_PROPERTY_RUNS, CPC_JOB_MODEL_RUNS | runs per pod property (200) and of the job model (60) |
 * | CPC_ALLOW_PROPERTY_LOAD, CPC_ALLOW_RATE_LIMIT_EXHAUSTION, CPC_ALLOW_WARM_WORKERS | opt-ins on a real target |
 * | CPC_EMULATOR_FAULTS, CPC_EMULATOR_VARIANTS | faults / conforming variants on in every emulator world |
 * | CPC_EMULATOR_CHAOS | legal chaos in every emulator world: `<seed>[,real-time][,latency=<ms>][,capacity=<share>][,capacity-only]` (lib/chaos/options.ts); `--chaos` wins |
 * | CPC_EMULATOR_PORT | the standalone emulator's port (default 8787) |
 * | CPC_LOAD_RUNNER, CPC_LOAD_VUS | the load runner (auto, k6, node) and VUs of a split k6 run |
 * | CPC_MUTATION_SEED, CPC_MUTATION_PROPERTY_RUNS, CPC_MUTATION_JOB_MODEL_RUNS, CPC_MUTATION_WORKERS | the mutation run's budgets |
 *
 * The load scripts (load/) read their own `CPC_*` from k6's `__ENV`, the only way k6 offers;
 * the load runner writes those from this configuration.
 */
type Env = NodeJS.ProcessEnv | Readonly<Record<string, string | undefined>>;

/** Seeds are 31-bit non-negative integers: fast-check and every worker agree on them. */
export const MAX_SEED = 2 ** 31 - 1;

const value = (env: Env, name: string): string | undefined => {
  const v = env[name];
  return v === undefined || v.trim() === '' ? undefined : v.trim();
};

const list = (text: string | undefined): string[] => (text ?? '').split(',').map((s) => s.trim()).filter(Boolean);

function positive(env: Env, name: string): number | undefined {
  const raw = value(env, name);
  if (raw === undefined) return undefined;
  const n = Number(raw);
  if (!Number.isInteger(n) || n < 1) throw new ConfigError(`${name} must be a positive integer, got "${raw}"`, name);
  return n;
}

/**
 * The run's seed: `CPC_SEED` of `env` when given (a replay), else `fallback`, else a fresh
 * random one. Chosen once per run by whoever writes the run configuration.
 */
export function chooseSeed(env: Env = process.env, fallback?: number, name = 'CPC_SEED'): number {
  const given = value(env, name);
  if (given === undefined) return fallback ?? randomInt(0, MAX_SEED + 1);
  const seed = Number(given);
  if (!Number.isInteger(seed) || seed < 0 || seed > MAX_SEED) throw new ConfigError(`${name} must be an integer from 0 to ${MAX_SEED}, got "${given}"`, name);
  return seed;
}

/**
 * The run's Playwright workers, decided here only: the user's (`--workers`, CPC_WORKERS), else 2
 * against an emulator and 1 on a deployment, whose rate limit, not the workers, sets the pace
 * and where pooled resources are made once per worker (lib/plan.ts). These are the suite's: on a
 * deployment that opts in to long waits, the long-wait lane's one worker runs beside them (lib/lanes.ts).
 */
export const workersFor = (given: number | undefined, control: boolean): number => given ?? (control ? 2 : 1);

/** The variables a user sets that are not the target, the profile or the run itself: read here, used by the commands. */
export interface UserSettings {
  /** The standalone emulator's port and its default world's conforming variants. */
  emulatorPort?: number;
  emulatorVariants: string[];
  /** The standalone emulator's legal chaos (CPC_EMULATOR_CHAOS). */
  emulatorChaos?: ChaosOptions;
  loadRunner?: string;
  loadVus?: number;
  mutation: { seed: number; propertyRuns: number; jobModelRuns: number; workers: number };
}

export function userSettings(env: Env = process.env): UserSettings {
  const port = value(env, 'CPC_EMULATOR_PORT');
  if (port !== undefined && !(/^\d+$/.test(port) && Number(port) <= 65535)) throw new ConfigError(`CPC_EMULATOR_PORT must be an integer from 0 to 65535, got "${port}"`, 'CPC_EMULATOR_PORT');
  const loadRunner = value(env, 'CPC_LOAD_RUNNER');
  const loadVus = positive(env, 'CPC_LOAD_VUS');
  const chaos = value(env, 'CPC_EMULATOR_CHAOS');
  return {
    ...(port !== undefined ? { emulatorPort: Number(port) } : {}),
    emulatorVariants: list(value(env, 'CPC_EMULATOR_VARIANTS')),
    ...(chaos !== undefined ? { emulatorChaos: parseChaos(chaos, 'CPC_EMULATOR_CHAOS') } : {}),
    ...(loadRunner !== undefined ? { loadRunner } : {}),
    ...(loadVus !== undefined ? { loadVus } : {}),
    mutation: {
      seed: chooseSeed(env, 424242, 'CPC_MUTATION_SEED'),
      propertyRuns: positive(env, 'CPC_MUTATION_PROPERTY_RUNS') ?? 40,
      jobModelRuns: positive(env, 'CPC_MUTATION_JOB_MODEL_RUNS') ?? 60,
      workers: positive(env, 'CPC_MUTATION_WORKERS') ?? 2,
    },
  };
}

/**
 * The run configuration from a user's variables (`env`) and the command line's target flags,
 * validated: a bad value is a {@link ConfigError} naming its variable (the CLI exits 2). Never
 * reads {@link RUN_CONFIG_VARIABLE}: a command always writes its own.
 */
export function parseRunConfig(env: Env = process.env, flags: Partial<Record<ConfigKey, string>> = {}): RunConfig {
  const setting = loadTargetConfig(env as NodeJS.ProcessEnv, flags);
  const runId = randomBytes(4).toString('hex');
  const templateId = value(env, 'CPC_TEMPLATE_ID');
  const modelEndpointId = value(env, 'CPC_MODEL_ENDPOINT_ID');
  const replayPath = value(env, 'CPC_PATH');
  const workers = positive(env, 'CPC_WORKERS');
  const chaos = value(env, 'CPC_EMULATOR_CHAOS');
  // The run's records (what it creates on a deployment, its waits for the rate limit, its request
  // count and pod reservations), in a folder of its own that the run removes as it ends (lib/run-folder.ts).
  const { target: targetFile, ...records } = runFiles(runId);
  return {
    target: { kind: 'pending', setting, file: targetFile },
    runId,
    ...records,
    ...(templateId ? { templateId } : {}),
    ...(modelEndpointId ? { modelEndpointId } : {}),
    profile: loadProfile(env as NodeJS.ProcessEnv),
    seed: chooseSeed(env),
    ...(replayPath ? { replayPath } : {}),
    ...(workers ? { workers } : {}),
    propertyRuns: positive(env, 'CPC_PROPERTY_RUNS') ?? 200,
    jobModelRuns: positive(env, 'CPC_JOB_MODEL_RUNS') ?? 60,
    allowPropertyLoad: value(env, 'CPC_ALLOW_PROPERTY_LOAD') !== undefined,
    allowRateLimitExhaustion: value(env, 'CPC_ALLOW_RATE_LIMIT_EXHAUSTION') !== undefined,
    allowWarmWorkers: value(env, 'CPC_ALLOW_WARM_WORKERS') !== undefined,
    allowLongWaits: value(env, 'CPC_ALLOW_LONG_WAITS') !== undefined,
    faults: list(value(env, 'CPC_EMULATOR_FAULTS')),
    variants: list(value(env, 'CPC_EMULATOR_VARIANTS')),
    ...(chaos !== undefined ? { chaos: parseChaos(chaos, 'CPC_EMULATOR_CHAOS') } : {}),
  };
}

/**
 * The user's run settings for a run that always tests the embedded emulator (`cpc detect`, the
 * variant matrix): the target variables do not apply there, so a configured deployment is not
 * an error; the caller puts the started emulator in `target`.
 */
export function parseEmbeddedRunConfig(env: Env = process.env): RunConfig {
  const rest: Record<string, string | undefined> = { ...env };
  for (const name of Object.values(ENV_VARS)) delete rest[name];
  return parseRunConfig(rest);
}

/** The configuration as the one variable a child process (Playwright) inherits. */
export function runConfigEnv(config: RunConfig): Record<string, string> {
  return { [RUN_CONFIG_VARIABLE]: JSON.stringify(config) };
}

/** A handed-down configuration's keys, registered as it enters this process (lib/config.ts). */
function registerSecrets(config: RunConfig): RunConfig {
  registerKeys(config.target.kind === 'pending' ? config.target.setting : config.target);
  return config;
}

/** Reads a serialised configuration; a broken one is a ConfigError, never a stack trace in a worker. */
export function decodeRunConfig(text: string): RunConfig {
  let parsed: unknown;
  try {
    parsed = JSON.parse(text);
  } catch (e) {
    throw new ConfigError(`${RUN_CONFIG_VARIABLE} is not JSON: ${(e as Error).message}`, RUN_CONFIG_VARIABLE);
  }
  const c = parsed as Partial<RunConfig> | null;
  const ok = c !== null && typeof c === 'object' && typeof c.target === 'object' && c.target !== null
    && (c.target.kind === 'embedded' || c.target.kind === 'remote' || c.target.kind === 'pending') && Number.isInteger(c.seed) && typeof c.profile === 'object'
    && Array.isArray(c.faults) && Array.isArray(c.variants) && Number.isInteger(c.propertyRuns) && Number.isInteger(c.jobModelRuns);
  if (!ok) throw new ConfigError(`${RUN_CONFIG_VARIABLE} does not hold a run configuration (the command line writes it)`, RUN_CONFIG_VARIABLE);
  return registerSecrets(c as RunConfig);
}

let current: { text: string | undefined; config: RunConfig } | undefined;
let plain: RunConfig | undefined;

/**
 * This process's run configuration: the one the command line handed down in
 * {@link RUN_CONFIG_VARIABLE}; for a plain `npx playwright test`, the one Playwright's runner
 * process resolved from the user's variables when it read playwright.config.ts. Read once per
 * value; its keys are registered with lib/redact.ts. Nothing writes it back.
 */
export function runConfig(): RunConfig {
  const text = process.env[RUN_CONFIG_VARIABLE];
  if (text === undefined) return plainRunConfig();
  if (current && current.text === text) return current.config;
  const config = decodeRunConfig(text);
  current = { text, config };
  return config;
}

/**
 * A plain `npx playwright test` has no command line to hand its configuration down: the runner
 * process resolves it once and leaves it in a file named by its process id, and the workers
 * Playwright forks from it (`TEST_WORKER_INDEX` set) read that file, so every process of the run
 * shares one seed, one run id and one target. The runner removes the file as it exits.
 */
function plainRunConfig(): RunConfig {
  if (plain) return plain;
  const worker = process.env.TEST_WORKER_INDEX !== undefined;
  const file = join(tmpdir(), `cpc-run-config-${worker ? process.ppid : process.pid}.json`);
  if (worker && existsSync(file)) {
    plain = decodeRunConfig(readFileSync(file, 'utf8'));
  } else {
    // Its keys are registered as they are read (lib/config.ts).
    plain = parseRunConfig(process.env);
    if (!worker) {
      writeFileSync(file, JSON.stringify(plain), { mode: 0o600 });
      process.once('exit', () => rmSync(file, { force: true }));
    }
  }
  return plain;
}

const resolved = new Map<string, Target>();

/**
 * The run's target as resolved before any test ran: the configuration's own, or, for a plain
 * `npx playwright test`, what global setup wrote to the pending target's file (run/global-setup.ts).
 */
export function resolvedTarget(config: RunConfig = runConfig()): Target {
  const t = config.target;
  if (t.kind !== 'pending') return t;
  const known = resolved.get(t.file);
  if (known) return known;
  if (!existsSync(t.file)) throw new ConfigError('the run\'s target is not resolved: global setup (run/global-setup.ts) starts or reaches it before the tests');
  const target = JSON.parse(readFileSync(t.file, 'utf8')) as Target;
  resolved.set(t.file, target);
  return target;
}

const plans = new Map<string, unknown>();

/**
 * The matrix plan of this run (detection or variants), read once per process from the file the
 * command named in the run configuration. Throws when the run executes no plan of that kind.
 */
function readMatrixPlan<T>(kind: PlanKind): T {
  const plan = runConfig().plan;
  if (!plan || plan.kind !== kind) throw new ConfigError(`this run executes no ${kind} plan: ${kind === 'detection' ? 'cpc detect' : 'the variant matrix'} writes the plan and names it in the run configuration`);
  if (!plans.has(plan.file)) plans.set(plan.file, JSON.parse(readFileSync(plan.file, 'utf8')) as unknown);
  return plans.get(plan.file) as T;
}

/** The plan of this `cpc detect` run (lib/protocol.ts), read once per process. */
export const readDetectionPlan = (): DetectionPlan => readMatrixPlan<DetectionPlan>('detection');

/** The plan of this variant-matrix run (lib/protocol.ts), read once per process. */
export const readVariantPlan = (): VariantPlan => readMatrixPlan<VariantPlan>('variants');
