import type { Reply } from './reply.js';

/**
 * What a pipeline step answers instead of its value: the request ends here, with this reply
 * (a problem+json from the catalog). Each step returns its value for the next step or a
 * `Refusal`; `app.ts` sends the refusal and stops.
 */
export class Refusal {
  constructor(readonly reply: Reply) {}
}
