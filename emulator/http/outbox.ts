import type { ServerResponse } from 'node:http';

/**
 * Answers waiting for the end of the event-loop turn, as response and payload pairs.
 *
 * Every request that was ready in one turn is answered first and written after, back to back
 * (the flush consolidation of Netty's FlushConsolidationHandler, or uWebSockets' corking). When
 * the client waits on another CPU, as on loopback, the write that wakes a sleeping client is the
 * most expensive part of a small request; written together, one wake-up serves the whole batch
 * instead of one each (docs/benchmarks.md has the figures).
 *
 * Order per connection is kept (a turn's answers leave in the order they were made), and an
 * answer waits at most until the current turn's I/O callbacks are done: `setImmediate` runs
 * right after them.
 */
let outbox: (ServerResponse | string | undefined)[] = [];

function flush(): void {
  const batch = outbox;
  outbox = [];
  for (let i = 0; i < batch.length; i += 2) {
    const res = batch[i] as ServerResponse;
    try {
      res.end(batch[i + 1] as string | undefined);
    } catch {
      // One connection's failure must not hold back the others in the batch.
      res.destroy();
    }
  }
}

/** `res.end(payload)` at the end of this event-loop turn, with the turn's other answers. Call `writeHead` first. */
export function endThisTurn(res: ServerResponse, payload: string | undefined): void {
  outbox.push(res, payload);
  if (outbox.length === 2) setImmediate(flush);
}
