import { test } from 'node:test';
import assert from 'node:assert/strict';
import { RateLimiter, rateLimitHeaders } from '../emulator/rate-limit.js';
import { readRateLimit } from '../lib/rate-limit-headers.js';

test('a window admits exactly its quota, then refuses naming the exhausted window', () => {
  const rl = new RateLimiter({ minute: 3, hour: 100, day: 1000 });
  const now = 60_000 * 10 + 15_000;
  for (let i = 0; i < 3; i++) assert.equal(rl.check('a', now).allowed, true);
  const refused = rl.check('a', now);
  assert.equal(refused.allowed, false);
  if (!refused.allowed) {
    assert.equal(refused.exceeded.name, 'minute');
    assert.equal(refused.exceeded.resetSeconds, 45);
  }
});

test('refused requests do not count, and a new window admits again', () => {
  const rl = new RateLimiter({ minute: 1, hour: 100, day: 1000 });
  assert.equal(rl.check('a', 0).allowed, true);
  assert.equal(rl.check('a', 1000).allowed, false);
  assert.equal(rl.check('a', 2000).allowed, false);
  const next = rl.check('a', 60_000);
  assert.equal(next.allowed, true);
  assert.equal(next.windows.find((w) => w.name === 'hour')!.remaining, 98);
});

test('accounts are counted apart', () => {
  const rl = new RateLimiter({ minute: 1, hour: 100, day: 1000 });
  assert.equal(rl.check('a', 0).allowed, true);
  assert.equal(rl.check('b', 0).allowed, true);
  assert.equal(rl.check('a', 0).allowed, false);
});

test('when several windows are exhausted, the one that resets last is named', () => {
  const rl = new RateLimiter({ minute: 1, hour: 1, day: 5 });
  rl.check('a', 0);
  const refused = rl.check('a', 10_000);
  assert.equal(refused.allowed, false);
  if (!refused.allowed) assert.equal(refused.exceeded.name, 'hour');
});

test('headers serialise as RFC 9651 lists that the suite parses back', () => {
  const rl = new RateLimiter({ minute: 60, hour: 3000, day: 50000 });
  const d = rl.check('a', 48_000);
  const headers = rateLimitHeaders(d.windows);
  assert.equal(headers['RateLimit-Policy'], '"minute";q=60;w=60, "hour";q=3000;w=3600, "day";q=50000;w=86400');
  assert.equal(headers.RateLimit, '"minute";r=59;t=12, "hour";r=2999;t=3552, "day";r=49999;t=86352');
  const { snapshot, problems } = readRateLimit({ ratelimit: headers.RateLimit, 'ratelimit-policy': headers['RateLimit-Policy'] });
  assert.deepEqual(problems, []);
  assert.deepEqual(snapshot.limit.minute, { r: 59, t: 12 });
  assert.deepEqual(snapshot.policy.day, { q: 50000, w: 86400 });
});

test('the parser reports tokens, missing windows and bad parameters as problems', () => {
  const { problems } = readRateLimit({ ratelimit: 'minute;r=1;t=2', 'ratelimit-policy': '"minute";q=x;w=60, "hour";q=1;w=3600' });
  const messages = problems.map((p) => `${p.kind}: ${p.message}`);
  assert.ok(messages.some((m) => m.startsWith('syntax') && m.includes('not a quoted String')), messages.join('\n'));
  assert.ok(messages.some((m) => m.startsWith('windows') && m.includes('"day"')), messages.join('\n'));
  assert.ok(messages.some((m) => m.startsWith('syntax') && m.includes('parameter q')), messages.join('\n'));
});

test('Decimal parameters are reported even though they parse to whole numbers', () => {
  const { problems } = readRateLimit({
    ratelimit: '"minute";r=59.0;t=12, "hour";r=2999;t=3552, "day";r=49999;t=86352',
    'ratelimit-policy': '"minute";q=60;w=60, "hour";q=3000;w=3600, "day";q=50000;w=86400',
  });
  assert.deepEqual(problems.map((p) => p.message), ['ratelimit: parameter r=59.0 is a Decimal, not an Integer']);
});
