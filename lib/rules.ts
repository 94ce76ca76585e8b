// The rule catalog: every normative statement of spec/compute-platform-api.md as a rule.
// Tests declare the rule ids they verify; the report gives a verdict per rule.
// The rules live in schemas/rules/*.json (validated by schemas/rule-catalog.schema.json in test/rules.test.ts).
import { readFileSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import { RuleCatalogError, UnknownRuleError } from './errors.js';

export type RuleLevel = 'MUST' | 'OBSERVED';
export type Surface = 'rest-v2' | 'serverless' | 'rest-v1' | 'graphql' | 'all';

export interface Rule {
  id: string;
  level: RuleLevel;
  surface: Surface;
  section: string;
  statement: string;
  quote: string;
  operations?: string[];
  observedExpectation?: string;
}

export const RULE_LEVELS: readonly RuleLevel[] = ['MUST', 'OBSERVED'];
export const SURFACES: readonly Surface[] = ['rest-v2', 'serverless', 'rest-v1', 'graphql', 'all'];

/** Rule files, in schemas/rules/, in load order. */
export const RULE_FILES: readonly string[] = ['common.json', 'rest-v2.json', 'serverless.json', 'rest-v1.json', 'graphql.json'];

/** Absolute path of schemas/rule-catalog.schema.json. */
export const RULE_CATALOG_SCHEMA_PATH: string = fileURLToPath(new URL('../schemas/rule-catalog.schema.json', import.meta.url));

/** Absolute path of one rule file. */
export function ruleFilePath(file: string): string {
  return fileURLToPath(new URL(file, new URL('../schemas/rules/', import.meta.url)));
}

let cache: { rules: readonly Rule[]; byId: ReadonlyMap<string, Rule> } | undefined;

const isObject = (v: unknown): v is Record<string, unknown> => typeof v === 'object' && v !== null && !Array.isArray(v);
const isNonEmptyString = (v: unknown): v is string => typeof v === 'string' && v.length > 0;

/** Shape check used at load time; the full check is the JSON Schema (see test/rules.test.ts). */
function toRule(file: string, index: number, raw: unknown): Rule {
  const where = `rules[${index}]`;
  if (!isObject(raw)) throw new RuleCatalogError(file, `${where} is not an object`);
  for (const key of ['id', 'section', 'statement', 'quote'] as const) {
    if (!isNonEmptyString(raw[key])) throw new RuleCatalogError(file, `${where}.${key} is not a non-empty string`);
  }
  const level = raw['level'];
  if (!RULE_LEVELS.includes(level as RuleLevel)) throw new RuleCatalogError(file, `${where}.level is not one of ${RULE_LEVELS.join(', ')}`);
  const surface = raw['surface'];
  if (!SURFACES.includes(surface as Surface)) throw new RuleCatalogError(file, `${where}.surface is not one of ${SURFACES.join(', ')}`);
  const rule: Rule = {
    id: raw['id'] as string,
    level: level as RuleLevel,
    surface: surface as Surface,
    section: raw['section'] as string,
    statement: raw['statement'] as string,
    quote: raw['quote'] as string,
  };
  const operations = raw['operations'];
  if (operations !== undefined) {
    if (!Array.isArray(operations) || !operations.every(isNonEmptyString)) {
      throw new RuleCatalogError(file, `${where}.operations is not an array of strings`);
    }
    rule.operations = [...operations];
  }
  const expectation = raw['observedExpectation'];
  if (expectation !== undefined) {
    if (!isNonEmptyString(expectation)) throw new RuleCatalogError(file, `${where}.observedExpectation is not a non-empty string`);
    rule.observedExpectation = expectation;
  }
  return Object.freeze(rule);
}

function load(): { rules: readonly Rule[]; byId: ReadonlyMap<string, Rule> } {
  if (cache) return cache;
  const rules: Rule[] = [];
  const byId = new Map<string, Rule>();
  for (const file of RULE_FILES) {
    let doc: unknown;
    try {
      doc = JSON.parse(readFileSync(ruleFilePath(file), 'utf8'));
    } catch (err) {
      throw new RuleCatalogError(file, `cannot be read as JSON (${(err as Error).message})`);
    }
    if (!isObject(doc) || !Array.isArray(doc['rules'])) throw new RuleCatalogError(file, 'has no rules array');
    doc['rules'].forEach((raw: unknown, index: number) => {
      const rule = toRule(file, index, raw);
      if (byId.has(rule.id)) throw new RuleCatalogError(file, `duplicate rule id ${rule.id}`);
      byId.set(rule.id, rule);
      rules.push(rule);
    });
  }
  cache = { rules: Object.freeze(rules), byId };
  return cache;
}

/** All rules of all files, in file order. Loaded once and cached. */
export function loadRules(): readonly Rule[] {
  return load().rules;
}

export function ruleById(id: string): Rule | undefined {
  return load().byId.get(id);
}

/** Throws UnknownRuleError (code ERR_CPC_UNKNOWN_RULE) naming every id that is not in the catalog. */
export function assertRuleIds(ids: readonly string[]): void {
  const { byId } = load();
  const unknown = [...new Set(ids.filter((id) => !byId.has(id)))];
  if (unknown.length > 0) throw new UnknownRuleError(unknown);
}
