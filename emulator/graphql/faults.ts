import type { FaultDef } from '../switches.js';

/**
 * Faults of the GraphQL surface (see emulator/faults.ts): each breaks one MUST rule of
 * schemas/rules/graphql.json, and the GraphQL contract specs must fail that rule.
 */
export const graphqlFaults = {
  'graphql.save-endpoint-name-optional': { rule: 'GQL.SAVE_ENDPOINT.REQUIRED', description: 'The schema makes EndpointInput.name optional: saveEndpoint without name creates an endpoint with an empty name.' },
  'graphql.type-default-lb': { rule: 'GQL.SAVE_ENDPOINT.TYPE_DEFAULT_QB', description: 'EndpointInput.type defaults to LB instead of QB.' },
  'graphql.gpu-ids-unchecked': { rule: 'ENDPOINT.GPU_IDS.INVALID_REJECTED', description: 'saveEndpoint accepts any gpuIds string.' },
  'graphql.locations-unchecked': { rule: 'ENDPOINT.LOCATIONS.ALLOWED', description: 'saveEndpoint accepts any locations string.' },
  'graphql.scaler-type-unchecked': { rule: 'ENDPOINT.SCALER_TYPE.VALUES', description: 'saveEndpoint accepts any scalerType string.' },
  'graphql.type-unchecked': { rule: 'ENDPOINT.TYPE.VALUES', description: 'saveEndpoint accepts a type other than QB and LB.' },
  'graphql.update-creates-new': { rule: 'GQL.SAVE_ENDPOINT.MODIFY', description: 'saveEndpoint with id ignores the id and creates another endpoint.' },
  'graphql.other-account-writable': { rule: 'AUTH.GRAPHQL.OTHER_ACCOUNT_REFUSED', description: 'saveEndpoint and deleteEndpoint act on another account\'s endpoint given its id.' },
  'graphql.delete-endpoint-with-workers': { rule: 'ENDPOINT.DELETE.NONZERO_WORKERS_FAILS', description: 'deleteEndpoint deletes an endpoint whose workersMin or workersMax is not 0.' },
  'graphql.delete-endpoint-returns-true': { rule: 'GQL.DELETE_ENDPOINT.RESULT', description: 'deleteEndpoint answers true instead of null.' },
  'graphql.myself-leaks-other-accounts': { rule: 'GQL.MYSELF.ENDPOINTS', description: 'myself.endpoints lists the endpoints of every account in the world.' },
  'graphql.template-requires-optional-field': { rule: 'GQL.SAVE_TEMPLATE.REQUIRED_ONLY', description: 'saveTemplate creating a template from its four required fields alone fails, as if dockerArgs were required.' },
  'graphql.duplicate-template-name': { rule: 'TEMPLATE.NAME_UNIQUE', description: 'saveTemplate creates a second template with an existing name.' },
  'graphql.serverless-volume-unchecked': { rule: 'TEMPLATE.VOLUME_ZERO_SERVERLESS', description: 'A serverless template may have volumeInGb other than 0.' },
  'graphql.template-update-creates-new': { rule: 'TEMPLATE.ID_MODIFIES', description: 'saveTemplate with id ignores the id and creates another template.' },
  'graphql.delete-template-in-use': { rule: 'TEMPLATE.DELETE.IN_USE_FAILS', description: 'deleteTemplate deletes a template an endpoint still uses.' },
  'graphql.deletion-delay-too-long': { rule: 'LIMIT.TEMPLATE.DELETE_DELAY_2_MIN', description: 'The template deletion delay is 8 minutes instead of at most 2.' },
  'graphql.delete-template-by-id': { rule: 'GQL.DELETE_TEMPLATE.BY_NAME', description: 'deleteTemplate looks the template up by id instead of by name.' },
  'graphql.secret-value-returned': { rule: 'SECRET.RESULT.NO_VALUE', description: 'Secret results carry the secret value in description.' },
  'graphql.secret-delete-by-name': { rule: 'GQL.SECRET_DELETE.BY_ID', description: 'secretDelete looks the secret up by name instead of by id.' },
  'graphql.api-key-ignored': { rule: 'AUTH.GRAPHQL.MISSING_OR_INVALID_REFUSED', description: 'GraphQL runs requests without a valid api_key as the world\'s first key.' },
  'graphql.readonly-can-mutate': { rule: 'AUTH.GRAPHQL.FORBIDDEN_REFUSED', description: 'A key without write access may run GraphQL mutations.' },
  'graphql.result-not-wrapped': { rule: 'GQL.HTTP.RESULT_SHAPE', description: 'A single-field result is answered as {data: <result>} instead of {data: {<operation>: <result>}}.' },
  'graphql.failure-silent': { rule: 'GQL.ERRORS.FAILURE_SIGNALLED', description: 'Refused operations answer 200 with their field null and no errors array.' },
  'graphql.bad-document-500': { rule: 'GQL.HTTP.BAD_DOCUMENT_REFUSED', description: 'A request whose document does not parse or validate answers 500.' },
} as const satisfies Record<string, FaultDef>;

declare module '../switches.js' {
  // Adds this table's ids to the fault ids a world knows (switches.ts).
  // eslint-disable-next-line @typescript-eslint/no-empty-object-type -- declaration merging adds members
  interface FaultRegistry extends Record<keyof typeof graphqlFaults, FaultDef> {}
}
