import { failureSignalled, GQL_RULES, graphqlConformance } from '../../../checks/graphql-conformance.js';
import { doc, field, PROBE_TEMPLATE } from './documents.js';
import { fieldsConformance } from './fields.js';
import type { Finding } from '../../../support/rules.js';
import type { GqlKit } from './fixtures.js';

/**
 * The spec gives no query for templates, so whether one exists is read from saveTemplate:
 * names are "Unique across templates; creating a duplicate name fails", and "with `id`
 * modifies". A probe only states what its answer shows; an answer that breaks the response
 * shape is a finding of GQL.HTTP.RESULT_SHAPE, the one rule the probe itself checks.
 */

type Save = { id?: unknown } | null;

const save = (gql: GqlKit, input: Record<string, unknown>) => gql.send(doc.saveTemplate({ ...PROBE_TEMPLATE, isServerless: true, ...input }, 'id'));

const shapeOf = (findings: readonly Finding[]): Finding[] => findings.filter((f) => f.rule === GQL_RULES.shape);

/**
 * "No template is named `name`": a complete serverless template saved under the name succeeds
 * (it would be refused as a duplicate otherwise). It sends an optional field too, so it does
 * not rest on the four-field form GQL.SAVE_TEMPLATE.REQUIRED_ONLY checks. A refusal, or an
 * answer without a template, is a finding of `rule` that `what` explains. The same document
 * then deletes the template by name (never used, it is deletable at once), so the probe leaves
 * nothing behind; that deletion's own answer decides nothing here.
 */
export async function nameIsFree(gql: GqlKit, name: string, rule: string, what: string): Promise<Finding[]> {
  const res = await gql.send(doc.mutation([
    ['saveTemplate', field.saveTemplate({ ...PROBE_TEMPLATE, isServerless: true, name }, 'id')],
    ['tidy', field.deleteTemplate(name)],
  ]));
  const { shape, fields } = fieldsConformance(res, [{ alias: 'saveTemplate', rule }]);
  if (shape.length > 0) return shape;
  const { findings, value } = fields.saveTemplate!;
  if (findings.length === 0 && typeof (value as Save)?.id === 'string') return [];
  return [{ rule, message: `${what}: a template named ${name} seems to exist: saving a new one under its name answered ${res.status}: ${res.text.slice(0, 200)}` }];
}

/**
 * Whether template `t` still exists. Modifying it (its id, same name and probe fields) answers
 * its own id while it exists. Any other refusal is read by name: a new template under its
 * name is refused while it exists and created once it is gone (then deleted by the run-wide
 * cleanup). Asking by id first keeps the answer right on a target that allows duplicate names;
 * asking by name next keeps it right on one that mishandles ids. `exists` is undefined, with
 * the findings that say why, when the answers cannot tell.
 */
export async function templateExists(gql: GqlKit, t: { id: string; name: string }): Promise<{ exists?: boolean; findings: Finding[] }> {
  const byId = await save(gql, { id: t.id, name: t.name });
  const first = graphqlConformance<Save>(byId, 'saveTemplate', 'GQL.SAVE_TEMPLATE.RESULT');
  if (shapeOf(first.findings).length > 0) return { findings: shapeOf(first.findings) };
  if (first.findings.length === 0 && first.value?.id === t.id) return { exists: true, findings: [] };
  // Another template under the same name: the name was free, so `t` is gone.
  if (first.findings.length === 0 && typeof first.value?.id === 'string') return { exists: false, findings: [] };

  const byName = await save(gql, { name: t.name });
  const second = graphqlConformance<Save>(byName, 'saveTemplate', 'GQL.SAVE_TEMPLATE.RESULT');
  if (shapeOf(second.findings).length > 0) return { findings: shapeOf(second.findings) };
  if (second.findings.length === 0 && typeof second.value?.id === 'string') return { exists: false, findings: [] };
  if (failureSignalled(byName)) return { exists: true, findings: [] };
  return {
    findings: [{
      rule: GQL_RULES.signalled,
      message: `saveTemplate of a new template named ${t.name} answered ${byName.status} with neither a template nor an error: ${byName.text.slice(0, 200)}`,
    }],
  };
}

/**
 * Whether deleting an unused template by name works at all: a never-used template is saved and
 * deleted by name at once. Tests call it when a deletion they expected refused, to tell the
 * rule they check from a deleteTemplate that never works (GQL.DELETE_TEMPLATE.BY_NAME's finding).
 */
export async function unusedTemplateDeletes(gql: GqlKit): Promise<Finding[]> {
  const control = await gql.serverlessTemplate('GQL.DELETE_TEMPLATE.BY_NAME');
  const res = await gql.send(doc.deleteTemplate(control.name));
  return graphqlConformance(res, 'deleteTemplate', 'GQL.DELETE_TEMPLATE.BY_NAME').findings
    .map((f) => ({ ...f, message: `deleting a never-used template by name (${control.name}) fails too: ${f.message}` }));
}
