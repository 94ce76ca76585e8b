// A loopback webhook receiver for the tests of the job request's `webhook`.
import { createServer, type Server } from 'node:http';
import { once } from 'node:events';
import type { AddressInfo } from 'node:net';

export interface WebhookReceiver {
  server: Server;
  url: string;
  /** Every body delivered, in order of arrival. */
  bodies: Record<string, unknown>[];
  /** Resolves once `n` bodies have arrived. */
  arrived(n: number): Promise<void>;
  close(): void;
}

/** Listens on loopback; answers each delivery with the next status of `answers`, then 200. */
export async function webhookReceiver(answers: number[] = []): Promise<WebhookReceiver> {
  const bodies: Record<string, unknown>[] = [];
  const waiting: { n: number; done: () => void }[] = [];
  const server = createServer((req, res) => {
    let text = '';
    req.on('data', (d: Buffer) => { text += d.toString(); });
    req.on('end', () => {
      bodies.push(JSON.parse(text) as Record<string, unknown>);
      res.statusCode = answers.shift() ?? 200;
      res.end();
      for (const w of waiting.filter((x) => bodies.length >= x.n)) w.done();
    });
  });
  server.listen(0, '127.0.0.1');
  await once(server, 'listening');
  const url = `http://127.0.0.1:${(server.address() as AddressInfo).port}/hook`;
  const arrived = (n: number): Promise<void> => (bodies.length >= n ? Promise.resolve() : new Promise((done) => { waiting.push({ n, done }); }));
  return { server, url, bodies, arrived, close: () => server.close() };
}
