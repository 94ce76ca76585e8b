import { mkdtempSync, readdirSync, readFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { runLoadScenarios } from '../run/load.js';
for (let i = 0; i < 3; i++) {
  const outDir = mkdtempSync(join(tmpdir(), 'plr-'));
  const lines: string[] = [];
  const r = await runLoadScenarios({ env: { CPC_LOAD_TIMING: "observe", CPC_DEBUG_HTTP: "1" }, runner: 'node', outDir, quietScripts: false, print: (l) => lines.push(l), scenarios: ['payload-limits'] } as never);
  console.log(i, r.scenarios.map((s) => `${s.scenario} ${s.ok} ${s.breached}`).join(' | '), outDir);
  for (const f of readdirSync(outDir)) {
    if (!f.endsWith('.json')) continue;
    const txt = readFileSync(join(outDir, f), 'utf8');
    const m = [...txt.matchAll(/"name":"([^"]+)","path":"[^"]*","id":"[^"]*","passes":(\d+),"fails":([1-9]\d*)/g)];
    for (const x of m) console.log('  FAIL', x[1], x[2], x[3]);
  }
}
