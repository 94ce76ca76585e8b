// Lint: typescript-eslint's recommended rules plus the import boundaries the design names.
import js from '@eslint/js';
import tseslint from 'typescript-eslint';
import globals from 'globals';

const nodeBuiltins = ['node:*', 'fs', 'path', 'http', 'https', 'net', 'os', 'child_process', 'crypto', 'stream', 'url', 'util'];

export default tseslint.config(
  { ignores: ['node_modules/', 'reports/out/', 'test-results/', 'playwright-report/', '.stryker-tmp/'] },
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
  {
    files: ['emulator/**/*.ts'],
    rules: {
      'no-restricted-imports': ['error', { patterns: [
        { group: ['**/contract/**', '**/property/**', '**/load/**', '**/reports/**'], message: 'The emulator never imports the suites.' },
      ] }],
    },
  },
  {
    files: ['contract/**/*.ts', 'property/**/*.ts'],
    rules: {
      // Playwright fixtures must destructure their dependencies, even when there are none.
      'no-empty-pattern': 'off',
      'no-restricted-imports': ['error', { patterns: [
        { group: ['**/emulator/**', '!**/emulator/server.js'], message: 'The suites reach the emulator only over HTTP (global setup may start the server).' },
      ] }],
    },
  },
  {
    // k6 runs lib/iso too (load/ imports it): no Node built-ins, no npm packages, nothing outside lib/iso.
    files: ['lib/iso/**/*.ts'],
    rules: {
      'no-restricted-imports': ['error', { paths: nodeBuiltins.filter((n) => !n.includes('*')), patterns: [
        { regex: String.raw`^(?!\./[^/]+$)`, message: 'lib/iso is isomorphic (k6 and Node): it imports only its own files.' },
      ] }],
    },
  },
  {
    files: ['load/**/*.ts'],
    rules: {
      'no-restricted-imports': ['error', { paths: nodeBuiltins.filter((n) => !n.includes('*')), patterns: [
        { group: ['node:*'], message: 'k6 runs load/: no Node built-ins.' },
        { group: ['**/lib/*', '**/emulator/**', '**/contract/**', '**/property/**', '!**/lib/iso', '!./lib/**'], message: 'load/ imports only k6 modules and isomorphic code (lib/iso, load/lib).' },
      ] }],
    },
  },
);
