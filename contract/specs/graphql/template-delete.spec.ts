import { test } from './support/fixtures.js';
import { conform, creates, must, observe, rules } from '../../support/rules.js';
import { failureFormat, graphqlConformance, graphqlFailureConformance } from '../../checks/graphql-conformance.js';
import { doc } from './support/documents.js';
import { nameIsFree, templateExists, unusedTemplateDeletes } from './support/template-probe.js';
import type { GqlKit, TemplateResult } from './support/fixtures.js';
import type { Emu } from '../../support/fixtures.js';
import type { Finding } from '../../support/rules.js';
import { TEMPLATE_DELETION_DELAY_MS } from '../../../lib/iso/spec-constants.js';

/** A finding of `rule` unless template `t` still exists (see templateExists). */
async function stillExists(gql: GqlKit, t: TemplateResult, rule: string, what: string): Promise<Finding[]> {
  const { exists, findings } = await templateExists(gql, t);
  return exists === false ? [{ rule, message: `template ${t.name} no longer exists: ${what}` }] : findings;
}

/** Lets the deletion delay pass: the virtual clock on the emulator, real time elsewhere. */
async function waitOutDelay(emu: Emu): Promise<void> {
  if (emu.available) await emu.advance(TEMPLATE_DELETION_DELAY_MS);
  else await new Promise((r) => setTimeout(r, TEMPLATE_DELETION_DELAY_MS + 5_000));
}

// Spec, GraphQL rule 4: "`deleteTemplate` identifies the template by its name, not its id".
// Lifecycle rule 2: "A template can be deleted only when no pod or serverless endpoint uses it;
// deletion can take up to 2 minutes after the template's most recent use." Each test deletes
// (or tries to) a template of its own: the template under test is never the pooled one.
test.describe('deleteTemplate', () => {
  test('deletes by name and answers null; the id passed as templateName deletes nothing',
    rules('GQL.DELETE_TEMPLATE.BY_NAME', 'TEMPLATE.DELETE.UNUSED_OK', creates({ templates: 2 })),
    async ({ gql }) => {
      const rule = 'GQL.DELETE_TEMPLATE.BY_NAME';
      const t = await gql.serverlessTemplate(rule);
      const byId = await gql.send(doc.deleteTemplate(t.id));
      // Deleting by name below needs the template still there.
      conform(await stillExists(gql, t, rule, `deleteTemplate(templateName: <its id>) deleted it (${byId.status}: ${byId.text.slice(0, 120)})`));
      const byName = await gql.send(doc.deleteTemplate(t.name));
      const { findings, value } = graphqlConformance(byName, 'deleteTemplate', 'TEMPLATE.DELETE.UNUSED_OK');
      conform(findings, must(value === null, rule, `data.deleteTemplate is ${JSON.stringify(value)}, not null`));
      conform(await nameIsFree(gql, t.name, rule, 'the template was still there after deleting it by name'));
    });

  test('refuses a template an endpoint uses, even 2 minutes after the endpoint was saved: it fails and the template is not deleted',
    rules('TEMPLATE.DELETE.IN_USE_FAILS', 'GQL.ERRORS.FAILURE_SIGNALLED', 'GQL.ERRORS.NO_RESULT_FOR_FAILED_OP', 'GQL.ERRORS.FORMAT', creates({ endpoints: 1, templates: 1 })),
    async ({ gql, emu }) => {
      const rule = 'TEMPLATE.DELETE.IN_USE_FAILS';
      const template = await gql.serverlessTemplate(rule);
      await gql.endpoint(template.id, rule, { workersMax: 0 });
      // Past the deletion delay since the endpoint was saved, only the use itself can refuse it.
      if (emu.available) await emu.advance(TEMPLATE_DELETION_DELAY_MS + 1_000);
      const res = await gql.send(doc.deleteTemplate(template.name));
      observe('GQL.ERRORS.FORMAT', failureFormat(res, 'deleteTemplate'));
      const { exists, findings } = await templateExists(gql, template);
      conform(findings);
      conform(graphqlFailureConformance(res, 'deleteTemplate', rule, { effect: !exists }),
        must(exists === true, rule, `the template in use was deleted (${res.status}: ${res.text.slice(0, 120)})`));
    });

  test('succeeds once 2 minutes have passed since the template was last used; an earlier attempt is recorded',
    rules('LIMIT.TEMPLATE.DELETE_DELAY_2_MIN', 'TEMPLATE.DELETE.WITHIN_DELAY', 'TEMPLATE.DELETE.UNUSED_OK', creates({ endpoints: 1, templates: 1 })),
    async ({ gql, emu }) => {
      test.setTimeout(emu.available ? 30_000 : 240_000);
      const rule = 'LIMIT.TEMPLATE.DELETE_DELAY_2_MIN';
      const template = await gql.serverlessTemplate(rule);
      const endpoint = await gql.endpoint(template.id, rule, { workersMin: 0, workersMax: 0 });
      await gql.ok('deleteEndpoint', doc.deleteEndpoint(endpoint.id), rule);
      const early = await gql.send(doc.deleteTemplate(template.name));
      const earlyOk = graphqlConformance(early, 'deleteTemplate', rule).findings.length === 0;
      observe('TEMPLATE.DELETE.WITHIN_DELAY', earlyOk ? 'deleted at once after its last use' : `refused right after its last use: ${early.status} ${early.text.slice(0, 160)}`);
      if (earlyOk) return;
      await waitOutDelay(emu);
      const later = await gql.send(doc.deleteTemplate(template.name));
      const findings = graphqlConformance(later, 'deleteTemplate', rule).findings;
      // A refusal is the delay's only if deleting an unused template by name works at all.
      if (findings.some((f) => f.rule === rule)) conform(await unusedTemplateDeletes(gql));
      conform(findings.map((f) => ({ ...f, message: `2 minutes after its last use: ${f.message}` })));
    });
});
