import { test } from 'node:test';
import assert from 'node:assert/strict';
import { RateLimiter, rateLimitHeaders } from '../emulator/rate-limit.js';
import { readRateLimit } from '../lib/iso/rate-limit-fields.js';
import { chooseSeed } from '../lib/run-config.js';
import fc from 'fast-check';
import { serializeList } from 'structured-headers';

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
  const snapshot = readRateLimit({ ratelimit: headers.RateLimit, 'ratelimit-policy': headers['RateLimit-Policy'] });
  assert.deepEqual(snapshot.problems, []);
  assert.deepEqual(snapshot.limit.minute, { r: 59, t: 12 });
  assert.deepEqual(snapshot.policy.day, { q: 50000, w: 86400 });
});

test('the parser reports members that name no window, missing windows and bad parameters as problems', () => {
  const { problems } = readRateLimit({ ratelimit: '1;r=1;t=2', 'ratelimit-policy': '"minute";q=x;w=60, "hour";q=1;w=3600' });
  const messages = problems.map((p) => `${p.kind}: ${p.message}`);
  assert.ok(messages.some((m) => m.startsWith('syntax') && m.includes('neither a String nor a Token')), messages.join('\n'));
  assert.ok(messages.some((m) => m.startsWith('windows') && m.includes('"day"')), messages.join('\n'));
  assert.ok(messages.some((m) => m.startsWith('syntax') && m.includes('parameter q')), messages.join('\n'));
});

test('window names written as Tokens are read like Strings (the spec names the windows, not the item type)', () => {
  const snapshot = readRateLimit({
    ratelimit: 'minute;r=59;t=12, hour;r=2999;t=3552, day;r=49999;t=86352',
    'ratelimit-policy': 'minute;q=60;w=60, "hour";q=3000;w=3600, day;q=50000;w=86400',
  });
  assert.deepEqual(snapshot.problems, []);
  assert.deepEqual(snapshot.limit.minute, { r: 59, t: 12 });
  assert.deepEqual(snapshot.policy.day, { q: 50000, w: 86400 });
});

test('Decimal parameters are reported even though they parse to whole numbers', () => {
  const { problems, limit } = readRateLimit({
    ratelimit: '"minute";r=59.0;t=12, "hour";r=2999;t=3552, "day";r=49999;t=86352',
    'ratelimit-policy': '"minute";q=60;w=60, "hour";q=3000;w=3600, "day";q=50000;w=86400',
  });
  assert.deepEqual(problems.map((p) => `${p.header} ${p.kind}: ${p.message}`), ['ratelimit syntax: RateLimit "minute" parameter r=59.0 is a Decimal, not an Integer']);
  // The value is still read, so a client can pace by it.
  assert.deepEqual(limit.minute, { r: 59, t: 12 });
});

test('the RateLimit fields are exactly what structured-headers serialises, for any counts and quotas', () => {
  const seed = chooseSeed(process.env, 9651);
  const count = fc.oneof(fc.nat({ max: 100_000 }), fc.integer(), fc.constantFrom(999_999_999_999_999, 1e15, -1, 0.5, Number.MAX_SAFE_INTEGER));
  const window = fc.record({ remaining: count, resetSeconds: count, quota: count, seconds: count });
  const names = ['minute', 'hour', 'day'] as const;
  fc.assert(fc.property(fc.array(window, { minLength: 1, maxLength: 3 }), (ws) => {
    const windows = ws.map((w, i) => ({ ...w, name: names[i]! }));
    const serialise = (a: string, b: string, pick: (w: (typeof windows)[number]) => [number, number]): string => {
      try {
        return serializeList(windows.map((w) => [w.name, new Map([[a, pick(w)[0]], [b, pick(w)[1]]])]));
      } catch (e) {
        return `error: ${(e as Error).name}`;
      }
    };
    const expected = [serialise('r', 't', (w) => [w.remaining, w.resetSeconds]), serialise('q', 'w', (w) => [w.quota, w.seconds])];
    let ours: string[];
    try {
      const h = rateLimitHeaders(windows);
      ours = [h.RateLimit, h['RateLimit-Policy']];
    } catch (e) {
      ours = [`error: ${(e as Error).name}`];
    }
    // A count RFC 9651 cannot carry (over 15 digits, or not whole) is refused as the library refuses it.
    assert.deepEqual(ours, expected.some((v) => v.startsWith('error')) ? ['error: Error'] : expected);
  }), { seed, numRuns: 500 });
});
