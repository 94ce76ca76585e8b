// The run configuration (lib/run-config.ts): parsed from a user's variables (an env object,
// never this process's), handed to Playwright as one variable, read back through the same type.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { ConfigError } from '../lib/errors.js';
import { redactText } from '../lib/redact.js';
import { MAX_SEED, chooseSeed, decodeRunConfig, parseEmbeddedRunConfig, parseRunConfig, runConfigEnv, userSettings } from '../lib/run-config.js';
import { RUN_CONFIG_VARIABLE } from '../lib/protocol.js';

test('with nothing set: the embedded emulator, a chosen seed, the suite\'s default budgets', () => {
  const c = parseRunConfig({});
  // Pending until the run starts it: global setup (or the command line) resolves it, once.
  assert.equal(c.target.kind, 'pending');
  assert.deepEqual(c.target.kind === 'pending' && c.target.setting, { kind: 'embedded' });
  assert.match(c.runId ?? '', /^[0-9a-f]{8}$/, 'a run id every name the run makes carries');
  assert.ok(Number.isInteger(c.seed) && c.seed >= 0 && c.seed <= MAX_SEED, String(c.seed));
  assert.equal(c.propertyRuns, 200);
  assert.equal(c.jobModelRuns, 60);
  assert.deepEqual([c.faults, c.variants, c.allowPropertyLoad, c.allowRateLimitExhaustion], [[], [], false, false]);
  assert.equal(c.profile.podImage, 'busybox:latest');
});

test('every user variable lands in its typed field', () => {
  const c = parseRunConfig({
    CPC_BASE_URL: 'https://api.example.test/', CPC_API_KEY: 'k-main-123456', CPC_TEMPLATE_ID: 'tpl1', CPC_MODEL_ENDPOINT_ID: 'model1',
    CPC_SEED: '42', CPC_PATH: '3:1', CPC_WORKERS: '4', CPC_PROPERTY_RUNS: '7', CPC_JOB_MODEL_RUNS: '9',
    CPC_ALLOW_PROPERTY_LOAD: '1', CPC_ALLOW_RATE_LIMIT_EXHAUSTION: '1', CPC_EMULATOR_FAULTS: 'a, b', CPC_EMULATOR_VARIANTS: 'live', CPC_GPU_TYPE: 'NVIDIA L4',
  });
  const setting = c.target.kind === 'pending' ? c.target.setting : undefined;
  assert.equal(setting?.kind, 'remote');
  assert.equal(setting?.kind === 'remote' && setting.baseUrl, 'https://api.example.test');
  assert.deepEqual([c.templateId, c.modelEndpointId, c.seed, c.replayPath, c.workers, c.propertyRuns, c.jobModelRuns], ['tpl1', 'model1', 42, '3:1', 4, 7, 9]);
  assert.deepEqual([c.allowPropertyLoad, c.allowRateLimitExhaustion, c.faults, c.variants], [true, true, ['a', 'b'], ['live']]);
  assert.equal(c.profile.gpuType, 'NVIDIA L4');
});

test('target flags win over the variables, as in lib/config', () => {
  const { target } = parseRunConfig({ CPC_BASE_URL: 'http://a.test' }, { baseUrl: 'http://b.test' });
  assert.equal(target.kind === 'pending' && target.setting.kind === 'remote' && target.setting.baseUrl, 'http://b.test');
});

test('it travels as one variable holding JSON and reads back the same, its keys registered for redaction on read', () => {
  const key = 'k-travels-9f3e2d1c';
  assert.equal(redactText(`the log says ${key}`).includes(key), true, 'not registered before the read');
  const env = runConfigEnv(parseRunConfig({ CPC_BASE_URL: 'http://x.test', CPC_API_KEY_OTHER: 'k-other-1', CPC_API_KEY: 'k-main-1', CPC_SEED: '5' }));
  assert.deepEqual(Object.keys(env), [RUN_CONFIG_VARIABLE]);
  const back = decodeRunConfig(env[RUN_CONFIG_VARIABLE]!.replace('k-main-1', key));
  assert.equal(back.seed, 5);
  assert.equal(back.target.kind === 'pending' && back.target.setting.kind === 'remote' && back.target.setting.apiKey, key);
  assert.equal(redactText(`the log says ${key}`).includes(key), false);
});

test('bad values are configuration errors that name their variable', () => {
  const cases: [Record<string, string>, string][] = [
    [{ CPC_SEED: '-1' }, 'CPC_SEED'], [{ CPC_SEED: String(MAX_SEED + 1) }, 'CPC_SEED'], [{ CPC_WORKERS: '0' }, 'CPC_WORKERS'],
    [{ CPC_PROPERTY_RUNS: 'many' }, 'CPC_PROPERTY_RUNS'], [{ CPC_JOB_MODEL_RUNS: '1.5' }, 'CPC_JOB_MODEL_RUNS'], [{ CPC_POD_POLL_MS: '1' }, 'CPC_POD_POLL_MS'],
  ];
  for (const [env, variable] of cases) {
    assert.throws(() => parseRunConfig(env), (e: unknown) => e instanceof ConfigError && e.setting === variable && e.message.includes(variable), variable);
  }
  assert.throws(() => userSettings({ CPC_EMULATOR_PORT: '70000' }), (e: unknown) => e instanceof ConfigError && e.setting === 'CPC_EMULATOR_PORT');
  assert.throws(() => userSettings({ CPC_MUTATION_SEED: 'x' }), (e: unknown) => e instanceof ConfigError && e.setting === 'CPC_MUTATION_SEED');
});

test('a broken hand-off is a configuration error, never a stack trace in a worker', () => {
  for (const text of ['{', '{}', JSON.stringify({ target: { kind: 'other' }, seed: 1 })]) {
    assert.throws(() => decodeRunConfig(text), (e: unknown) => e instanceof ConfigError && e.setting === RUN_CONFIG_VARIABLE, text);
  }
});

test('a run that always tests the embedded emulator ignores the target variables but keeps the rest', () => {
  const c = parseEmbeddedRunConfig({ CPC_BASE_URL: 'https://api.example.test', CPC_API_KEY: 'k-1234567', CPC_SEED: '11', CPC_EMULATOR_VARIANTS: 'live' });
  assert.deepEqual(c.target.kind === 'pending' && c.target.setting, { kind: 'embedded' });
  assert.deepEqual([c.seed, c.variants], [11, ['live']]);
});

test('the seed: the variable when given, else the fallback, else a fresh one in range', () => {
  assert.equal(chooseSeed({ CPC_SEED: ' 17 ' }), 17);
  assert.equal(chooseSeed({}, 9651), 9651);
  assert.equal(chooseSeed({ CPC_MUTATION_SEED: '3' }, 1, 'CPC_MUTATION_SEED'), 3);
  const fresh = chooseSeed({});
  assert.ok(Number.isInteger(fresh) && fresh >= 0 && fresh <= MAX_SEED);
});

test('user settings of the commands: the standalone emulator, the load runner, the mutation run', () => {
  assert.deepEqual(userSettings({}), { emulatorVariants: [], mutation: { seed: 424242, propertyRuns: 40, jobModelRuns: 60, workers: 2 } });
  const s = userSettings({ CPC_EMULATOR_PORT: '0', CPC_EMULATOR_VARIANTS: 'live,x', CPC_LOAD_RUNNER: 'node', CPC_LOAD_VUS: '3', CPC_MUTATION_WORKERS: '1' });
  assert.deepEqual([s.emulatorPort, s.emulatorVariants, s.loadRunner, s.loadVus, s.mutation.workers], [0, ['live', 'x'], 'node', 3, 1]);
});

test('Playwright\'s environment: the run configuration as its one CPC_ variable; without NODE_EXTRA_CA_CERTS only when every request stays on loopback', async () => {
  const { playwrightChildEnv } = await import('../run/playwright.js');
  const { loopbackOnlyEnv } = await import('../run/paths.js');
  const parent = { PATH: '/usr/bin', NODE_EXTRA_CA_CERTS: '/etc/ssl/certs/ca-certificates.crt', CPC_API_KEY: 'k-parent-1', CPC_SEED: '9' };
  const embedded = playwrightChildEnv(parent, { ...parseRunConfig({ CPC_SEED: '3' }), target: { kind: 'embedded', control: true, baseUrl: 'http://127.0.0.1:4010', serverlessUrl: 'http://127.0.0.1:4010', restV1Url: 'http://127.0.0.1:4010' } }, { FORCE_COLOR: '0' });
  assert.deepEqual(Object.keys(embedded).sort(), ['FORCE_COLOR', 'PATH', RUN_CONFIG_VARIABLE].sort(), 'no CA bundle, no second CPC_ answer');
  assert.equal(decodeRunConfig(embedded[RUN_CONFIG_VARIABLE]!).seed, 3);
  const remote = playwrightChildEnv(parent, parseRunConfig({ CPC_BASE_URL: 'https://api.example.test', CPC_SEED: '3' }));
  assert.equal(remote.NODE_EXTRA_CA_CERTS, parent.NODE_EXTRA_CA_CERTS, 'a deployment may need the extra certificates');
  assert.equal(remote.CPC_API_KEY, undefined);
  assert.deepEqual(loopbackOnlyEnv(parent), { PATH: '/usr/bin', CPC_API_KEY: 'k-parent-1', CPC_SEED: '9' });
  assert.equal(parent.NODE_EXTRA_CA_CERTS, '/etc/ssl/certs/ca-certificates.crt', 'the parent\'s environment is left as it was');
});
