import { randomUUID } from 'node:crypto';
import { test } from './support/fixtures.js';
import { conform, creates, must, rules } from '../../support/rules.js';
import { failureSignalled, graphqlConformance, graphqlRefusalConformance } from '../../checks/graphql-conformance.js';
import { schemaConformance } from '../../checks/schema.js';
import { doc } from './support/documents.js';

// Spec, Secret: "Input: `name` string, `value` string. Selectable result fields: `id` string,
// `name` string, `description` string or null." GraphQL: "`secretCreate` | mutation | `input:
// {value, name}` | Selected secret fields (`id`, `name`, `description`)"; rule 4: "`secretDelete`
// identifies the secret by its id". Services: secrets are "stored sensitive values".
test.describe('secrets', () => {
  test('secretCreate with {name, value} returns id, the name sent and a description string or null',
    rules('SECRET.CREATE.INPUT', 'GQL.SECRET_CREATE.RESULT', 'SECRET.RESULT.TYPES', creates({ secrets: 1 })),
    async ({ gql }) => {
      const name = gql.name('sec');
      const { value: s } = await gql.ok<{ id: string; name: string; description: string | null }>('secretCreate', doc.secretCreate({ name, value: 'v-0001' }), 'SECRET.CREATE.INPUT');
      conform(
        must(typeof s?.id === 'string' && s.id.length > 0, 'SECRET.CREATE.INPUT', `no string id: ${JSON.stringify(s)}`),
        must(s?.name === name, 'SECRET.CREATE.INPUT', `the name came back as ${JSON.stringify(s?.name)}`),
        must(s !== null && ['id', 'name', 'description'].every((k) => k in s), 'GQL.SECRET_CREATE.RESULT', `the selected fields id, name, description are not all there: ${JSON.stringify(s)}`),
        schemaConformance('SECRET.RESULT.TYPES', 'secret', s),
      );
    });

  test('the value is never returned: selecting it fails validation, and no answer carries it',
    // The spec does not say secret names are unique: the second save under the name may create a second secret.
    rules('SECRET.RESULT.NO_VALUE', 'GQL.HTTP.BAD_DOCUMENT_REFUSED', creates({ secrets: 1, maybe: { secrets: 1 } })),
    async ({ gql }) => {
      const rule = 'SECRET.RESULT.NO_VALUE';
      // A value no answer could contain by chance; random, not secret (it never leaves the test).
      const value = `cpc-value-${randomUUID()}`;
      const name = gql.name('novalue');
      const answers = [
        await gql.send(doc.secretCreate({ name, value }, 'id name description')),
        await gql.send(doc.secretCreate({ name, value }, 'id name description')),
        await gql.send(doc.myself()),
        await gql.send(`mutation { secretCreate(input: {name: 7, value: ${JSON.stringify(value)}}) { id } }`),
      ];
      const selectValue = await gql.send(doc.secretCreate({ name: gql.name('novalue'), value }, 'id value'));
      conform(
        graphqlConformance(answers[0]!, 'secretCreate', 'SECRET.CREATE.INPUT').findings,
        // `value` is no field of the spec's Secret: a 5xx to it breaks BAD_DOCUMENT_REFUSED.
        graphqlRefusalConformance(selectValue, rule, 'secretCreate selecting value', { invalidDocument: true }),
        [...answers, selectValue].flatMap((res, i) => must(!res.text.includes(value), rule, `answer ${i + 1} (${res.status}) carries the secret value: ${res.text.slice(0, 200)}`)),
      );
    });

  test('secretDelete deletes by id and answers null; the name passed as id deletes nothing',
    rules('GQL.SECRET_DELETE.BY_ID', creates({ secrets: 1 })),
    async ({ gql }) => {
      const rule = 'GQL.SECRET_DELETE.BY_ID';
      const name = gql.name('del');
      const { value: s } = await gql.ok<{ id: string }>('secretCreate', doc.secretCreate({ name, value: 'v' }, 'id'), rule);
      const byName = await gql.send(doc.secretDelete(name));
      const byId = await gql.send(doc.secretDelete(s.id));
      const { findings, value } = graphqlConformance(byId, 'secretDelete', rule);
      const again = await gql.send(doc.secretDelete(s.id));
      // A second deletion shows whether the first removed anything only on a target that refuses
      // to delete an id it does not know (the spec does not say): asked with an id never created,
      // and only when the second deletion succeeded (refused, it already shows the first removed the secret).
      const unknown = failureSignalled(again) ? undefined : await gql.send(doc.secretDelete(`cpc-no-such-secret-${randomUUID()}`));
      conform(
        findings.map((f) => ({ ...f, message: `${f.message} (after secretDelete(id: <its name>) answered ${byName.status}: ${byName.text.slice(0, 120)})` })),
        must(value === null, rule, `data.secretDelete is ${JSON.stringify(value)}, not null`),
        must(unknown === undefined || !failureSignalled(unknown), rule, 'deleting the same id twice succeeded both times, while an unknown id is refused: the first delete removed nothing'),
      );
    });
});
