// The run's temporary folder (lib/run-folder.ts): every file a run keeps in the system's temp
// folder is inside it, and the run removes it as it ends; only a record that lists a creation
// not deleted stays (docs/deployment.md, "Names and cleanup").
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { existsSync, readdirSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import { parseRunConfig } from '../lib/run-config.js';
import { closeRunFolder, openRunFolder, runFolderOf } from '../lib/run-folder.js';
import { Registry } from '../lib/cleanup/registry.js';
import type { RunConfig } from '../lib/protocol.js';

/** A run configuration with its folder made and every file in it written, as a run leaves them. */
function ranConfig(): RunConfig & { runId: string } {
  const c = parseRunConfig({}) as RunConfig & { runId: string };
  openRunFolder(c);
  const files = [c.target.kind === 'pending' ? c.target.file : '', c.pacingFile, c.provisionFile, c.budgetFiles?.requests, c.budgetFiles?.pods];
  for (const f of files) writeFileSync(f!, 'x');
  writeFileSync(join(runFolderOf(c.runId), 'catalog.json'), '{}');
  return c;
}

test('run folder: every file the configuration names lies in the run\'s own folder, not loose in the temp folder', () => {
  const c = parseRunConfig({});
  const folder = runFolderOf(c.runId!);
  assert.equal(dirname(folder), tmpdir());
  const named = [c.target.kind === 'pending' ? c.target.file : undefined, c.cleanupFile, c.pacingFile, c.provisionFile, c.budgetFiles?.requests, c.budgetFiles?.pods];
  for (const f of named) assert.equal(f && dirname(f), folder, `${f} is in ${folder}`);
  assert.equal(existsSync(folder), false, 'parsing a configuration makes no folder: a run does, as it starts');
});

test('run folder: a run that created nothing, or deleted all it created, leaves nothing behind', () => {
  const embedded = ranConfig();
  assert.deepEqual(closeRunFolder(embedded), {});
  assert.equal(existsSync(runFolderOf(embedded.runId)), false);

  const deployment = ranConfig();
  const record = new Registry(deployment.cleanupFile!);
  record.add({ kind: 'pod', id: 'p1', name: `cpc-${deployment.runId}-t-pod1`, test: 't', auth: 'main' });
  record.done({ kind: 'pod', id: 'p1', name: `cpc-${deployment.runId}-t-pod1`, auth: 'main' });
  assert.deepEqual(closeRunFolder(deployment), {});
  assert.equal(existsSync(runFolderOf(deployment.runId)), false);
});

test('run folder: a creation the run could not delete keeps the record, and only the record', () => {
  const c = ranConfig();
  new Registry(c.cleanupFile!).add({ kind: 'networkVolume', id: 'v1', name: `cpc-${c.runId}-t-volume1`, test: 't', auth: 'main' });
  try {
    assert.deepEqual(closeRunFolder(c), { kept: c.cleanupFile });
    assert.deepEqual(readdirSync(runFolderOf(c.runId)), ['created.jsonl'], 'the resolved target (with its keys) and the other files are gone');
    assert.equal(new Registry(c.cleanupFile!).outstanding().open.length, 1, 'the record still lists what to delete by hand');
  } finally {
    closeRunFolder({ runId: c.runId });
  }
});
