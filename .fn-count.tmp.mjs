import { Instrumenter } from '@stryker-mutator/instrumenter';
import { readFileSync } from 'node:fs';
import { strykerPlugins } from './mutation/ignorers.mjs';
const logger = { isDebugEnabled:()=>false, debug(){}, info(){}, warn: console.log, error: console.error, isTraceEnabled:()=>false, trace(){} };
const files = process.argv.slice(2);
const res = await new Instrumenter(logger).instrument(files.map(f=>({name:f, content: readFileSync(f,'utf8'), mutate:true})), { plugins: null, excludedMutations: [], ignorers: strykerPlugins.map(p=>p.value), noHeader: false });
// map line -> enclosing function by regex on source
for (const f of files) {
  const lines = readFileSync(f,'utf8').split('\n');
  const owner = []; let cur='(top)';
  lines.forEach((l,i)=>{ const m = /^\s{0,2}(?:export )?(?:async )?(?:function\s+(\w+)|(?:readonly |private |static )*(#?\w+)\s*\(.*\)\s*(?::[^{]*)?\{\s*$|const (\w+)\s*=)/.exec(l); if (m) cur = m[1]||m[2]||m[3]; owner[i+1]=cur; });
  const c={};
  for (const m of res.mutants.filter(m=>!m.status && m.fileName===f)) { const o=owner[m.location.start.line+1]; c[o]=(c[o]||0)+1; }
  console.log(f, c);
}
