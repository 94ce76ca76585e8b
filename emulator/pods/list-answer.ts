import { json, type Reply } from '../http/reply.js';
import type { World } from '../world.js';

/**
 * A list answer of the REST v2 surface: wrapped in an object under `member` as the live
 * platform answers (`{pods: [...]}`, `{gpus: [...]}`, `{networkVolumes: [...]}`), or the bare
 * array with the variant `lists.bare`. The spec shows neither, nor a success status: listPods
 * answers 203 with the variant `pods.list-203`.
 */
export const listAnswer = (world: World, member: string, items: readonly unknown[]): Reply =>
  json(member === 'pods' && world.variant('pods.list-203') ? 203 : 200, world.variant('lists.bare') ? items : { [member]: items });
