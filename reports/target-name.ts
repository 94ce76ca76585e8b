/**
 * Which target a report belongs to, for a history of nightly runs and for `--previous`: the
 * label the run was given (`--target-name`, the profile's `targetName`), else its base URL. Every
 * run of the embedded emulator is one target whatever port it was bound to that night.
 */
import type { ConformanceReport, TargetIdentity } from './model.js';

export const EMBEDDED_TARGET_NAME = 'embedded emulator';

/** The name a run gets when none was given. */
export const defaultTargetName = (kind: TargetIdentity['kind'], baseUrl?: string): string =>
  kind === 'embedded' ? EMBEDDED_TARGET_NAME : (baseUrl ?? 'remote target');

/** A report's target name; reports written before names existed get the default. */
export const targetNameOf = (report: ConformanceReport): string =>
  report.target.name ?? defaultTargetName(report.target.kind, report.target.baseUrl);
