import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { Emulator, type EmulatorOptions } from './app.js';

export interface RunningEmulator {
  emulator: Emulator;
  server: Server;
  /** `http://127.0.0.1:PORT`: the base of all four surfaces. */
  url: string;
  port: number;
  close(): Promise<void>;
}

export interface ServeOptions extends EmulatorOptions {
  /** 0 picks a free port. */
  port?: number;
  host?: string;
}

/** Binds the emulator to a loopback port (a free one by default). */
export async function startEmulator(options: ServeOptions = {}): Promise<RunningEmulator> {
  const emulator = new Emulator(options);
  const server = createServer({ keepAlive: true, requestTimeout: 330_000, headersTimeout: 30_000 }, emulator.handle);
  // Answer 100-continue only within limits: the route decides after reading headers.
  server.on('checkContinue', (req, res) => { res.writeContinue(); emulator.handle(req, res); });
  server.on('clientError', (_err, socket) => {
    if (socket.writable) socket.end('HTTP/1.1 400 Bad Request\r\nContent-Type: application/problem+json\r\nConnection: close\r\nContent-Length: 83\r\n\r\n{"type":"about:blank","title":"Bad Request","status":400,"detail":"Malformed HTTP."}');
    else socket.destroy();
  });
  const host = options.host ?? '127.0.0.1';
  await new Promise<void>((resolve, reject) => {
    server.once('error', reject);
    server.listen(options.port ?? 0, host, () => { server.off('error', reject); resolve(); });
  });
  const port = (server.address() as AddressInfo).port;
  return {
    emulator, server, port,
    url: `http://${host.includes(':') ? `[${host}]` : host}:${port}`,
    close: () => new Promise<void>((resolve) => {
      emulator.dispose();
      server.closeAllConnections();
      server.close(() => resolve());
    }),
  };
}
