/**
 * The platform's MCP server (npm `@runpod/mcp-server`) as an MCP client drives it: its stdio
 * entry in a child process, `@modelcontextprotocol/sdk`'s Client over StdioClientTransport,
 * pointed at one emulator world with that world's main key.
 */
import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import { dirname, join } from 'node:path';
import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { StdioClientTransport } from '@modelcontextprotocol/sdk/client/stdio.js';

/** The MCP server's stdio entry, from its package's `bin`. */
function serverEntry(): string {
  const manifest = createRequire(import.meta.url).resolve('@runpod/mcp-server/package.json');
  const bin = (JSON.parse(readFileSync(manifest, 'utf8')) as { bin: Record<string, string> }).bin;
  return join(dirname(manifest), Object.values(bin)[0]!);
}

export interface McpServer {
  /** Calls a tool; the server answers one text item holding the JSON payload, `isError` on failure. */
  call(name: string, args?: Record<string, unknown>): Promise<{ ok: boolean; payload: unknown }>;
  /** What the server wrote to stderr so far (for a failure message). */
  stderr(): string;
  close(): Promise<void>;
}

/** Starts the server against the emulator at `url`, calling it with `key`. */
export async function startMcpServer(url: string, key: string): Promise<McpServer> {
  const transport = new StdioClientTransport({
    command: process.execPath,
    args: [serverEntry()],
    // The variables and URL forms the server reads (its _shared/hosts.ts): REST v2 base without
    // /v2, serverless base with /v2, the GraphQL endpoint itself for both GraphQL clients.
    env: {
      PATH: process.env.PATH ?? '',
      RUNPOD_API_KEY: key,
      RUNPOD_API_BASE_URL: url,
      RUNPOD_SERVERLESS_API_URL: `${url}/v2`,
      RUNPOD_PUBLIC_GRAPHQL_URL: `${url}/graphql`,
      RUNPOD_AUTHED_GRAPHQL_URL: `${url}/graphql`,
    },
    stderr: 'pipe',
  });
  let stderr = '';
  transport.stderr?.on('data', (chunk: Buffer) => { stderr += chunk.toString(); });
  const client = new Client({ name: 'cpc-tests', version: '1.0.0' });
  await client.connect(transport);
  return {
    async call(name, args = {}) {
      const res = await client.callTool({ name, arguments: args });
      const content = res.content as { type: string; text: string }[];
      assert.equal(content[0]?.type, 'text', `${name}: a text answer`);
      return { ok: res.isError !== true, payload: JSON.parse(content[0]!.text) as unknown };
    },
    stderr: () => stderr,
    close: () => client.close(),
  };
}
