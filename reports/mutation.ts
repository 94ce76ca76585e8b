/**
 * Reads Stryker's JSON report (`reports/out/mutation/mutation.json`, the mutation-testing
 * report schema) and the list of equivalent mutants (`mutation/equivalent.json`) into the
 * report's `mutation` section. Mirrors `reports/load.ts`: absent file, no section.
 */
import { existsSync, readFileSync, statSync } from 'node:fs';
import { isAbsolute, join, relative } from 'node:path';
import { MutationReportError } from '../lib/errors.js';
import type { EquivalentMutant, MutantRef, MutationSection } from './mutation-model.js';

/** One entry of `mutation/equivalent.json`: a survivor and why no honest test can kill it. */
export interface EquivalentEntry {
  file: string;
  line: number;
  mutator: string;
  /** The code the mutant replaces, as it reads in the file. */
  original: string;
  replacement: string;
  reason: string;
}

interface StrykerMutant {
  id: string;
  mutatorName: string;
  replacement?: string;
  status: string;
  location: { start: { line: number; column: number }; end: { line: number; column: number } };
}

interface StrykerReport { files: Record<string, { source: string; mutants: StrykerMutant[] }> }

const isObject = (v: unknown): v is Record<string, unknown> => typeof v === 'object' && v !== null && !Array.isArray(v);

function readJson(file: string): unknown {
  try {
    return JSON.parse(readFileSync(file, 'utf8'));
  } catch (e) {
    throw new MutationReportError(file, `not JSON: ${(e as Error).message}`);
  }
}

const ENTRY_FIELDS: Record<keyof EquivalentEntry, 'string' | 'number'> = { file: 'string', line: 'number', mutator: 'string', original: 'string', replacement: 'string', reason: 'string' };

/** The entries of an equivalent-mutant list; a malformed entry is an error, never skipped. */
export function readEquivalentList(file: string): EquivalentEntry[] {
  if (!existsSync(file)) return [];
  const doc = readJson(file);
  const mutants = isObject(doc) ? doc.mutants : undefined;
  if (!Array.isArray(mutants)) throw new MutationReportError(file, 'expected {"mutants": [...]}');
  return mutants.map((m: unknown, i) => {
    if (!isObject(m)) throw new MutationReportError(file, `mutants[${i}] is not an object`);
    for (const [key, type] of Object.entries(ENTRY_FIELDS)) {
      if (typeof m[key] !== type || m[key] === '') throw new MutationReportError(file, `mutants[${i}].${key} must be a non-empty ${type}`);
    }
    return m as unknown as EquivalentEntry;
  });
}

/** The source text a mutant replaces (Stryker's locations: 1-based lines and columns, end exclusive). */
export function originalText(source: string, loc: StrykerMutant['location']): string {
  const lines = source.split('\n');
  if (loc.start.line === loc.end.line) return (lines[loc.start.line - 1] ?? '').slice(loc.start.column - 1, loc.end.column - 1);
  const parts = [(lines[loc.start.line - 1] ?? '').slice(loc.start.column - 1), ...lines.slice(loc.start.line, loc.end.line - 1), (lines[loc.end.line - 1] ?? '').slice(0, loc.end.column - 1)];
  return parts.join('\n');
}

/**
 * The listed entry for a survivor: same file, mutator, original and replacement; the nearest
 * line wins. An entry accounts for one survivor only: `used` holds the entries already matched,
 * so the same code mutated the same way on two lines needs two entries.
 */
export function matchEquivalent(entries: readonly EquivalentEntry[], file: string, mutant: StrykerMutant, original: string, used: Set<EquivalentEntry> = new Set()): EquivalentEntry | undefined {
  const same = entries.filter((e) => !used.has(e) && e.file === file && e.mutator === mutant.mutatorName && e.replacement === (mutant.replacement ?? '') && e.original === original);
  return same.sort((a, b) => Math.abs(a.line - mutant.location.start.line) - Math.abs(b.line - mutant.location.start.line))[0];
}

const percent = (detected: number, valid: number): number => (valid === 0 ? 100 : Math.round((detected / valid) * 10_000) / 100);

const display = (file: string, root: string): string => {
  const rel = relative(root, file);
  return rel.startsWith('..') || isAbsolute(rel) ? file : rel;
};

/** The `mutation` section from Stryker's report and the equivalent list; undefined without a report. */
export function readMutationResults(reportFile: string, equivalentFile: string, root: string = process.cwd()): MutationSection | undefined {
  if (!existsSync(reportFile)) return undefined;
  const doc = readJson(reportFile);
  if (!isObject(doc) || !isObject(doc.files)) throw new MutationReportError(reportFile, 'not a Stryker mutation report (no "files")');
  const entries = readEquivalentList(equivalentFile);
  const counts = { Killed: 0, Survived: 0, Timeout: 0, NoCoverage: 0, Ignored: 0 } as Record<string, number>;
  const equivalent: EquivalentMutant[] = [];
  const unresolved: MutantRef[] = [];
  const used = new Set<EquivalentEntry>();
  for (const [file, { source, mutants }] of Object.entries((doc as unknown as StrykerReport).files)) {
    for (const m of mutants) {
      counts[m.status] = (counts[m.status] ?? 0) + 1;
      if (m.status !== 'Survived' && m.status !== 'NoCoverage') continue;
      const ref: MutantRef = { id: m.id, file, line: m.location.start.line, mutator: m.mutatorName, ...(m.replacement !== undefined ? { replacement: m.replacement } : {}) };
      const listed = matchEquivalent(entries, file, m, originalText(source, m.location), used);
      if (listed) {
        used.add(listed);
        equivalent.push({ ...ref, reason: listed.reason });
      }
      else unresolved.push(ref);
    }
  }
  const killed = counts.Killed ?? 0, timeout = counts.Timeout ?? 0, survived = counts.Survived ?? 0, noCoverage = counts.NoCoverage ?? 0;
  const total = killed + timeout + survived + noCoverage;
  return {
    score: percent(killed + timeout, total),
    scoreExcludingEquivalent: percent(killed + timeout, total - equivalent.length),
    killed, survived, timeout, noCoverage, total, ignored: counts.Ignored ?? 0,
    generatedAt: statSync(reportFile).mtime.toISOString(),
    file: display(reportFile, root),
    equivalent, unresolved,
  };
}

/**
 * For the commands that write a report: the section of `<outDir>/mutation/mutation.json`, or
 * undefined with a warning when a file cannot be read (a run's report is never lost to it).
 */
export function mutationSectionOf(outDir: string, root: string): MutationSection | undefined {
  try {
    return readMutationResults(join(outDir, 'mutation', 'mutation.json'), join(root, 'mutation', 'equivalent.json'), root);
  } catch (e) {
    process.stderr.write(`cpc: warning: mutation results left out of the report: ${(e as Error).message}\n`);
    return undefined;
  }
}
