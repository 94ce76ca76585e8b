/**
 * GraphQL documents of the spec's operations. Values are written as GraphQL literals inside
 * the document, because the spec's request is `{query: string}` alone; sending `variables`
 * is the live clients' habit, which the suite records separately (GQL.HTTP.VARIABLES).
 */
import { InternalError } from '../../../../lib/errors.js';

/** An enum value, written without quotes (spec: `flashBootType` is "written without quotes in GraphQL"). */
export class EnumLiteral {
  constructor(readonly name: string) {}
}
export const enumLiteral = (name: string): EnumLiteral => new EnumLiteral(name);

/**
 * A JSON-like value as a GraphQL literal. Strings use JSON escapes, which GraphQL string
 * syntax shares (`\"`, `\\`, `\n`, `\uXXXX`); object keys are GraphQL names.
 */
export function literal(value: unknown): string {
  if (value instanceof EnumLiteral) return value.name;
  if (value === null || value === undefined) return 'null';
  if (typeof value === 'string') return JSON.stringify(value);
  if (typeof value === 'number' || typeof value === 'boolean') return String(value);
  if (Array.isArray(value)) return `[${value.map(literal).join(', ')}]`;
  if (typeof value === 'object') {
    const fields = Object.entries(value).filter(([, v]) => v !== undefined).map(([k, v]) => `${k}: ${literal(v)}`);
    return `{${fields.join(', ')}}`;
  }
  throw new InternalError(`no GraphQL literal for ${typeof value}`);
}

/** Template fields valid on any target; tests add a unique name (and change what they test). */
export const PROBE_TEMPLATE = { imageName: 'conformance/handler:1.0', containerDiskInGb: 5, volumeInGb: 0 } as const;

/** Every endpoint field of the spec's GraphQL view but `pods` (selected where needed). */
export const ENDPOINT_FIELDS = 'id name gpuIds templateId type idleTimeout locations flashBootType scalerType scalerValue workersMin workersMax networkVolumeId';
export const TEMPLATE_FIELDS = 'id name imageName containerDiskInGb volumeInGb dockerArgs env { key value } ports readme volumeMountPath isServerless containerRegistryAuthId';
export const SECRET_FIELDS = 'id name description';

/** The spec's mutations as fields (`saveEndpoint(input: {...}) { id }`), to put one or several in a document. */
export const field = {
  saveEndpoint: (input: Record<string, unknown>, fields = ENDPOINT_FIELDS) => `saveEndpoint(input: ${literal(input)}) { ${fields} }`,
  deleteEndpoint: (id: string) => `deleteEndpoint(id: ${literal(id)})`,
  saveTemplate: (input: Record<string, unknown>, fields = TEMPLATE_FIELDS) => `saveTemplate(input: ${literal(input)}) { ${fields} }`,
  deleteTemplate: (templateName: string) => `deleteTemplate(templateName: ${literal(templateName)})`,
  secretCreate: (input: { name: string; value: string }, fields = SECRET_FIELDS) => `secretCreate(input: ${literal(input)}) { ${fields} }`,
  secretDelete: (id: string) => `secretDelete(id: ${literal(id)})`,
} as const;

/** The spec's operations as documents, one function each. */
export const doc = {
  saveEndpoint: (input: Record<string, unknown>, fields = ENDPOINT_FIELDS) => `mutation { ${field.saveEndpoint(input, fields)} }`,
  deleteEndpoint: (id: string) => `mutation { ${field.deleteEndpoint(id)} }`,
  myself: (endpointFields = `${ENDPOINT_FIELDS} pods { desiredStatus }`) =>
    `query { myself { endpoints { ${endpointFields} } serverlessDiscount { discountFactor type expirationDate } } }`,
  saveTemplate: (input: Record<string, unknown>, fields = TEMPLATE_FIELDS) => `mutation { ${field.saveTemplate(input, fields)} }`,
  deleteTemplate: (templateName: string) => `mutation { ${field.deleteTemplate(templateName)} }`,
  secretCreate: (input: { name: string; value: string }, fields = SECRET_FIELDS) => `mutation { ${field.secretCreate(input, fields)} }`,
  secretDelete: (id: string) => `mutation { ${field.secretDelete(id)} }`,
  /**
   * One mutation document of several fields, each under its alias, or under its own name when
   * the alias is the operation's (spec, GraphQL: "a GraphQL document"; GraphQL runs a
   * mutation's fields one after another, in order). It saves requests where one test makes
   * several changes: each field's answer is read apart (./fields.ts).
   */
  mutation: (fields: readonly (readonly [alias: string, field: string])[]) =>
    `mutation { ${fields.map(([alias, f]) => (f.startsWith(`${alias}(`) ? f : `${alias}: ${f}`)).join(' ')} }`,
} as const;

export type GraphqlOperation = Exclude<keyof typeof doc, 'mutation'>;
