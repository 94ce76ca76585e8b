import { test } from './support/fixtures.js';
import { conform, creates, must, observe, rules } from '../../support/rules.js';
import { failureFormat, graphqlFailureConformance } from '../../checks/graphql-conformance.js';
import { schemaConformance } from '../../checks/schema.js';
import { doc, field, PROBE_TEMPLATE } from './support/documents.js';
import { fieldsConformance } from './support/fields.js';
import { nameIsFree } from './support/template-probe.js';
import type { GqlKit, TemplateResult } from './support/fixtures.js';
import type { Finding } from '../../support/rules.js';

const FAILURE_RULES = ['GQL.ERRORS.FAILURE_SIGNALLED', 'GQL.ERRORS.NO_RESULT_FOR_FAILED_OP'] as const;

// Spec, Template (GraphQL view) and GraphQL rule 3: "`saveTemplate` requires `containerDiskInGb`,
// `imageName`, `name`, `volumeInGb`"; `env` is a "list of `{key: string, value: string}`"; `ports`
// a "Comma-separated list of `<port>/<protocol>`"; `volumeInGb` "Must be 0 for serverless templates".
// A template no endpoint uses is deletable at once ("A template can be deleted only when no pod or
// serverless endpoint uses it"), so a test that only reads a save's answer deletes the template by
// name in the same document, after the save: the deletion's answer decides nothing here.
test.describe('saveTemplate', () => {
  test('creates a template and returns the selected fields as sent: env as key/value pairs, ports, isServerless',
    rules('GQL.SAVE_TEMPLATE.RESULT', 'TEMPLATE.FIELD_TYPES', 'TEMPLATE.ENV_LIST', 'TEMPLATE.PORTS_FORMAT', 'TEMPLATE.IS_SERVERLESS', 'TEMPLATE.VOLUME_ZERO_SERVERLESS', creates({ templates: 1 })),
    async ({ gql }) => {
      const input = {
        name: gql.name('full'), imageName: 'repo/image:2.1', containerDiskInGb: 20, volumeInGb: 0, dockerArgs: 'python -u handler.py',
        env: [{ key: 'MODEL', value: 'small' }, { key: 'EMPTY', value: '' }], ports: '8888/http,22/tcp', readme: '# readme',
        volumeMountPath: '/workspace', isServerless: true,
      };
      const t = await savedThenDeleted<TemplateResult>(gql, field.saveTemplate(input), input.name, 'GQL.SAVE_TEMPLATE.RESULT');
      conform(
        must(typeof t.id === 'string' && t.id.length > 0, 'GQL.SAVE_TEMPLATE.RESULT', `no template id in ${JSON.stringify(t)}`),
        must(t.name === input.name && t.imageName === input.imageName && t.containerDiskInGb === 20, 'GQL.SAVE_TEMPLATE.RESULT', `the result does not echo the input: ${JSON.stringify(t)}`),
        must(JSON.stringify(t.env) === JSON.stringify(input.env), 'TEMPLATE.ENV_LIST', `env came back as ${JSON.stringify(t.env)}`),
        must(t.ports === input.ports, 'TEMPLATE.PORTS_FORMAT', `ports came back as ${JSON.stringify(t.ports)}`),
        must(t.isServerless === true, 'TEMPLATE.IS_SERVERLESS', `isServerless came back as ${JSON.stringify(t.isServerless)}`),
        must(t.volumeInGb === 0, 'TEMPLATE.VOLUME_ZERO_SERVERLESS', `a serverless template came back with volumeInGb ${JSON.stringify(t.volumeInGb)}`),
        schemaConformance('TEMPLATE.FIELD_TYPES', 'template', t),
      );
    });

  // Rule 3 names the four required fields and the Template view marks every other one "no".
  test('with only its four required fields succeeds', rules('GQL.SAVE_TEMPLATE.REQUIRED_ONLY', creates({ templates: 1 })), async ({ gql }) => {
    const name = gql.name('four');
    const t = await savedThenDeleted<TemplateResult>(gql, field.saveTemplate({ ...PROBE_TEMPLATE, name }, 'id name'), name, 'GQL.SAVE_TEMPLATE.REQUIRED_ONLY');
    conform(must(t.name === name && typeof t.id === 'string', 'GQL.SAVE_TEMPLATE.REQUIRED_ONLY', `the result does not name the template: ${JSON.stringify(t)}`));
  });

  // The spec's schema makes the four fields required: a 5xx breaks BAD_DOCUMENT_REFUSED. The
  // three inputs with a name share it, so that one probe shows none of them created a template
  // (the probe saves a template under it, and deletes it).
  test('without containerDiskInGb, imageName, name or volumeInGb: each fails and creates nothing',
    rules('GQL.SAVE_TEMPLATE.REQUIRED', 'GQL.HTTP.BAD_DOCUMENT_REFUSED', ...FAILURE_RULES, creates({ templates: 1 })),
    async ({ gql }) => {
      const rule = 'GQL.SAVE_TEMPLATE.REQUIRED';
      const name = gql.name('req');
      const findings: Finding[] = [];
      for (const missing of ['containerDiskInGb', 'imageName', 'name', 'volumeInGb'] as const) {
        const input: Record<string, unknown> = { ...PROBE_TEMPLATE, name };
        delete input[missing];
        const res = await gql.send(doc.saveTemplate(input, 'id'));
        findings.push(...graphqlFailureConformance(res, 'saveTemplate', rule, { invalidDocument: true }).map((f) => ({ ...f, message: `without ${missing}: ${f.message}` })));
      }
      conform(findings, await nameIsFree(gql, name, rule, 'saveTemplate without containerDiskInGb, imageName or volumeInGb'));
    });

  test('a serverless template with volumeInGb other than 0 fails and creates nothing', rules('TEMPLATE.VOLUME_ZERO_SERVERLESS', ...FAILURE_RULES, creates({ templates: 1 })), async ({ gql }) => {
    const name = gql.name('vol');
    const res = await gql.send(doc.saveTemplate({ ...PROBE_TEMPLATE, name, volumeInGb: 10, isServerless: true }, 'id volumeInGb'));
    conform(graphqlFailureConformance(res, 'saveTemplate', 'TEMPLATE.VOLUME_ZERO_SERVERLESS'),
      await nameIsFree(gql, name, 'TEMPLATE.VOLUME_ZERO_SERVERLESS', 'the serverless template with a volume'));
  });

  test('a duplicate name fails: no second template is created and no result returned',
    rules('TEMPLATE.NAME_UNIQUE', 'GQL.ERRORS.FAILURE_SIGNALLED', 'GQL.ERRORS.NO_RESULT_FOR_FAILED_OP', 'GQL.ERRORS.FORMAT', creates({ templates: 2 })),
    async ({ gql }) => {
      const rule = 'TEMPLATE.NAME_UNIQUE';
      const template = await gql.serverlessTemplate('GQL.SAVE_TEMPLATE.RESULT');
      const dup = await gql.send(doc.saveTemplate({ ...PROBE_TEMPLATE, name: template.name, imageName: 'other/image:9', isServerless: true }, 'id'));
      observe('GQL.ERRORS.FORMAT', failureFormat(dup, 'saveTemplate'));
      conform(graphqlFailureConformance(dup, 'saveTemplate', rule));
      // Exactly one template of that name: once it is deleted by name, the name is free again.
      await gql.ok('deleteTemplate', doc.deleteTemplate(template.name), rule);
      conform(await nameIsFree(gql, template.name, rule, 'a second template was created: after deleting the first by name'));
    });

  test('with the id of an existing template modifies it: same id, changes applied; without id a new id',
    rules('TEMPLATE.ID_MODIFIES', 'GQL.SAVE_TEMPLATE.RESULT', creates({ templates: 2 })),
    async ({ gql }) => {
      const rule = 'TEMPLATE.ID_MODIFIES';
      const name = gql.name('mod');
      const { value: created } = await gql.ok<TemplateResult>('saveTemplate', doc.saveTemplate({ ...PROBE_TEMPLATE, name, isServerless: true }, 'id name imageName'), rule);
      const { value: updated } = await gql.ok<TemplateResult>('saveTemplate',
        doc.saveTemplate({ ...PROBE_TEMPLATE, id: created.id, name, imageName: 'repo/image:3.0', containerDiskInGb: 9 }, 'id name imageName containerDiskInGb'), rule);
      // A new template without id; then both are deleted by name in the same document.
      const otherName = gql.name('mod2');
      const res = await gql.send(doc.mutation([
        ['saveTemplate', field.saveTemplate({ ...PROBE_TEMPLATE, name: otherName, isServerless: true }, 'id')],
        ['tidy0', field.deleteTemplate(name)],
        ['tidy1', field.deleteTemplate(otherName)],
      ]));
      const { shape, fields } = fieldsConformance(res, [{ alias: 'saveTemplate', rule }]);
      conform(shape, fields.saveTemplate!.findings);
      const other = fields.saveTemplate!.value as { id: string };
      conform(
        must(updated.id === created.id, rule, `the update answered id ${updated.id}, not ${created.id}`),
        must(updated.imageName === 'repo/image:3.0' && updated.containerDiskInGb === 9, rule, `the changes were not applied: ${JSON.stringify(updated)}`),
        must(other.id !== created.id, rule, `a template saved without id reused id ${other.id}`),
      );
    });
});

/**
 * A template saved by `saveField` (which must succeed: a failure is `rule`'s finding), then
 * deleted by name in the same document. Returns the save's result, `data.saveTemplate`.
 */
async function savedThenDeleted<T>(gql: GqlKit, saveField: string, name: string, rule: string): Promise<T> {
  const res = await gql.send(doc.mutation([['saveTemplate', saveField], ['tidy', field.deleteTemplate(name)]]));
  const { shape, fields } = fieldsConformance(res, [{ alias: 'saveTemplate', rule }]);
  conform(shape, fields.saveTemplate!.findings);
  return fields.saveTemplate!.value as T;
}
