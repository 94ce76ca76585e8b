import { validate, type ValidationIssue } from '../../lib/schema-registry.js';
import type { FaultId } from '../switches.js';
import { liveFields, withLiveFields, type LiveFields } from '../http/live-fields.js';
import { ProblemError, problem, type Reply } from '../http/reply.js';
import type { World } from '../world.js';

/**
 * Request-body validation of the pods surface: the same JSON Schemas the suite holds targets
 * to (`schemas/`), turned into problems with one `errors[]` string per issue, each naming its
 * JSON pointer (`/gpu/foo: unknown property "foo" is not allowed`).
 *
 * Status (spec, Errors): an incomplete mount entry is 422 ("syntactically valid but fail
 * validation (for example an incomplete mount entry)"); every other schema violation is 400
 * ("Request malformed or conflicts with rules"). A body with both kinds of issue answers 400:
 * the rule conflict is reported first, with every issue listed.
 */
export type BodySchema = 'create-pod-request' | 'update-pod-request' | 'pod-action-request' | 'network-volume-request' | 'network-volume-update-request';

/** A missing `size`/`path` of the persistent mount, or `volumeId`/`path` of a network entry. */
const INCOMPLETE_MOUNT = /^\/mounts\/(persistent\/(size|path)|network\/\d+\/(volumeId|path))$/;

export const isIncompleteMount = (issue: ValidationIssue): boolean => issue.keyword === 'required' && INCOMPLETE_MOUNT.test(issue.path);

const valueAt = (body: unknown, pointer: string): unknown =>
  pointer.split('/').slice(1).reduce<unknown>((v, k) => (v !== null && typeof v === 'object' ? (v as Record<string, unknown>)[k] : undefined), body);

/** Faults that make the emulator overlook one kind of schema issue (each breaks one rule). */
const RELAXATIONS: readonly { fault: FaultId; drops(issue: ValidationIssue, body: unknown): boolean }[] = [
  { fault: 'pods.mounts-both-accepted', drops: (i) => i.path === '/mounts' && i.keyword === 'not' },
  { fault: 'pods.network-two-accepted', drops: (i) => i.path === '/mounts/network' && i.keyword === 'maxItems' },
  { fault: 'pods.persistent-size-9-accepted', drops: (i, b) => i.path === '/mounts/persistent/size' && i.keyword === 'minimum' && valueAt(b, i.path) === 9 },
  { fault: 'pods.network-object-accepted', drops: (i, b) => i.path === '/mounts/network' && i.keyword === 'type' && typeof valueAt(b, i.path) === 'object' },
  { fault: 'pods.ports-format-accepted', drops: (i) => /^\/ports\/\d+$/.test(i.path) && i.keyword === 'pattern' },
  { fault: 'pods.cloud-any-accepted', drops: (i) => i.path === '/cloud' && i.keyword === 'enum' },
  { fault: 'pods.persistent-on-cpu-accepted', drops: (i) => i.path === '/mounts/persistent' && i.keyword === 'false schema' },
  { fault: 'pods.gpu-count-0-accepted', drops: (i) => i.path === '/gpu/count' && i.keyword === 'minimum' },
  { fault: 'pods.vcpu-not-power-of-two-accepted', drops: (i, b) => i.path === '/cpu/vcpuCount' && i.keyword === 'enum' && (valueAt(b, i.path) as number) >= 2 },
  { fault: 'pods.cpu-memory-accepted', drops: (i) => i.path === '/cpu/memory' && i.keyword === 'additionalProperties' },
  { fault: 'pods.unknown-root-property-accepted', drops: (i) => i.keyword === 'additionalProperties' && /^\/[^/]+$/.test(i.path) },
  { fault: 'pods.gpu-unknown-property-accepted', drops: (i) => i.keyword === 'unevaluatedProperties' && i.path.startsWith('/gpu/') },
  { fault: 'pods.empty-name-accepted', drops: (i) => i.path === '/name' && i.keyword === 'minLength' },
  { fault: 'pods.image-not-required', drops: (i) => i.path === '/image' && i.keyword === 'required' },
  { fault: 'pods.both-gpu-and-cpu-accepted', drops: (i, b) => i.path === '' && i.keyword === 'oneOf' && valueAt(b, '/gpu') !== undefined },
];

/** The live platform's extra request fields, by body schema (platform-notes). */
const LIVE: Partial<Record<BodySchema, LiveFields>> = {
  'create-pod-request': liveFields('create-pod-live-fields'),
  'update-pod-request': liveFields('update-pod-live-fields'),
};

/**
 * Validates a request body against its schema, with the live platform's extra fields allowed
 * (see {@link LIVE}); throws the problem to answer when it fails.
 * `incompleteFault` names the fault that answers an incomplete mount entry (within `incompleteFaultScope`)
 * with 400 instead of 422.
 */
export function validateBody(world: World, schema: BodySchema, body: unknown, options: { incompleteFault?: FaultId; incompleteFaultScope?: RegExp } = {}): void {
  if (body === undefined) throw new ProblemError(problem('bad-request', 'A JSON body is required.'));
  const checked = validate(schema, body);
  if (checked.valid) return;
  const live = LIVE[schema];
  // With its live fields taken, a body may have no issue left (then it is valid).
  const result = { issues: live ? withLiveFields(live, body, checked.issues) : checked.issues };
  const issues = result.issues.filter((i) => !RELAXATIONS.some((r) => world.fault(r.fault) && r.drops(i, body)));
  if (issues.length === 0) return;
  // Fault pods.errors-first-only: errors[] names the first failure only.
  const reported = world.fault('pods.errors-first-only') ? issues.slice(0, 1) : issues;
  const faulty = options.incompleteFault !== undefined && world.fault(options.incompleteFault)
    && issues.some((i) => (options.incompleteFaultScope ?? /.*/).test(i.path));
  const incompleteOnly = issues.every(isIncompleteMount) && !faulty;
  if (incompleteOnly) throw new ProblemError(issuesProblem('unprocessable', reported));
  // Variant `validation.422`: the live description's 422 for a body that breaks the schema; rules across fields stay 400.
  // (The fault that answers an incomplete mount with 400 still does.)
  if (!faulty && world.variant('validation.422') && !issues.some(isRuleAcrossFields)) throw new ProblemError(issuesProblem('schema-422', reported));
  throw new ProblemError(issuesProblem('validation-failed', reported));
}

/**
 * Issues of a rule that ties fields together (spec, 400 "conflicts with rules": both mount
 * kinds, exactly one of `gpu` and `cpu`, persistent mounts disallowed on CPU pods), as opposed
 * to a field's own type, presence, name or range.
 */
const ACROSS_FIELDS: ReadonlySet<string> = new Set(['not', 'oneOf', 'anyOf', 'false schema', 'if', 'then', 'else', 'dependentRequired', 'dependentSchemas']);
const isRuleAcrossFields = (issue: ValidationIssue): boolean => ACROSS_FIELDS.has(issue.keyword);

/** The problem for a list of issues; `errors[]` has one string per issue. */
export function issuesProblem(kind: 'unprocessable' | 'schema-422' | 'validation-failed' | 'bad-request', issues: readonly ValidationIssue[]): Reply {
  const lines = issues.map((i) => `${i.path === '' ? '(root)' : i.path}: ${i.message}`);
  const count = `${issues.length} issue${issues.length === 1 ? '' : 's'}`;
  const detail = kind === 'unprocessable' ? `The body is well formed but a mount entry is incomplete (${count}).`
    : kind === 'schema-422' ? `The body is well formed but breaks the request schema (${count}).`
      : `The body breaks the request rules (${count}).`;
  return problem(kind === 'schema-422' ? 'unprocessable' : kind, detail, lines);
}

/** A rule conflict the handler finds after the schema passed (unknown flavor, wrong data center...): 400. */
export function conflict(path: string, message: string): ProblemError {
  return new ProblemError(issuesProblem('bad-request', [{ path, keyword: 'handler', message }]));
}
