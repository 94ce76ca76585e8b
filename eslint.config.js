// Lint: typescript-eslint's recommended rules plus the import boundaries of every top-level folder.
import js from '@eslint/js';
import tseslint from 'typescript-eslint';
import globals from 'globals';

/**
 * The layers, lowest first: a folder imports only what `may` names (project paths from the root;
 * npm packages are free unless `packages` says otherwise). docs/development.md ("Layers")
 * explains them; test/architecture.test.ts shows that each boundary stops an import across it.
 *
 * `lib/` is the bottom: configuration, the client, rules, evidence, errors, redaction, the plan
 * and the protocol between processes, `lib/iso`. The emulator and the report model sit on it.
 * `run/` runs the suites: it starts the emulator, checks a target before a run, plans and runs
 * the detection, variant and chaos matrices, runs k6 scripts in Node, spawns and supervises
 * Playwright and publishes the report. `bin/` holds the commands, one file each.
 */
const LAYERS = [
  { name: 'lib', paths: ['lib'], may: ['lib', 'schemas'],
    message: 'lib/ is the bottom layer: it imports lib/ and schemas/ only (never the emulator, reports/, run/ or bin/).' },
  { name: 'emulator', paths: ['emulator'], may: ['lib', 'schemas'],
    message: 'The emulator imports lib/ and schemas/ only: never the suites, the reports, the run or the command line.' },
  { name: 'reports', paths: ['reports'], may: ['lib', 'schemas'],
    message: 'reports/ imports lib/ and schemas/ only: never the emulator, the suites, the run or the command line.' },
  { name: 'run', paths: ['run'], may: ['run', 'lib', 'schemas', 'emulator', 'reports'],
    message: 'run/ imports lib/, the emulator, reports/ and schemas/: never the suites (it runs them through Playwright), the command line or the tests.' },
  { name: 'iso', paths: ['lib/iso'], siblingsOnly: true,
    message: 'lib/iso/ runs in k6 as well as Node: it imports its own siblings only (no package, no Node built-in, nothing else of lib/).' },
  { name: 'contract', paths: ['contract'], may: ['lib', 'schemas'],
    message: 'contract/ imports lib/ and schemas/: it reaches the emulator over HTTP only (run/ starts it), never property/, reports/, run/, bin/ or the tests.' },
  { name: 'property', paths: ['property'], may: ['lib', 'schemas', 'contract'],
    message: 'property/ imports lib/, contract/ (checks and support) and schemas/: it reaches the emulator over HTTP only, never reports/, run/, bin/ or the tests.' },
  { name: 'load', paths: ['load'], may: ['load', 'lib/iso'], packages: 'k6',
    message: 'k6 runs load/: it imports k6 modules, load/lib and lib/iso only (no npm package, no Node built-in, nothing else of the project).' },
  { name: 'bin', paths: ['bin'], may: ['bin', 'run', 'lib', 'schemas', 'emulator', 'reports'],
    message: 'bin/ (the commands) imports run/, lib/, the emulator, reports/ and schemas/: it runs the suites through Playwright, never by import, and never imports the tests.' },
  { name: 'scripts', paths: ['scripts'], may: ['scripts', 'lib', 'schemas', 'emulator', 'reports', 'run', 'bin'],
    message: 'scripts/ are project tools: they never import the tests, the benchmarks or the suites.' },
  { name: 'mutation', paths: ['mutation'], may: ['mutation', 'stryker.config.mjs'],
    message: 'mutation/ holds the mutation run\'s Stryker plugins and settings: it reads the project\'s files by path, and imports only its own files and stryker.config.mjs.' },
  { name: 'bench', paths: ['bench'], may: ['bench', 'lib', 'schemas', 'emulator', 'reports', 'run', 'bin', 'load'],
    message: 'bench/ measures the product: it never imports the tests or the suites.' },
];

const DEPTHS = 6;
const EXT = '{ts,js,mjs}';
const up = (n) => (n === 0 ? '\\./' : `(\\.\\./){${n}}`);

/** One config block per depth, so that a pattern knows how many `../` lead to the project root. */
function blocks(layer) {
  const out = [];
  for (const path of layer.paths) {
    const base = path.split('/').length;
    const single = /\.\w+$/.test(path);
    for (let k = 1; k <= (single ? 1 : DEPTHS); k += 1) {
      const depth = single ? base - 1 : base + k - 1;
      const files = [single ? path : `${path}/${'*/'.repeat(k - 1)}*.${EXT}`];
      const patterns = [];
      if (layer.siblingsOnly) {
        patterns.push({ regex: '^(?!\\./)', message: layer.message });
      } else {
        // A folder it may import (`lib` → `lib/...`), or a root file by name (`stryker.config.mjs`).
        const folders = layer.may.filter((m) => !/\.\w+$/.test(m));
        const files = layer.may.filter((m) => /\.\w+$/.test(m)).map((f) => f.replace(/\./g, '\\.'));
        patterns.push({ regex: `^${up(depth)}(?!(${folders.join('|')})/${files.length ? `|(${files.join('|')})$` : ''})`, message: layer.message });
        if (layer.packages) patterns.push({ regex: `^(?!\\.{1,2}/|${layer.packages}(/|$))`, message: layer.message });
      }
      out.push({ files, rules: { 'no-restricted-imports': ['error', { patterns }] } });
    }
  }
  return out;
}

/** Files at the root (playwright.config.ts, stryker.config.mjs) are product code too: no test, benchmark or script. */
const rootFiles = {
  files: [`*.${EXT}`],
  rules: { 'no-restricted-imports': ['error', { patterns: [{ regex: '^\\./(test|bench|scripts)/', message: 'Product code never imports the tests, benchmarks or scripts.' }] }] },
};

export default tseslint.config(
  // validators.gen.cjs files are Ajv's standalone code (scripts/gen-validators.ts), held to their schemas by test/schema-precompiled.test.ts.
  { ignores: ['node_modules/', 'reports/out/', 'test-results/', 'playwright-report/', '.stryker-tmp/', '.cache/', '**/validators.gen.cjs'] },
  js.configs.recommended,
  ...tseslint.configs.recommended,
  // Plain JavaScript files (configs, tool glue) run on Node.
  { files: ['**/*.js', '**/*.mjs'], languageOptions: { globals: globals.node } },
  {
    rules: {
      '@typescript-eslint/no-unused-vars': ['error', { argsIgnorePattern: '^_', varsIgnorePattern: '^_' }],
      'no-restricted-syntax': ['error', { selector: 'ThrowStatement > Literal', message: 'Throw a typed error with a code, never a string.' }],
    },
  },
  // Playwright fixtures must destructure their dependencies, even when there are none.
  { files: ['contract/**/*.ts', 'property/**/*.ts'], rules: { 'no-empty-pattern': 'off' } },
  // Later blocks win: lib/iso refines lib/.
  rootFiles,
  ...LAYERS.flatMap(blocks),
);
