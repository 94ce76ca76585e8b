// Refused mount-update PATCHes judged on a fake lent pod (contract/specs/pods/support/mount-refusals.ts):
// a change is laid to the case that makes it alone, never to an accepted PATCH sent after a
// refused one; what cannot be told (a pod that cannot be put back with cases of several rules,
// a change only cases together make) leaves each rule unchecked with the change seen.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { refusedOn, type LentPodIo, type MountCase } from '../contract/specs/pods/support/mount-refusals.js';
import type { ApiResult } from '../lib/client/api.js';
import type { Mounts, Pod } from '../lib/types.gen.js';

const LENT: Mounts = { network: [{ volumeId: 'vol-1', path: '/data' }] };
const CHANGED: Mounts = { network: [] };
const EMPTY = 'MOUNT.UPDATE.NETWORK_EMPTY_ARRAY_400';
const PERSISTENT = 'MOUNT.UPDATE.PERSISTENT_ON_NETWORK_POD_400';
const OTHER_VOLUME = 'MOUNT.UPDATE.DIFFERENT_VOLUME_ID_400';

/** How the fake pod takes one case: the status it answers, and whether the mounts change (given the PATCHes since the last read). */
interface Takes { status: number; changes?: (sinceRead: readonly string[]) => boolean }

/**
 * A lent pod that answers each case (by title) as `takes` says; `restores`: how many restores
 * succeed (default all); `unreadAt`: the reads (0-based) that fail.
 */
function fakePod(takes: Record<string, Takes>, restores = Infinity, unreadAt: readonly number[] = []) {
  let reads = 0;
  const log: string[] = [];
  let mounts: Mounts = LENT;
  let sinceRead: string[] = [];
  const answer = (status: number): ApiResult<Pod> => ({
    operation: 'updatePod', status, headers: { 'content-type': status >= 400 ? 'application/problem+json' : 'application/json' },
    contentType: status >= 400 ? 'application/problem+json' : 'application/json', text: '{}',
    body: status >= 400 ? { type: 'about:blank', title: 'Bad Request', status, detail: 'refused' } : { id: 'pod-1', mounts }, bytes: 2, durationMs: 0,
  }) as unknown as ApiResult<Pod>;
  const io: LentPodIo = {
    async patch(m) {
      const title = (m as { title: string }).title;
      log.push(`patch ${title}`);
      sinceRead.push(title);
      const t = takes[title]!;
      if (t.changes?.(sinceRead)) mounts = CHANGED;
      return answer(t.status);
    },
    async read() {
      log.push('read');
      sinceRead = [];
      return unreadAt.includes(reads++) ? { unread: 'getPod answered 503' } : mounts;
    },
    async restore() { log.push('restore'); if (restores-- <= 0) return false; mounts = LENT; sinceRead = []; return true; },
  };
  return { io, log };
}

const always = () => true;
const mc = (title: string, rule: string): MountCase => ({ title, rule, expected: 400, mounts: { title } });
const rulesOf = (findings: readonly { rule: string }[]) => findings.map((f) => f.rule);

test('refusedOn: cases that leave the mounts as lent decide every rule with one read', async () => {
  const { io, log } = fakePod({ a: { status: 400 }, b: { status: 400 } });
  const out = await refusedOn(io, LENT, [mc('a', EMPTY), mc('b', PERSISTENT)]);
  assert.deepEqual(out, { findings: [], untold: [], dirty: false });
  assert.deepEqual(log, ['patch a', 'patch b', 'read']);
});

test('refusedOn: a refused PATCH\'s change is laid to it, not to the accepted PATCH after it (was: blamed on the accepted one)', async () => {
  const { io, log } = fakePod({ refusedButChanged: { status: 400, changes: always }, accepted: { status: 200 } });
  const out = await refusedOn(io, LENT, [mc('refusedButChanged', EMPTY), mc('accepted', PERSISTENT)]);
  assert.deepEqual(log, ['patch refusedButChanged', 'patch accepted', 'read', 'restore', 'patch refusedButChanged', 'read']);
  const blamed = out.findings.find((f) => f.rule === EMPTY);
  assert.match(blamed?.message ?? '', /^refusedButChanged: mounts changed .* \(sent again alone on the pod put back as lent\)/);
  // The accepted PATCH fails its own rule for its status only: no change is laid to it.
  const own = out.findings.filter((f) => f.rule === PERSISTENT);
  assert.equal(own.length, 1);
  assert.match(own[0]!.message, /expected 400, got 200/);
  assert.deepEqual(out.untold, []);
  assert.equal(out.dirty, true, 'the pod was left changed by the case sent again');
});

test('refusedOn: an accepted PATCH that changes the mounts itself, with no refusal before it, is its own finding', async () => {
  const { io } = fakePod({ accepted: { status: 200, changes: always } });
  const out = await refusedOn(io, LENT, [mc('accepted', OTHER_VOLUME)]);
  assert.deepEqual(rulesOf(out.findings), [OTHER_VOLUME, OTHER_VOLUME]);
  assert.match(out.findings[1]!.message, /^accepted: mounts changed .* by the accepted PATCH$/);
});

test('refusedOn: a pod that cannot be put back leaves cases of two rules unchecked (was: both rules failed)', async () => {
  const { io, log } = fakePod({ a: { status: 400, changes: always }, b: { status: 400 } }, 0);
  const out = await refusedOn(io, LENT, [mc('a', EMPTY), mc('b', PERSISTENT)]);
  assert.deepEqual(out.findings, []);
  assert.deepEqual(out.untold.map((u) => u.rule), [EMPTY, PERSISTENT]);
  for (const u of out.untold) assert.match(u.reason, /mounts changed from .* after the refused PATCHes a; b, and the pod could not be put back to tell which of a; b changed them/);
  assert.equal(out.dirty, true);
  assert.deepEqual(log, ['patch a', 'patch b', 'read', 'restore']);
});

test('refusedOn: a pod that cannot be put back fails the rule every remaining case shares', async () => {
  const { io } = fakePod({ a: { status: 400, changes: always }, b: { status: 400 } }, 0);
  const out = await refusedOn(io, LENT, [mc('a', EMPTY), mc('b', EMPTY)]);
  assert.deepEqual(rulesOf(out.findings), [EMPTY]);
  assert.match(out.findings[0]!.message, /could not be put back to tell which of a; b changed them/);
  assert.deepEqual(out.untold, []);
});

test('refusedOn: a case shown to make the change alone leaves the rest unchecked when the pod cannot be put back', async () => {
  const { io } = fakePod({ a: { status: 400, changes: always }, b: { status: 400 }, ok: { status: 200 } }, 1);
  // The restore after the accepted PATCH succeeds; the one before the second replay fails.
  const out = await refusedOn(io, LENT, [mc('a', EMPTY), mc('b', EMPTY), mc('ok', PERSISTENT)]);
  assert.deepEqual(rulesOf(out.findings.filter((f) => f.rule === EMPTY)), [EMPTY], 'case a, sent again alone, made the change');
  assert.match(out.findings.find((f) => f.rule === EMPTY)!.message, /^a: .*sent again alone/);
  assert.deepEqual(out.untold.map((u) => `${u.rule} ${u.reason.split(':')[0]}`), [`${EMPTY} b`]);
});

test('refusedOn: one rule shared but an accepted PATCH among the suspects: unchecked, where without it the rule fails', async () => {
  // The replay of a is not read (read 1 fails), and the pod cannot be put back before b's.
  const withAccepted = fakePod({ a: { status: 400, changes: always }, b: { status: 400 }, ok: { status: 200 } }, 1, [1]);
  const out = await refusedOn(withAccepted.io, LENT, [mc('a', EMPTY), mc('b', EMPTY), mc('ok', PERSISTENT)]);
  assert.deepEqual(withAccepted.log, ['patch a', 'patch b', 'patch ok', 'read', 'restore', 'patch a', 'read', 'restore']);
  assert.deepEqual(rulesOf(out.findings), [PERSISTENT], 'only the accepted PATCH\'s status');
  assert.deepEqual(out.untold.map((u) => u.rule), [EMPTY, EMPTY]);
  assert.match(out.untold[1]!.reason, /^b: .*\(accepted\), and the pod could not be put back/);
  const without = fakePod({ a: { status: 400, changes: always }, b: { status: 400 } }, 1, [1]);
  const refusedOnly = await refusedOn(without.io, LENT, [mc('a', EMPTY), mc('b', EMPTY)]);
  assert.deepEqual(rulesOf(refusedOnly.findings), [EMPTY]);
  assert.match(refusedOnly.findings[0]!.message, /could not be put back to tell which of b changed them/);
});

test('refusedOn: a pod not put back after an accepted PATCH leaves the suspects and the cases not yet sent unchecked', async () => {
  const { io, log } = fakePod({ a: { status: 400, changes: always }, ok: { status: 200 }, c: { status: 400 } }, 0);
  const out = await refusedOn(io, LENT, [mc('a', EMPTY), mc('ok', PERSISTENT), mc('c', OTHER_VOLUME)]);
  assert.deepEqual(log, ['patch a', 'patch ok', 'read', 'restore']);
  assert.deepEqual(rulesOf(out.findings), [PERSISTENT]);
  assert.deepEqual(out.untold.map((u) => u.rule), [EMPTY, OTHER_VOLUME]);
  for (const u of out.untold) assert.match(u.reason, /could not be put back as lent after the accepted PATCH with ok/);
  assert.equal(out.dirty, true);
});

test('refusedOn: a change only the cases together make is unchecked for each, with the change seen (was: dropped)', async () => {
  const together = (since: readonly string[]) => since.includes('a') && since.includes('b');
  const { io, log } = fakePod({ a: { status: 400, changes: together }, b: { status: 400, changes: together } });
  const out = await refusedOn(io, LENT, [mc('a', EMPTY), mc('b', PERSISTENT)]);
  assert.deepEqual(out.findings, []);
  assert.deepEqual(out.untold.map((u) => u.rule), [EMPTY, PERSISTENT]);
  for (const u of out.untold) assert.match(u.reason, /mounts changed from .* after the refused PATCHes a; b, yet none of these refused PATCHes sent again alone changed them/);
  assert.deepEqual(log, ['patch a', 'patch b', 'read', 'restore', 'patch a', 'read', 'patch b', 'read']);
  assert.equal(out.dirty, false);
});

test('refusedOn: a read that fails leaves the refused cases before it unchecked with why', async () => {
  const { io } = fakePod({ a: { status: 400 } });
  const unread: LentPodIo = { ...io, read: async () => ({ unread: 'getPod answered 503' }) };
  const out = await refusedOn(unread, LENT, [mc('a', EMPTY)]);
  assert.deepEqual(out.findings, []);
  assert.deepEqual(out.untold, [{ rule: EMPTY, reason: 'a: whether the mounts stayed as lent: getPod answered 503' }]);
});
