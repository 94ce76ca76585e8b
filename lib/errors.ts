/**
 * The error catalog: every error the product throws on purpose, one class each, with a stable
 * `code` under the `ERR_CPC_` prefix (environment variables use `CPC_`, so a code is never
 * mistaken for a setting) and the fields a report or the command line needs. `ERROR_CATALOG`
 * maps each code to its class and the exit code the CLI gives it; test/errors.test.ts walks it.
 *
 * Messages are redacted when the error is made (registered API keys, `Bearer` tokens,
 * `api_key=` values), so an error can be logged or put in a report as it is. The emulator's
 * own answers (`ProblemError`, `GqlOpError`) are the exception: their text is what a client
 * receives, word for word, and never embeds a key.
 *
 * Model: undici's `lib/core/errors.js` (a class per error, a stable `UND_ERR_*` code each).
 */
import type { Evidence } from './evidence.js';
import { redactText } from './redact.js';
import { ControlSurfaceError, LoadConfigError, StructuredFieldError } from './iso/errors.js';

interface CpcErrorOptions extends ErrorOptions {
  /**
   * An answer the emulator sends, not a failure: the message is kept as given (never redacted),
   * and no stack is captured: nothing ever reads it, and capturing one would be paid by every
   * refused request (the property suites send thousands).
   */
  reply?: boolean;
}

/** Base of every catalogued error: `instanceof CpcError` means "thrown on purpose, with a code". */
export abstract class CpcError extends Error {
  /** Stable, unique, `ERR_CPC_*`: a key of {@link ERROR_CATALOG}. */
  abstract readonly code: string;
  constructor(message: string, options: CpcErrorOptions = {}) {
    const { reply, ...errorOptions } = options;
    const frames = Error.stackTraceLimit;
    if (reply) Error.stackTraceLimit = 0;
    try {
      super(reply ? message : redactText(message), errorOptions);
    } finally {
      Error.stackTraceLimit = frames;
    }
    this.name = new.target.name;
  }
}

// ---- Configuration and input: the command line exits 2 -----------------------------------

/** Bad configuration (an environment variable, a flag, a file): names the setting when one is at fault. */
export class ConfigError extends CpcError {
  readonly code: string = 'ERR_CPC_CONFIG';
  constructor(message: string, readonly setting?: string) {
    super(message);
  }
}

/** A command line the CLI cannot parse: a configuration error that also shows the command's usage. */
export class UsageError extends ConfigError {
  override readonly code: string = 'ERR_CPC_USAGE';
  constructor(message: string, readonly usage: string) {
    super(message);
  }
}

/** The target offers no key for this role (`setting` is the variable that would give it); tests that need it skip. */
export class MissingKeyError extends ConfigError {
  override readonly code: string = 'ERR_CPC_MISSING_KEY';
  constructor(readonly role: string, setting: string) {
    super(`the target has no ${role} key (set ${setting})`, setting);
  }
}

/** The target could not be reached at all. */
export class TargetUnreachableError extends CpcError {
  readonly code = 'ERR_CPC_TARGET_UNREACHABLE';
  constructor(readonly url: string, cause: string) {
    super(`cannot reach ${url}: ${cause}`);
  }
}

/** The emulator's control surface refused a call (`status` is its answer). */
export class ControlError extends CpcError {
  readonly code = 'ERR_CPC_CONTROL';
  constructor(message: string, readonly status?: number) {
    super(message);
  }
}

/** Fault ids the emulator's catalog does not know. */
export class UnknownFaultError extends CpcError {
  readonly code = 'ERR_CPC_UNKNOWN_FAULT';
  constructor(readonly ids: readonly string[]) {
    super(`unknown fault id(s): ${ids.join(', ')}`);
  }
}

/** Variant (or variant set) names the emulator's catalog does not know; `known` lists the ones it does. */
export class UnknownVariantError extends CpcError {
  readonly code = 'ERR_CPC_UNKNOWN_VARIANT';
  constructor(readonly ids: readonly string[], readonly known: readonly string[]) {
    super(`unknown variant(s): ${ids.join(', ')} (known: ${known.join(', ')})`);
  }
}

/** A mutation-testing report (or its equivalent-mutant list) that cannot be read. */
export class MutationReportError extends CpcError {
  readonly code = 'ERR_CPC_MUTATION_REPORT_INVALID';
  constructor(readonly file: string, message: string) {
    super(`${file}: ${message}`);
  }
}

// ---- Verdicts: what a test found, or what stopped it ---------------------------------------

/** The exchange a finding was read from (an ApiResult is one): shown first in the rule's evidence. */
export interface FindingExchange {
  readonly operation: string;
  /** Set when the answer says the operation itself is missing (lib/client/absence.ts). */
  readonly absent?: string;
  readonly evidence: Evidence;
}

/** A failed expectation attributed to the rule it breaks, with the exchange that broke it when one did. */
export interface Finding { rule: string; message: string; exchange?: FindingExchange }

/** Findings read from one answer, each carrying it (unless it names its own): its evidence then leads. */
export const readFrom = (exchange: FindingExchange, findings: readonly Finding[]): Finding[] =>
  findings.map((f) => (f.exchange ? f : { ...f, exchange }));

/**
 * The target breaks rules: `findings` name each rule (`ruleIds`, without repeats). The one
 * error a check, a property or a model throws about the target; reports/verdicts.ts fails
 * exactly the rules it names.
 */
export class NonConformanceError extends CpcError {
  readonly code = 'ERR_CPC_NONCONFORMANT';
  readonly ruleIds: readonly string[];
  constructor(readonly findings: readonly Finding[]) {
    super(`the target breaks ${findings.length} expectation(s):\n${findings.map((f) => `  [${f.rule}] ${f.message}`).join('\n')}`);
    this.ruleIds = [...new Set(findings.map((f) => f.rule))];
  }
}

/**
 * The one way findings become a thrown error: throws a {@link NonConformanceError} naming every
 * finding when the lists hold any, else returns.
 */
export function throwFindings(...lists: readonly (readonly Finding[])[]): void {
  const findings = lists.flat();
  if (findings.length > 0) throw new NonConformanceError(findings);
}

/**
 * A fast-check property failed: fast-check's report, the replay command, and the findings of
 * the counterexample's error (none when a plain error stopped it: its rules are blocked).
 */
export class PropertyFailure extends CpcError {
  readonly code = 'ERR_CPC_PROPERTY_FAILED';
  readonly ruleIds: readonly string[];
  constructor(report: string, readonly replay: string, readonly findings: readonly Finding[] = []) {
    const named = findings.length ? `the counterexample breaks ${findings.length} expectation(s):\n${findings.map((f) => `  [${f.rule}] ${f.message}`).join('\n')}\n` : 'the property stopped on an error that names no rule (its rules are blocked):\n';
    super(`${named}${report}\nReplay: ${replay}`);
    this.ruleIds = [...new Set(findings.map((f) => f.rule))];
  }
}

/** A step of a test's setup went wrong (not a finding about the target): the test's rules are blocked. */
export class SetupError extends CpcError {
  readonly code: string = 'ERR_CPC_SETUP';
  constructor(message: string, readonly status?: number) {
    super(message);
  }
}

/**
 * A request's connection broke before any answer (a read already tried twice): the network's
 * doing as far as the suite can tell, so it decides no rule. Tests and properties that meet it
 * are blocked with its message.
 */
export class LostAnswerError extends SetupError {
  override readonly code: string = 'ERR_CPC_LOST_ANSWER';
}

/** The target would not make a network volume a property needs in `dataCenterId`. */
export class VolumeUnavailableError extends SetupError {
  override readonly code: string = 'ERR_CPC_VOLUME_UNAVAILABLE';
  constructor(readonly dataCenterId: string, status: number) {
    super(`could not make a network volume in ${dataCenterId} (answer ${status})`, status);
  }
}

// ---- The suite's own data: a broken schema or catalog is a bug of the suite ---------------

/** Rule ids a test declares that the rule catalog does not hold. */
export class UnknownRuleError extends CpcError {
  readonly code = 'ERR_CPC_UNKNOWN_RULE';
  readonly ids: readonly string[];
  constructor(ids: readonly string[]) {
    super(`unknown rule id${ids.length === 1 ? '' : 's'}: ${ids.join(', ')}`);
    this.ids = [...ids];
  }
}

/** A rule file of schemas/rules/ that is not a valid catalog. */
export class RuleCatalogError extends CpcError {
  readonly code = 'ERR_CPC_RULE_CATALOG_INVALID';
  constructor(readonly file: string, message: string) {
    super(`${file}: ${message}`);
  }
}

/** A schema of schemas/ that cannot be loaded, or a schema name that is not there. */
export class SchemaRegistryError extends CpcError {
  readonly code = 'ERR_CPC_SCHEMA_REGISTRY';
  constructor(readonly schema: string, message: string) {
    super(message);
  }
}

/** A schema lacks a fact an arbitrary derives from it (`pointer` into `schemas/<schema>.schema.json`). */
export class SchemaFactError extends CpcError {
  readonly code = 'ERR_CPC_SCHEMA_FACT_MISSING';
  constructor(readonly schema: string, readonly pointer: string, what: string) {
    super(`schemas/${schema}.schema.json${pointer} has no ${what}`);
  }
}

/** Something that cannot happen did: a bug of the suite, never a finding about the target. */
export class InternalError extends CpcError {
  readonly code = 'ERR_CPC_INTERNAL';
}

/** A benchmark (bench/) could not run as planned: a server died, a batch of requests failed. */
export class BenchError extends CpcError {
  readonly code = 'ERR_CPC_BENCH';
}

// ---- The load runner's Node path (run/k6node) ----------------------------------------------

/** An error that ends a load run with a k6 exit code (`exitCode`); the message is what k6 would print. */
export class K6RunError extends CpcError {
  readonly code = 'ERR_CPC_K6_RUN';
  constructor(readonly exitCode: number, message: string) {
    super(message);
  }
}

/** What the Node path's k6 API throws into a script where k6 would throw (a bad argument, `fail()`). */
export class K6ScriptError extends CpcError {
  readonly code = 'ERR_CPC_K6_SCRIPT';
}

/** A load worker thread died; `workerStack` is its own stack when it had one. */
export class WorkerDiedError extends CpcError {
  readonly code = 'ERR_CPC_K6_WORKER_DIED';
  constructor(message: string, readonly workerStack?: string) {
    super(message);
  }
}

/** A load worker did not answer within `ms`. */
export class WorkerTimeoutError extends CpcError {
  readonly code = 'ERR_CPC_K6_TIMEOUT';
  constructor(readonly ms: number) {
    super(`timed out after ${ms} ms`);
  }
}

/** Thrown inside a load worker to unwind a script once the run is aborting. */
export class AbortedError extends CpcError {
  readonly code = 'ERR_CPC_K6_ABORTED';
  constructor(readonly reason: string) {
    super(reason);
  }
}

// ---- The emulator: thrown inside a handler, caught and answered ----------------------------

/** The parts of an HTTP answer a {@link ProblemError} carries (the emulator's `Reply`). */
export interface ProblemReply {
  status: number;
  headers?: Record<string, string | number>;
  body?: unknown;
  contentType?: string;
  text?: string;
}

/** Thrown inside an emulator handler to answer with a problem (`reply`); the app catches it. */
export class ProblemError extends CpcError {
  readonly code = 'ERR_CPC_EMU_PROBLEM';
  constructor(readonly reply: ProblemReply) {
    super(typeof reply.body === 'object' && reply.body !== null && 'detail' in reply.body ? String(reply.body.detail) : 'problem', { reply: true });
  }
}

/**
 * Codes the emulator's GraphQL surface puts in `errors[].extensions.code` (Apollo's names, which
 * GraphQL clients already understand; the choice is in emulator/graphql/CHOICES.md).
 */
export type GqlErrorCode =
  | 'GRAPHQL_PARSE_FAILED'
  | 'GRAPHQL_VALIDATION_FAILED'
  | 'BAD_REQUEST'
  | 'BAD_USER_INPUT'
  | 'NOT_FOUND'
  | 'CONFLICT'
  | 'FORBIDDEN';

/** A refusal an emulator resolver throws on purpose; graphql-js turns it into one `errors[]` entry with `extensionCode`. */
export class GqlOpError extends CpcError {
  readonly code = 'ERR_CPC_EMU_GRAPHQL';
  constructor(readonly extensionCode: GqlErrorCode, message: string, readonly details: readonly string[] = []) {
    super(message, { reply: true });
  }
}

// ---- The catalog ---------------------------------------------------------------------------

// eslint-disable-next-line @typescript-eslint/no-explicit-any -- constructors of every shape
type ErrorClass = abstract new (...args: any[]) => CpcError;

/** One catalogued error: its class, the CLI's exit code for it, and the fields a report reads. */
export interface CatalogEntry {
  readonly error: ErrorClass;
  /** 2: the run could not start with this input or target (configuration); 1: anything else. */
  readonly exit: 1 | 2;
  readonly fields: readonly string[];
}

const entry = (error: ErrorClass, exit: 1 | 2, fields: readonly string[] = []): CatalogEntry => ({ error, exit, fields });

/** Every error code, its class, exit code and fields. */
export const ERROR_CATALOG = {
  ERR_CPC_CONFIG: entry(ConfigError, 2),
  ERR_CPC_USAGE: entry(UsageError, 2, ['usage']),
  ERR_CPC_MISSING_KEY: entry(MissingKeyError, 2, ['role', 'setting']),
  ERR_CPC_TARGET_UNREACHABLE: entry(TargetUnreachableError, 2, ['url']),
  ERR_CPC_CONTROL: entry(ControlError, 2, ['status']),
  ERR_CPC_UNKNOWN_FAULT: entry(UnknownFaultError, 2, ['ids']),
  ERR_CPC_UNKNOWN_VARIANT: entry(UnknownVariantError, 2, ['ids', 'known']),
  ERR_CPC_MUTATION_REPORT_INVALID: entry(MutationReportError, 2, ['file']),
  ERR_CPC_NONCONFORMANT: entry(NonConformanceError, 1, ['findings', 'ruleIds']),
  ERR_CPC_PROPERTY_FAILED: entry(PropertyFailure, 1, ['findings', 'ruleIds', 'replay']),
  ERR_CPC_SETUP: entry(SetupError, 1),
  ERR_CPC_LOST_ANSWER: entry(LostAnswerError, 1),
  ERR_CPC_VOLUME_UNAVAILABLE: entry(VolumeUnavailableError, 1, ['dataCenterId', 'status']),
  ERR_CPC_UNKNOWN_RULE: entry(UnknownRuleError, 1, ['ids']),
  ERR_CPC_RULE_CATALOG_INVALID: entry(RuleCatalogError, 1, ['file']),
  ERR_CPC_SCHEMA_REGISTRY: entry(SchemaRegistryError, 1, ['schema']),
  ERR_CPC_SCHEMA_FACT_MISSING: entry(SchemaFactError, 1, ['schema', 'pointer']),
  ERR_CPC_INTERNAL: entry(InternalError, 1),
  ERR_CPC_BENCH: entry(BenchError, 1),
  ERR_CPC_K6_RUN: entry(K6RunError, 1, ['exitCode']),
  ERR_CPC_K6_SCRIPT: entry(K6ScriptError, 1),
  ERR_CPC_K6_WORKER_DIED: entry(WorkerDiedError, 1),
  ERR_CPC_K6_TIMEOUT: entry(WorkerTimeoutError, 1, ['ms']),
  ERR_CPC_K6_ABORTED: entry(AbortedError, 1, ['reason']),
  ERR_CPC_EMU_PROBLEM: entry(ProblemError, 1, ['reply']),
  ERR_CPC_EMU_GRAPHQL: entry(GqlOpError, 1, ['extensionCode', 'details']),
} as const satisfies Record<string, CatalogEntry>;

export type ErrorCode = keyof typeof ERROR_CATALOG;

/**
 * The errors of code k6 runs (load scripts, lib/iso): defined in lib/iso/errors.ts, plain
 * ECMAScript a k6 bundle can carry, so they extend Error rather than CpcError. Same prefix,
 * same uniqueness; a k6 run reports them as script errors, the Node path exits with these codes.
 */
export const K6_SAFE_ERRORS = {
  ERR_CPC_LOAD_CONFIG: { error: LoadConfigError, exit: 2, fields: [] },
  ERR_CPC_LOAD_CONTROL: { error: ControlSurfaceError, exit: 2, fields: [] },
  ERR_CPC_SF_PARSE: { error: StructuredFieldError, exit: 1, fields: ['at'] },
} as const satisfies Record<string, { error: new (...args: never[]) => Error & { code: string }; exit: 1 | 2; fields: readonly string[] }>;

/**
 * The process exit code for an error that ends a command: the catalog's (2 for configuration
 * and input, 1 otherwise), k6's own code for a {@link K6RunError}, 1 for anything uncatalogued.
 */
export function exitCodeForError(error: unknown): number {
  if (error instanceof K6RunError) return error.exitCode;
  if (error instanceof CpcError) return (ERROR_CATALOG as Record<string, CatalogEntry>)[error.code]?.exit ?? 1;
  if (error instanceof LoadConfigError || error instanceof ControlSurfaceError || error instanceof StructuredFieldError) return K6_SAFE_ERRORS[error.code].exit;
  return 1;
}

/**
 * What a command line prints when a command ends in `error`: one line prefixed with the
 * program's name (a usage error adds the command's usage), never a stack trace.
 */
export function failureText(program: string, error: unknown): string {
  return `${program}: ${errorLine(error)}\n${error instanceof UsageError ? `\n${error.usage}` : ''}`;
}

/**
 * The one line a command prints for an error that ends it (no stack trace, keys redacted):
 * `configuration error: …` for configuration, `<code>: …` for the rest of the catalog,
 * `unexpected error: …` for anything else.
 */
export function errorLine(error: unknown): string {
  if (error instanceof ConfigError) return `configuration error: ${error.message}`;
  if (error instanceof CpcError) return `${error.code}: ${error.message}`;
  return `unexpected error: ${redactText(error instanceof Error ? error.message : String(error))}`;
}
