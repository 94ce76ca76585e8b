import { test } from 'node:test';
import assert from 'node:assert/strict';
import { loadTargetConfig, configToEnv, flagOf } from '../lib/config.js';
import { ConfigError } from '../lib/errors.js';

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
  assert.equal(c.baseUrl, 'http://b.test');
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
    assert.throws(() => loadTargetConfig(env), (e: unknown) => e instanceof ConfigError && e.code === 'CPC_CONFIG_INVALID' && message.test(e.message));
  });
}
