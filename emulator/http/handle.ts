import { ProblemError, type Reply } from './reply.js';

/**
 * The handle step: the route's handler answers the request. A problem the handler throws
 * (`fail`, `ProblemError`) is its answer too; any other error is the emulator's failure and
 * propagates. Most handlers answer synchronously; a promise comes back only from those that
 * wait (GraphQL execution, `/runsync`), so the usual path makes none. The control surface's
 * routes are handled the same way.
 */
export function handle<C>(route: { handle(ctx: C): Reply | Promise<Reply> }, ctx: C): Reply | Promise<Reply> {
  try {
    const answered = route.handle(ctx);
    return answered instanceof Promise ? answered.catch(problemReply) : answered;
  } catch (e) {
    return problemReply(e);
  }
}

/** The reply a thrown problem carries; anything else is rethrown. */
function problemReply(e: unknown): Reply {
  if (e instanceof ProblemError) return e.reply;
  throw e;
}
