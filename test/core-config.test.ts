// @own-process: starts cpc processes.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { loadTargetConfig, configToEnv, flagOf } from '../lib/config.js';
import { ConfigError } from '../lib/errors.js';
import { loadProfile, DEFAULT_PROFILE } from '../lib/profile.js';
import { parseRunConfig } from '../lib/run-config.js';
import { mkdtempSync, writeFileSync, rmSync } from 'node:fs';
import { join } from 'node:path';
import { tmpdir } from 'node:os';
import { spawnSync } from 'node:child_process';

test('with nothing set, the embedded emulator is the target', () => {
  assert.deepEqual(loadTargetConfig({}), { kind: 'embedded' });
});

test('a remote target defaults its other surfaces to the base URL and trims slashes', () => {
  const c = loadTargetConfig({ CPC_BASE_URL: 'https://api.example.test/', CPC_API_KEY: 'k-123456' });
  assert.equal(c.kind, 'remote');
  assert.equal(c.serverlessUrl, 'https://api.example.test');
  assert.deepEqual(configToEnv(c), { CPC_BASE_URL: 'https://api.example.test', CPC_SERVERLESS_URL: 'https://api.example.test', CPC_REST_V1_URL: 'https://api.example.test', CPC_API_KEY: 'k-123456' });
});

test('flags win over the environment', () => {
  const c = loadTargetConfig({ CPC_BASE_URL: 'http://a.test' }, { baseUrl: 'http://b.test' });
  assert.equal(c.kind === 'remote' && c.baseUrl, 'http://b.test');
  assert.equal(flagOf('restV1Url'), 'rest-v1-url');
  assert.equal(flagOf('apiKeyReadonly'), 'api-key-readonly');
});

const invalid: [string, Record<string, string>, RegExp][] = [
  ['not a URL', { CPC_BASE_URL: 'not a url' }, /CPC_BASE_URL is not a valid URL/],
  ['another scheme', { CPC_BASE_URL: 'ftp://x.test' }, /http or https/],
  ['credentials in the URL', { CPC_BASE_URL: 'https://user:pw@x.test' }, /credentials/],
  ['a query', { CPC_BASE_URL: 'https://x.test/?a=1' }, /query/],
  ['a bad serverless URL', { CPC_BASE_URL: 'https://x.test', CPC_SERVERLESS_URL: '::' }, /CPC_SERVERLESS_URL/],
  ['a key without a base URL', { CPC_API_KEY: 'abcdef' }, /without CPC_BASE_URL/],
];
for (const [name, env, message] of invalid) {
  test(`configuration error: ${name}`, () => {
    assert.throws(() => loadTargetConfig(env), (e: unknown) => e instanceof ConfigError && e.code === 'ERR_CPC_CONFIG' && message.test(e.message));
  });
}

// The target profile (lib/profile.ts): what the suite creates pods with, and its time bounds.
test('the target profile: defaults, a file, and variables that win over the file', () => {
  assert.deepEqual(loadProfile({}), DEFAULT_PROFILE);
  assert.equal(DEFAULT_PROFILE.podArgs, 'sleep infinity', 'test pods run a long-running command by default');
  const dir = mkdtempSync(join(tmpdir(), 'cpc-profile-'));
  try {
    const file = join(dir, 'profile.json');
    writeFileSync(file, JSON.stringify({ gpuType: 'NVIDIA A40', cpuFlavor: 'cpu3c', dataCenter: 'EU-RO-1', podImage: 'alpine:3', podArgs: 'sleep 3600', readyTimeoutMs: 900000 }));
    const p = loadProfile({ CPC_PROFILE: file, CPC_GPU_TYPE: 'NVIDIA L4', CPC_POD_POLL_MS: '2000' });
    assert.deepEqual(p, { ...DEFAULT_PROFILE, gpuType: 'NVIDIA L4', cpuFlavor: 'cpu3c', dataCenter: 'EU-RO-1', podImage: 'alpine:3', podArgs: 'sleep 3600', readyTimeoutMs: 900000, pollMs: 2000 });
    const bad: [string, Record<string, string>, string, RegExp][] = [
      ['a poll interval that is not a number', { CPC_POD_POLL_MS: 'soon' }, 'CPC_POD_POLL_MS', /CPC_POD_POLL_MS must be an integer/],
      ['a readiness bound below a second', { CPC_POD_READY_TIMEOUT_MS: '5' }, 'CPC_POD_READY_TIMEOUT_MS', /from 1000/],
      ['a negative rate-limit budget', { CPC_RATE_LIMIT_BUDGET_MS: '-1' }, 'CPC_RATE_LIMIT_BUDGET_MS', /CPC_RATE_LIMIT_BUDGET_MS/],
      ['a missing profile file', { CPC_PROFILE: join(dir, 'none.json') }, 'CPC_PROFILE', /cannot read .*ENOENT/],
    ];
    writeFileSync(join(dir, 'typo.json'), JSON.stringify({ gpu: 'x' }));
    bad.push(['an unknown field in the file', { CPC_PROFILE: join(dir, 'typo.json') }, 'CPC_PROFILE', /unknown field\(s\) gpu/]);
    writeFileSync(join(dir, 'types.json'), JSON.stringify({ podImage: 7 }));
    bad.push(['a field of the wrong type in the file', { CPC_PROFILE: join(dir, 'types.json') }, 'CPC_POD_IMAGE', /field "podImage" .*non-empty string/]);
    writeFileSync(join(dir, 'broken.json'), '{"podImage": ');
    bad.push(['a file that is not JSON', { CPC_PROFILE: join(dir, 'broken.json') }, 'CPC_PROFILE', /is not JSON/]);
    for (const [name, env, variable, message] of bad) {
      assert.throws(() => loadProfile(env), (e: unknown) => e instanceof ConfigError && e.setting === variable && message.test(e.message), name);
      // Read once with the run's configuration, so the CLI stops with exit 2 before a run starts.
      assert.throws(() => parseRunConfig({ CPC_BASE_URL: 'https://x.test', ...env }), (e: unknown) => e instanceof ConfigError && e.setting === variable, `${name} (run config)`);
    }
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
});

test('cpc conformance with an invalid profile value exits 2 naming the variable, before anything runs', () => {
  const r = spawnSync(process.execPath, ['--import', 'tsx', 'bin/cpc.ts', 'conformance'], {
    env: { ...process.env, CPC_BASE_URL: 'http://127.0.0.1:9', CPC_API_KEY: 'k-123456', CPC_POD_READY_TIMEOUT_MS: 'ten minutes' }, encoding: 'utf8', timeout: 60_000,
  });
  assert.equal(r.status, 2, r.stderr);
  assert.match(r.stderr + r.stdout, /CPC_POD_READY_TIMEOUT_MS must be an integer/);
  assert.doesNotMatch(r.stderr, /\n\s+at /, 'no stack trace');
});
