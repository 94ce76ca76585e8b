import type { ApiResult } from '../../../../lib/client/api.js';
import type { Mounts, Pod } from '../../../../lib/types.gen.js';
import { rejectionConformance } from '../../../checks/rejection.js';
import type { ExpectedStatus } from '../../../checks/status.js';
import { isUnread, type Unread } from '../../../support/reads.js';
import { titled, type Finding } from '../../../support/rules.js';
import { sameMounts } from './lent.js';

/** One mount change PATCHed onto a lent pod, which the spec says is refused with `expected`. */
export interface MountCase { readonly title: string; readonly rule: string; readonly expected: ExpectedStatus; readonly mounts: unknown }

/** What {@link refusedOn} asks of the lent pod: a PATCH of its mounts, a read of them, putting them back as lent. */
export interface LentPodIo {
  patch(mounts: unknown): Promise<ApiResult<Pod>>;
  /** The pod's mounts now, or `Unread` (contract/support/reads.ts `podMounts`). */
  read(): Promise<Mounts | undefined | Unread>;
  restore(): Promise<boolean>;
}

/**
 * What the cases sent to one pod decided: their findings, the rules a case left undecided (each
 * with why, for `unchecked`), and whether the pod may be left other than as lent.
 */
export interface MountOutcome { findings: Finding[]; untold: { rule: string; reason: string }[]; dirty: boolean }

/**
 * The cases sent to one lent pod (mounts `lent`), one after the other, its mounts read once
 * after them (a request each on a rate-limited account), and after any PATCH that was not
 * refused (that one broke its rule already). A read that shows the mounts changed after refused
 * PATCHes (with or without an accepted one after them) leaves each of those refused cases a
 * suspect: each is sent again alone on the pod put back as lent, with a read after it, so a
 * case fails for the change it makes itself, never for another's. What cannot be told is left
 * undecided, with the change seen as the reason: a read that failed, a change no case makes
 * again alone, a pod that cannot be put back (unless every case it leaves shares one rule,
 * none of the cases sent again made the change, and no accepted PATCH was among them: then that
 * rule is broken whichever case broke it).
 */
export async function refusedOn(io: LentPodIo, lent: Mounts, cases: readonly MountCase[]): Promise<MountOutcome> {
  const findings: Finding[] = [];
  const untold: { rule: string; reason: string }[] = [];
  const leave = (rest: readonly MountCase[], reason: string) => { for (const c of rest) untold.push({ rule: c.rule, reason: `${c.title}: ${reason}` }); };
  const changed = (now: Mounts | undefined) => `mounts changed from ${JSON.stringify(lent)} to ${JSON.stringify(now)}`;
  const titles = (list: readonly MountCase[]) => list.map((c) => c.title).join('; ');
  let pending: MountCase[] = [];
  const suspects: MountCase[] = [];
  const seen: string[] = [];
  let accepted = false;
  /** Whether the pod is known as lent now (read so, or put back): a case sent again needs no restore first. */
  let asLent = true;
  for (const [i, c] of cases.entries()) {
    const res = await io.patch(c.mounts);
    asLent = false;
    findings.push(...titled(c.title, rejectionConformance(c.rule, res, c.expected)));
    if (res.status >= 400) { pending.push(c); continue; }
    const now = await io.read();
    const after = pending;
    pending = [];
    if (!isUnread(now) && sameMounts(now, lent)) { asLent = true; continue; }
    if (isUnread(now)) leave(after, `whether the mounts stayed as lent: ${now.unread}`);
    else if (after.length === 0) findings.push(...titled(c.title, [{ rule: c.rule, message: `${changed(now)} by the accepted PATCH` }]));
    else { suspects.push(...after); seen.push(`${changed(now)} after the PATCHes ${titles(after)} (refused) and ${c.title} (accepted)`); accepted = true; }
    if (!await io.restore()) {
      leave([...suspects, ...cases.slice(i + 1)], `the pooled pod could not be put back as lent after the accepted PATCH with ${c.title}: not sent to it as lent`);
      return { findings, untold, dirty: true };
    }
    asLent = true;
  }
  if (pending.length) {
    const now = await io.read();
    asLent = !isUnread(now) && sameMounts(now, lent);
    if (isUnread(now)) leave(pending, `whether the mounts stayed as lent: ${now.unread}`);
    else if (!asLent) { suspects.push(...pending); seen.push(`${changed(now)} after the refused PATCHes ${titles(pending)}`); }
  }
  return replay(io, lent, suspects, { findings, untold, seen: seen.join('; '), accepted, asLent });
}

/** Sends each suspect again alone on the pod put back as lent (see {@link refusedOn}). */
async function replay(io: LentPodIo, lent: Mounts, suspects: readonly MountCase[], so: { findings: Finding[]; untold: MountOutcome['untold']; seen: string; accepted: boolean; asLent: boolean }): Promise<MountOutcome> {
  const { findings, untold } = so;
  const leave = (rest: readonly MountCase[], reason: string) => { for (const c of rest) untold.push({ rule: c.rule, reason: `${c.title}: ${reason}` }); };
  let reproduced = false;
  let asLent = so.asLent;
  for (const [i, c] of suspects.entries()) {
    if (!asLent && !await io.restore()) {
      const rest = suspects.slice(i);
      const rules = [...new Set(rest.map((r) => r.rule))];
      const why = `${so.seen}, and the pod could not be put back to tell which of ${rest.map((r) => r.title).join('; ')} changed them`;
      if (rules.length === 1 && !reproduced && !so.accepted) findings.push({ rule: rules[0]!, message: why });
      else leave(rest, why);
      return { findings, untold, dirty: true };
    }
    await io.patch(c.mounts);
    const now = await io.read();
    asLent = !isUnread(now) && sameMounts(now, lent);
    if (isUnread(now)) { leave([c], `${so.seen}; the read after it was sent again alone: ${now.unread}`); continue; }
    if (!asLent) { reproduced = true; findings.push(...titled(c.title, [{ rule: c.rule, message: `mounts changed from ${JSON.stringify(lent)} to ${JSON.stringify(now)} (sent again alone on the pod put back as lent)` }])); }
  }
  if (suspects.length && !reproduced) leave(suspects, `${so.seen}, yet none of these refused PATCHes sent again alone changed them: which request did cannot be told`);
  return { findings, untold, dirty: !asLent };
}
