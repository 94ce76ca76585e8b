import { spawn } from 'node:child_process';
import { createRequire } from 'node:module';
import { rmSync } from 'node:fs';
import { join, resolve } from 'node:path';
import { request } from 'undici';
import { configToEnv, loadTargetConfig, type ConfigKey, type TargetConfig } from '../../lib/config.js';
import { ConfigError, TargetUnreachableError } from '../../lib/errors.js';
import { loadRules } from '../../lib/rules.js';
import { startEmulator } from '../../emulator/server.js';
import { buildReport, type ConformanceReport } from '../../reports/model.js';
import { readRaw, writeReports } from '../../reports/write.js';
import { textSummary } from '../../reports/summary.js';
import { SUITE_VERSION, PROJECT_ROOT } from '../paths.js';

export interface ConformanceOptions {
  flags: Partial<Record<ConfigKey, string>>;
  outDir: string;
  projects: string[];
  grep?: string;
  workers?: number;
  faults: string[];
  /** Print only the summary, not every test line. */
  quiet: boolean;
}

export interface ConformanceOutcome { report: ConformanceReport; exitCode: number; files: string[] }

/** Probes the target: any HTTP answer counts as reachable. */
async function reachable(url: string): Promise<string | undefined> {
  try {
    const res = await request(url, { method: 'GET', signal: AbortSignal.timeout(10_000) });
    await res.body.dump();
    return undefined;
  } catch (e) {
    return (e as Error).message;
  }
}

/**
 * The main job: resolve the target (start the embedded emulator when none is configured),
 * run the contract and property suites through Playwright, build the result model from the
 * raw results, and write every report format. An interrupted run still writes a report.
 */
export async function runConformance(options: ConformanceOptions): Promise<ConformanceOutcome> {
  const config: TargetConfig = loadTargetConfig(process.env, options.flags);
  if (options.faults.length > 0 && config.kind === 'remote') throw new ConfigError('--faults applies to the embedded emulator only');
  const startedAt = new Date();
  const outDir = resolve(options.outDir);
  const rawDir = join(outDir, 'raw');
  rmSync(rawDir, { recursive: true, force: true });

  let emulator: Awaited<ReturnType<typeof startEmulator>> | undefined;
  let env: Record<string, string>;
  if (config.kind === 'embedded') {
    emulator = await startEmulator({ port: 0, host: '127.0.0.1' });
    env = { CPC_BASE_URL: emulator.url, CPC_SERVERLESS_URL: emulator.url, CPC_REST_V1_URL: emulator.url, CPC_TARGET_KIND: 'embedded' };
  } else {
    const why = await reachable(config.baseUrl!);
    if (why) throw new TargetUnreachableError(config.baseUrl!, why);
    env = { ...configToEnv(config), CPC_TARGET_KIND: 'remote' };
  }

  const playwrightCli = createRequire(import.meta.url).resolve('@playwright/test/cli');
  const args = [playwrightCli, 'test', ...options.projects.map((p) => `--project=${p}`), ...(options.grep ? ['--grep', options.grep] : []),
    ...(options.workers ? [`--workers=${options.workers}`] : []), ...(options.quiet ? ['--reporter=dot,./reports/playwright-reporter.ts'] : [])];
  let interruption: string | undefined;
  const code = await new Promise<number>((done) => {
    const child = spawn(process.execPath, args, {
      cwd: PROJECT_ROOT,
      stdio: ['ignore', 'inherit', 'inherit'],
      env: { ...process.env, ...env, CPC_RAW_DIR: rawDir, CPC_EMULATOR_FAULTS: options.faults.join(','), FORCE_COLOR: process.stdout.isTTY ? '1' : '0' },
    });
    const onSignal = (signal: NodeJS.Signals) => {
      interruption = `interrupted by ${signal}`;
      child.kill(signal);
    };
    process.once('SIGINT', onSignal);
    process.once('SIGTERM', onSignal);
    child.on('exit', (c, signal) => {
      process.off('SIGINT', onSignal);
      process.off('SIGTERM', onSignal);
      done(c ?? (signal ? 130 : 1));
    });
  });

  if (!interruption && config.kind === 'remote') {
    const why = await reachable(config.baseUrl!);
    if (why) interruption = `the target stopped answering (${why})`;
  }
  await emulator?.close();

  const raw = readRaw(rawDir);
  if (!raw.ended && !interruption) interruption = `the test runner ended early (exit code ${code})`;
  const report = buildReport({
    rules: loadRules(),
    raw: raw.tests,
    target: {
      kind: config.kind,
      baseUrl: env.CPC_BASE_URL!, serverlessUrl: env.CPC_SERVERLESS_URL!, restV1Url: env.CPC_REST_V1_URL!,
      emulator: config.kind === 'embedded', faults: options.faults,
    },
    startedAt,
    finishedAt: new Date(),
    complete: interruption === undefined,
    ...(interruption ? { interruption } : {}),
    configuration: { projects: options.projects.join(','), ...(options.grep ? { grep: options.grep } : {}), workers: options.workers ?? 2 },
    suiteVersion: SUITE_VERSION,
  });
  const files = writeReports(report, outDir);
  process.stdout.write('\n' + textSummary(report) + '\n' + `Reports: ${files.map((f) => f.replace(PROJECT_ROOT + '/', '')).join(', ')}\n`);
  const exitCode = interruption?.startsWith('interrupted') ? 130 : report.summary.conformant ? 0 : 1;
  return { report, exitCode, files };
}
