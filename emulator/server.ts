import { createServer, type IncomingMessage, type Server, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import type { Emulator, EmulatorOptions } from './app.js';

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

/** A port bound before the emulator's code has loaded: its URL can be handed out at once. */
export interface BoundEmulator {
  url: string;
  port: number;
  server: Server;
  /** Settles once the emulator serves; requests that arrived before wait for it, in order. */
  running: Promise<RunningEmulator>;
}

type Handler = (req: IncomingMessage, res: ServerResponse) => void;

/**
 * Binds a loopback port (a free one by default), then loads the emulator behind it. A caller
 * that only needs the URL (to start Playwright, whose own start takes longer) does not wait for
 * the emulator's modules; a request that comes early is held, body unread, until it serves.
 */
export async function bindEmulator(options: ServeOptions = {}, loadApp: () => Promise<typeof import('./app.js')> = () => import('./app.js')): Promise<BoundEmulator> {
  let handle: Handler | undefined;
  const early: { req: IncomingMessage; res: ServerResponse; expectsContinue: boolean }[] = [];
  // Idle connections are kept 25 s (Node's default is 5 s; load balancers keep 60 s and more):
  // a client reusing a connection the server is closing meets a reset before any answer, and on a
  // busy machine both sides' timers run late, so a short server timeout puts every client that
  // pauses a few seconds into that race. Under headersTimeout, which bounds a request's headers.
  const server = createServer({ keepAlive: true, keepAliveTimeout: 25_000, requestTimeout: 330_000, headersTimeout: 30_000 }, (req, res) => {
    if (handle) handle(req, res);
    else early.push({ req, res, expectsContinue: false });
  });
  // Answer 100-continue only within limits: the route decides after reading headers.
  server.on('checkContinue', (req, res) => {
    if (!handle) { early.push({ req, res, expectsContinue: true }); return; }
    res.writeContinue();
    handle(req, res);
  });
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
  const url = `http://${host.includes(':') ? `[${host}]` : host}:${port}`;
  const running = loadApp().then(({ Emulator: EmulatorClass }): RunningEmulator => {
    const emulator = new EmulatorClass(options);
    handle = emulator.handle;
    for (const { req, res, expectsContinue } of early.splice(0)) {
      if (expectsContinue) res.writeContinue();
      emulator.handle(req, res);
    }
    return {
      emulator, server, port, url,
      close: () => new Promise<void>((resolve) => {
        emulator.dispose();
        server.closeAllConnections();
        server.close(() => resolve());
      }),
    };
  }, (e: unknown) => {
    server.closeAllConnections();
    server.close();
    throw e;
  });
  return { url, port, server, running };
}

/** Binds the emulator to a loopback port (a free one by default) and resolves once it serves. */
export async function startEmulator(options: ServeOptions = {}): Promise<RunningEmulator> {
  return (await bindEmulator(options)).running;
}
