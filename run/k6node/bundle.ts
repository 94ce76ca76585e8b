/**
 * Bundles a k6 script for the Node path: esbuild compiles the TypeScript, resolves its relative
 * imports as k6 would, and swaps the k6 modules for the shims; the bundle's entry then starts
 * the worker runtime. Only stable modules are shimmed (`k6`, `k6/http`, `k6/metrics`,
 * `k6/execution`): any other import fails here with the module's name, as a script error.
 */
import { mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { dirname, join, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import { build, type Plugin } from 'esbuild';
import { EXIT } from './exit-codes.js';
import { K6RunError } from '../../lib/errors.js';

const HERE = dirname(fileURLToPath(import.meta.url));
const SHIMS: Record<string, string> = {
  k6: join(HERE, 'shim/k6.ts'),
  'k6/http': join(HERE, 'shim/http.ts'),
  'k6/metrics': join(HERE, 'shim/metrics.ts'),
  'k6/execution': join(HERE, 'shim/execution.ts'),
};

const k6Modules: Plugin = {
  name: 'k6-modules',
  setup(b) {
    b.onResolve({ filter: /^k6(\/.*)?$/ }, (args) => {
      const shim = SHIMS[args.path];
      if (shim) return { path: shim };
      return { errors: [{ text: `${args.path} is not available on the Node path (it shims k6, k6/http, k6/metrics and k6/execution); run this script with k6` }] };
    });
    b.onResolve({ filter: /^https?:\/\// }, (args) => ({ errors: [{ text: `remote module ${args.path} is not available on the Node path; run this script with k6` }] }));
  },
};

/** Writes the bundle of `scriptPath` to a fresh temporary file and returns its path. */
export async function bundleScript(scriptPath: string): Promise<string> {
  const script = resolve(scriptPath);
  const runtime = join(HERE, 'worker/runtime.ts');
  let code: string;
  try {
    const result = await build({
      stdin: {
        contents: `import { start } from ${JSON.stringify(runtime)};\nimport * as script from ${JSON.stringify(script)};\nstart(script);\n`,
        resolveDir: dirname(script), sourcefile: 'k6node-entry.ts', loader: 'ts',
      },
      bundle: true, platform: 'node', format: 'esm', target: 'node20', write: false, logLevel: 'silent',
      plugins: [k6Modules], sourcemap: 'inline', sourcesContent: false,
    });
    code = result.outputFiles[0]!.text;
  } catch (e) {
    const errors = (e as { errors?: { text: string; location?: { file: string; line: number } | null }[] }).errors ?? [];
    const detail = errors.map((x) => `${x.text}${x.location ? ` (${x.location.file}:${x.location.line})` : ''}`).join('; ') || (e as Error).message;
    throw new K6RunError(EXIT.scriptException, `could not load ${scriptPath}: ${detail}`);
  }
  const file = join(mkdtempSync(join(tmpdir(), 'k6node-')), 'bundle.mjs');
  writeFileSync(file, code);
  return file;
}
