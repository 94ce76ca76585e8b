/**
 * The schemas are the suite's reading of the spec: they must compile in Ajv strict mode, accept what
 * the spec allows and reject each rule broken on its own with a pointer at the offending value.
 * Also checks schemas/openapi.yaml, schemas/schema.graphql and that lib/types.gen.ts is current.
 */
import { describe, it } from 'node:test';
import assert from 'node:assert/strict';
import { readFileSync, readdirSync, existsSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import { parse as parseYaml } from 'yaml';
import { buildSchema, isEnumType, isNonNullType, isObjectType } from 'graphql';
import { Validator } from '@seriousme/openapi-schema-validator';
import {
  SCHEMA_BASE,
  formatIssues,
  schemaNames,
  schemaOf,
  validate,
  type SchemaName,
  type ValidationIssue,
} from '../lib/schema-registry.js';
import { checkTypes, typeName } from '../scripts/gen-types.js';
import { type Json, cases, clone, cpuRequest, gpuPod, gpuRequest } from './schema-cases.js';

const SCHEMAS_DIR = fileURLToPath(new URL('../schemas/', import.meta.url));
const SUFFIX = '.schema.json';

function hasIssue(issues: readonly ValidationIssue[], expected: string | { path: string; keyword: string }): boolean {
  const path = typeof expected === 'string' ? expected : expected.path;
  const keyword = typeof expected === 'string' ? undefined : expected.keyword;
  return issues.some((issue) => issue.path === path && (keyword === undefined || issue.keyword === keyword));
}

// ------------------------------------------------------------------------------------------------

describe('JSON Schemas', () => {
  const files = readdirSync(SCHEMAS_DIR).filter((file) => file.endsWith(SUFFIX)).sort();

  it('every schema file is registered and compiles in Ajv strict mode', () => {
    assert.deepEqual([...schemaNames()], files.map((file) => file.slice(0, -SUFFIX.length)));
    for (const name of schemaNames()) {
      assert.doesNotThrow(() => validate(name, null), `schema ${name} must compile`);
    }
  });

  it('follows the file conventions: $schema, $id from the file name, unique titles, a description', () => {
    const titles = new Set<string>();
    const ids = new Set<string>();
    for (const name of schemaNames()) {
      const schema = schemaOf(name);
      assert.equal(schema.$schema, 'https://json-schema.org/draft/2020-12/schema', name);
      assert.equal(schema.$id, `${SCHEMA_BASE}${name}${SUFFIX}`, name);
      assert.ok(typeof schema.title === 'string' && schema.title.length > 0, `${name}: title`);
      assert.match(typeName(String(schema.title)), /^[A-Z][A-Za-z0-9]*$/, `${name}: title gives a PascalCase type name`);
      assert.ok(typeof schema.description === 'string' && schema.description.length > 20, `${name}: description`);
      assert.ok(!titles.has(typeName(String(schema.title))), `${name}: title ${String(schema.title)} used twice`);
      assert.ok(!ids.has(String(schema.$id)), `${name}: $id used twice`);
      titles.add(typeName(String(schema.title)));
      ids.add(String(schema.$id));
    }
  });

  it('uses only relative cross-file $refs that name existing schema files (or local pointers)', () => {
    let crossFile = 0;
    for (const name of schemaNames()) {
      const schema = schemaOf(name);
      for (const ref of collectRefs(schema)) {
        if (ref.startsWith('#')) {
          assert.notEqual(resolvePointer(schema, ref.slice(1)), undefined, `${name}: ${ref} resolves`);
          continue;
        }
        crossFile += 1;
        assert.match(ref, /^[a-z0-9-]+\.schema\.json$/, `${name}: relative file $ref expected, got ${ref}`);
        assert.ok(existsSync(`${SCHEMAS_DIR}${ref}`), `${ref} exists`);
      }
    }
    assert.ok(crossFile > 10);
  });

  it('schemaOf returns a frozen copy', () => {
    const pod = schemaOf('pod');
    assert.ok(Object.isFrozen(pod));
    assert.throws(() => {
      (pod as Record<string, unknown>).title = 'Changed';
    });
  });

  it('quotes the spec numbers', () => {
    const prop = (name: SchemaName, ...path: string[]): Record<string, unknown> => {
      let node: unknown = schemaOf(name);
      for (const key of path) node = (node as Record<string, unknown>)[key];
      return node as Record<string, unknown>;
    };
    assert.equal(prop('create-pod-request', 'properties', 'disk').minimum, 1);
    assert.equal(prop('persistent-mount', 'properties', 'size').minimum, 10);
    assert.equal(prop('mounts', 'properties', 'network').maxItems, 1);
    assert.equal(prop('gpu-config', 'properties', 'count').minimum, 1);
    assert.equal(prop('gpu-config', 'properties', 'count').default, 1);
    assert.equal(prop('cpu-config-request', 'properties', 'vcpuCount').minimum, 2);
    assert.equal(prop('cpu-config', 'properties', 'memory').minimum, 1);
    assert.equal(prop('create-pod-request', 'properties', 'name').minLength, 1);
    assert.equal(prop('create-pod-request', 'properties', 'cloud').default, 'SECURE');
    assert.equal(prop('create-pod-request', 'properties', 'globalNetworking').default, false);
  });

  for (const c of cases) {
    const verdict = c.issues ? 'invalid' : 'valid';
    it(`${c.schema}: ${c.title} is ${verdict}`, () => {
      const result = validate(c.schema, c.data);
      if (!c.issues) {
        assert.ok(result.valid, result.valid ? '' : `unexpected issues:\n${formatIssues(result.issues)}`);
        return;
      }
      assert.equal(result.valid, false, 'expected the data to be rejected');
      if (result.valid) return;
      for (const expected of c.issues) {
        assert.ok(hasIssue(result.issues, expected), `expected ${JSON.stringify(expected)} among:\n${formatIssues(result.issues)}`);
      }
      for (const issue of result.issues) {
        assert.ok(issue.message.length > 0 && !issue.message.includes('undefined'), `readable message: ${JSON.stringify(issue)}`);
      }
    });
  }
});

describe('validation issues', () => {
  it('name the unknown property with its own pointer', () => {
    const result = validate('create-pod-request', { ...gpuRequest, gpu: { id: 'g', foo: 1 } });
    assert.equal(result.valid, false);
    if (result.valid) return;
    assert.deepEqual(result.issues, [{ path: '/gpu/foo', keyword: 'unevaluatedProperties', message: 'unknown property "foo" is not allowed' }]);
  });

  it('format one line per issue', () => {
    const result = validate('create-pod-request', { ...gpuRequest, gpu: { id: 'g', count: 0 }, name: '' });
    assert.equal(result.valid, false);
    if (result.valid) return;
    const text = formatIssues(result.issues);
    assert.equal(text.split('\n').length, result.issues.length);
    assert.match(text, /^\/gpu\/count: must be >= 1$/m);
    assert.match(text, /^\/name: must NOT have fewer than 1 characters$/m);
  });

  it('explain exactly-one-of and mutually exclusive rules in words, without the wrapper noise', () => {
    const both = validate('create-pod-request', { ...cpuRequest, gpu: { id: 'g' } });
    assert.equal(both.valid, false);
    if (!both.valid) {
      assert.deepEqual(both.issues.map((i) => i.keyword), ['oneOf']);
      assert.match(formatIssues(both.issues), /^\(root\): must have exactly one of the properties "gpu", "cpu"; "gpu" and "cpu" are present$/);
    }
    const mounts = validate('mounts', { persistent: { size: 10, path: '/p' }, network: [{ volumeId: 'v', path: '/n' }] });
    assert.equal(mounts.valid, false);
    if (!mounts.valid) assert.match(formatIssues(mounts.issues), /properties "persistent" and "network" are mutually exclusive/);
  });

  it('report a non-object body by its type only', () => {
    assert.deepEqual(validate('create-pod-request', 'nope'), { valid: false, issues: [{ path: '', keyword: 'type', message: 'must be object' }] });
    assert.deepEqual(validate('pod', { ...gpuPod, runtime: 'up' }), { valid: false, issues: [{ path: '/runtime', keyword: 'type', message: 'must be object' }] });
  });

  it('say which condition made a then-branch apply', () => {
    const result = validate('create-pod-request', { ...cpuRequest, mounts: { persistent: { size: 20, path: '/p' } } });
    assert.equal(result.valid, false);
    if (result.valid) return;
    assert.deepEqual(result.issues, [
      { path: '/mounts/persistent', keyword: 'false schema', message: 'property "persistent" is not allowed here (when "cpu" is present)' },
    ]);
    const pod = validate('pod', { ...gpuPod, status: 'EXITED', cost: 2 });
    assert.equal(pod.valid, false);
    if (!pod.valid) {
      const text = formatIssues(pod.issues);
      assert.match(text, /^\/runtime: must be null \(when "status" is not "RUNNING"\)$/m);
      assert.match(text, /^\/cost: must be equal to 0 \(when "status" is one of "EXITED", "TERMINATED"\)$/m);
      assert.ok(!pod.issues.some((i) => i.keyword === 'if'), 'the if wrapper is folded into its then-branch issues');
    }
  });
});

// ------------------------------------------------------------------------------------------------

const OPENAPI_FILE = `${SCHEMAS_DIR}openapi.yaml`;

function collectRefs(node: unknown, out: string[] = []): string[] {
  if (Array.isArray(node)) for (const item of node) collectRefs(item, out);
  else if (typeof node === 'object' && node !== null) {
    for (const [key, value] of Object.entries(node)) {
      if (key === '$ref' && typeof value === 'string') out.push(value);
      else collectRefs(value, out);
    }
  }
  return out;
}

function resolvePointer(doc: unknown, pointer: string): unknown {
  let node = doc;
  for (const raw of pointer.split('/').slice(1)) {
    const key = raw.replace(/~1/g, '/').replace(/~0/g, '~');
    if (typeof node !== 'object' || node === null) return undefined;
    node = (node as Record<string, unknown>)[key];
  }
  return node;
}

describe('schemas/openapi.yaml', () => {
  const text = readFileSync(OPENAPI_FILE, 'utf8');
  const doc = parseYaml(text) as Json;

  it('is a valid OpenAPI 3.1 document once the referenced schema files are added', async () => {
    const validator = new Validator();
    for (const file of readdirSync(SCHEMAS_DIR).filter((f) => f.endsWith(SUFFIX))) {
      const content = readFileSync(`${SCHEMAS_DIR}${file}`, 'utf8');
      // './pod.schema.json' is how openapi.yaml names a file, 'pod.schema.json' how the schemas name each other.
      await validator.addSpecRef(JSON.parse(content) as Json, `./${file}`);
      await validator.addSpecRef(JSON.parse(content) as Json, file);
    }
    const result = await validator.validate(text);
    assert.deepEqual(result, { valid: true });
    assert.equal(validator.version, '3.1');
  });

  it('the validator does reject a broken document (control)', async () => {
    const broken = clone(doc);
    delete (broken.info as Json).version;
    const result = await new Validator().validate(broken);
    assert.equal(result.valid, false);
  });

  it('is version 2.0.0 and references schema files, never copies', () => {
    assert.equal(doc.openapi, '3.1.0');
    assert.equal((doc.info as Json).version, '2.0.0');
    const refs = collectRefs(doc);
    for (const ref of refs) {
      if (ref.startsWith('#/')) {
        assert.notEqual(resolvePointer(doc, ref.slice(1)), undefined, `${ref} resolves inside openapi.yaml`);
      } else {
        assert.match(ref, /^\.\/[a-z0-9-]+\.schema\.json$/, `external $ref ${ref}`);
        assert.ok(existsSync(`${SCHEMAS_DIR}${ref.slice(2)}`), `${ref} exists`);
      }
    }
    const schemas = (doc.components as Json).schemas as Record<string, Json>;
    for (const [name, schema] of Object.entries(schemas)) {
      if (name === 'EmptyObject') continue;
      assert.deepEqual(Object.keys(schema), ['$ref'], `components.schemas.${name} is only a $ref`);
    }
  });

  const operations = (): Array<{ path: string; method: string; op: Json }> => {
    const out: Array<{ path: string; method: string; op: Json }> = [];
    for (const [path, item] of Object.entries(doc.paths as Record<string, Json>)) {
      for (const method of ['get', 'post', 'patch', 'put', 'delete']) {
        const op = item[method];
        if (op) out.push({ path, method, op: op as Json });
      }
    }
    return out;
  };

  it('has the spec operations and marks the observed ones', () => {
    const byId = new Map(operations().map((o) => [String(o.op.operationId), o]));
    const spec = ['createPod', 'runSync', 'run', 'getJobStatus', 'streamJob', 'cancelJob', 'retryJob', 'purgeQueue', 'getHealth', 'createEndpointV1', 'graphql'];
    const observed = ['listPods', 'getPod', 'updatePod', 'deletePod', 'podAction', 'listGpuTypes', 'listCpuFlavors', 'listDataCenters', 'listNetworkVolumes', 'createNetworkVolume', 'getNetworkVolume', 'updateNetworkVolume', 'deleteNetworkVolume', 'getJobStatusSync'];
    for (const id of spec) {
      assert.ok(byId.has(id), `operation ${id}`);
      assert.notEqual(byId.get(id)?.op['x-observed'], true, `${id} is stated by the spec`);
    }
    for (const id of observed) {
      assert.ok(byId.has(id), `operation ${id}`);
      assert.equal(byId.get(id)?.op['x-observed'], true, `${id} is x-observed`);
    }
    const createPod = byId.get('createPod');
    assert.equal(createPod?.path, '/v2/pods');
    assert.equal(createPod?.method, 'post');
    assert.deepEqual(Object.keys((createPod?.op.responses ?? {}) as Json).sort(), ['201', '400', '401', '403', '422', '429', 'default']);
    const wait = ((byId.get('runSync')?.op.parameters ?? []) as Json[]).find((p) => p.name === 'wait');
    assert.deepEqual({ ...(wait?.schema as Json) }, { type: 'integer', minimum: 1000, maximum: 300000, default: 90000 });
    const ttl = ((byId.get('getJobStatus')?.op.parameters ?? []) as Json[]).find((p) => p.name === 'ttl');
    assert.ok(ttl, 'status takes ttl');
  });

  it('uses the serverless server and the three security schemes', () => {
    const schemes = (doc.components as Json).securitySchemes as Record<string, Json>;
    assert.deepEqual(schemes.bearerAuth, { ...schemes.bearerAuth, type: 'http', scheme: 'bearer' });
    assert.deepEqual(schemes.serverlessApiKey, { ...schemes.serverlessApiKey, type: 'apiKey', in: 'header', name: 'authorization' });
    assert.deepEqual(schemes.graphqlApiKey, { ...schemes.graphqlApiKey, type: 'apiKey', in: 'query', name: 'api_key' });
    for (const { path, op } of operations()) {
      if (!/^\/v2\/\{endpointId\}\//.test(path)) continue;
      const servers = (doc.paths as Record<string, Json>)[path]?.servers as Json[] | undefined;
      assert.equal(servers?.[0]?.url, '{serverless_url}', `${path} runs on {serverless_url}`);
      assert.deepEqual(op.security, [{ serverlessApiKey: [] }, { bearerAuth: [] }], `${path} security`);
    }
  });

  it('answers every error with application/problem+json and the problem schema', () => {
    const responses = (doc.components as Json).responses as Record<string, Json>;
    for (const { path, method, op } of operations()) {
      for (const [status, response] of Object.entries(op.responses as Record<string, Json>)) {
        if (/^[23]/.test(status)) continue;
        const ref = String(response.$ref ?? '');
        const resolved = ref ? responses[ref.replace('#/components/responses/', '')] : response;
        const content = resolved?.content as Record<string, Json> | undefined;
        assert.deepEqual(Object.keys(content ?? {}), ['application/problem+json'], `${method} ${path} ${status}`);
        assert.deepEqual(content?.['application/problem+json']?.schema, { $ref: '#/components/schemas/Problem' });
      }
    }
    assert.equal(((doc.components as Json).schemas as Record<string, Json>).Problem?.$ref, './problem.schema.json');
  });
});

// ------------------------------------------------------------------------------------------------

describe('schemas/schema.graphql', () => {
  const sdl = readFileSync(`${SCHEMAS_DIR}schema.graphql`, 'utf8');
  const schema = buildSchema(sdl);

  it('has the seven operations of the spec with their arguments, and the live updateEndpointTemplate', () => {
    const query = schema.getQueryType();
    const mutation = schema.getMutationType();
    assert.ok(query && mutation);
    assert.equal(String(query.getFields().myself?.type), 'User');
    const fields = mutation.getFields();
    const signature = (name: string): string => {
      const field = fields[name];
      assert.ok(field, `mutation ${name}`);
      return `${field.args.map((a) => `${a.name}: ${String(a.type)}`).join(', ')} -> ${String(field.type)}`;
    };
    assert.equal(signature('saveEndpoint'), 'input: EndpointInput! -> Endpoint');
    assert.equal(signature('deleteEndpoint'), 'id: String! -> Boolean');
    assert.equal(signature('saveTemplate'), 'input: PodTemplateInput! -> PodTemplate');
    assert.equal(signature('deleteTemplate'), 'templateName: String! -> Boolean');
    assert.equal(signature('secretCreate'), 'input: SecretInput! -> Secret');
    assert.equal(signature('secretDelete'), 'id: String! -> Boolean');
    assert.equal(signature('updateEndpointTemplate'), 'input: UpdateEndpointTemplateInput! -> Endpoint');
    assert.equal(Object.keys(fields).length + Object.keys(query.getFields()).length, 8);
  });

  it('types the spec fields', () => {
    const user = schema.getType('User');
    assert.ok(isObjectType(user));
    assert.equal(String(user.getFields().endpoints?.type), '[Endpoint]');
    assert.equal(String(user.getFields().serverlessDiscount?.type), 'ServerlessDiscount');
    assert.ok(user.getFields().id);
    const flash = schema.getType('FlashBootType');
    assert.ok(isEnumType(flash));
    assert.deepEqual(flash.getValues().map((v) => v.name), ['FLASHBOOT']);
    const endpoint = schema.getType('Endpoint');
    assert.ok(isObjectType(endpoint));
    assert.equal(String(endpoint.getFields().gpuIds?.type), 'String!');
    assert.equal(String(endpoint.getFields().locations?.type), 'String');
    assert.equal(String(endpoint.getFields().pods?.type), '[EndpointPod]');
    const secret = schema.getType('Secret');
    assert.ok(isObjectType(secret));
    assert.deepEqual(
      Object.values(secret.getFields()).map((f) => `${f.name}: ${String(f.type)}`),
      ['id: String!', 'name: String!', 'description: String'],
    );
    const endpointInput = schema.getType('EndpointInput');
    assert.ok(endpointInput && 'getFields' in endpointInput);
    const inputFields = (endpointInput as import('graphql').GraphQLInputObjectType).getFields();
    for (const required of ['gpuIds', 'name', 'templateId']) assert.ok(isNonNullType(inputFields[required]?.type), `${required} required`);
    assert.ok(!isNonNullType(inputFields.id?.type), 'id optional');
    assert.equal(inputFields.type?.defaultValue, 'QB');
    const templateInput = schema.getType('PodTemplateInput') as import('graphql').GraphQLInputObjectType;
    const templateFields = templateInput.getFields();
    for (const required of ['containerDiskInGb', 'imageName', 'name', 'volumeInGb']) {
      assert.ok(isNonNullType(templateFields[required]?.type), `${required} required`);
    }
    assert.equal(String(templateFields.env?.type), '[EnvironmentVariableInput]');
  });

  it('accepts the documented operations, FLASHBOOT without quotes', async () => {
    const { parse, validate: validateDocument } = await import('graphql');
    const documents = [
      'mutation { saveEndpoint(input: { name: "ep", gpuIds: "AMPERE_16", templateId: "t", flashBootType: FLASHBOOT, locations: "US" }) { id name gpuIds flashBootType pods { desiredStatus } } }',
      'mutation { deleteEndpoint(id: "e1") }',
      'query { myself { id endpoints { id workersMin workersMax } serverlessDiscount { discountFactor type expirationDate } } }',
      'mutation { saveTemplate(input: { name: "t", imageName: "i:1", containerDiskInGb: 5, volumeInGb: 0, isServerless: true, env: [{ key: "A", value: "b" }] }) { id name env { key value } } }',
      'mutation { deleteTemplate(templateName: "t") }',
      'mutation { secretCreate(input: { value: "v", name: "s" }) { id name description } }',
      'mutation { secretDelete(id: "s1") }',
    ];
    for (const source of documents) assert.deepEqual(validateDocument(schema, parse(source)), [], source);
    const quoted = validateDocument(schema, parse('mutation { saveEndpoint(input: { name: "e", gpuIds: "A", templateId: "t", flashBootType: "FLASHBOOT" }) { id } }'));
    assert.ok(quoted.length > 0, 'a quoted FLASHBOOT is rejected');
  });
});

// ------------------------------------------------------------------------------------------------

describe('lib/types.gen.ts', () => {
  it('--check logic reports a missing or different file as stale', async () => {
    const missing = await checkTypes(undefined, `${SCHEMAS_DIR}does-not-exist.ts`);
    assert.equal(missing.upToDate, false);
    assert.equal(missing.actual, null);
  });

  it('is up to date with the schemas (npm run gen)', async () => {
    const result = await checkTypes();
    assert.ok(result.actual !== null, 'lib/types.gen.ts exists');
    assert.ok(result.upToDate, 'lib/types.gen.ts is stale: run `npm run gen`');
  });

  it('declares one type per schema title and the SchemaName union', async () => {
    const { expected } = await checkTypes();
    for (const name of schemaNames()) {
      const title = typeName(String(schemaOf(name).title));
      assert.match(expected, new RegExp(`^export (interface|type) ${title}\\b`, 'm'), `type ${title}`);
      assert.match(expected, new RegExp(`^ {2}\\| '${name}';?$`, 'm'), `SchemaName has '${name}'`);
      const declarations = expected.match(new RegExp(`^export (interface|type) ${title}\\b`, 'gm')) ?? [];
      assert.equal(declarations.length, 1, `${title} is declared once`);
    }
    assert.match(expected, /^ {2}gpu\?: GpuConfig;$/m, 'cross-file $ref becomes a reference to the generated type');
    assert.match(expected, /^ {2}runtime: PodRuntime \| null;$/m);
  });
});
