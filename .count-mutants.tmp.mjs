import { Instrumenter } from '@stryker-mutator/instrumenter';
import { readFileSync } from 'node:fs';
import { strykerPlugins } from '/work/main/mutation/ignorers.mjs';
const scope = JSON.parse(readFileSync('/work/main/mutation/scope.json','utf8'));
const files = scope.groups.flatMap(g=>g.mutate);
const logger = { isDebugEnabled:()=>false, debug(){}, info(){}, warn: console.log, error: console.error, isTraceEnabled:()=>false, trace(){} };
const inst = new Instrumenter(logger);
const ignorers = strykerPlugins.map(p=>p.value);
const excluded = (process.env.EXCL||'').split(',').filter(Boolean);
const res = await inst.instrument(files.map(f=>({name:f, content: readFileSync('/work/main/'+f,'utf8'), mutate:true})), { plugins: null, excludedMutations: excluded, ignorers, noHeader: false });
const by = {}, byM = {};
for (const m of res.mutants) {
  const k = m.fileName + (m.status ? ' (ignored)' : '');
  by[k]=(by[k]||0)+1;
  if (!m.status) byM[m.mutatorName]=(byM[m.mutatorName]||0)+1;
}
console.log(by); console.log(byM);
console.log('total active', res.mutants.filter(m=>!m.status).length);
if (process.env.LIST) for (const m of res.mutants.filter(m=>!m.status && m.fileName.includes(process.env.LIST))) console.log(m.location.start.line, m.mutatorName, JSON.stringify(m.replacement).slice(0,80));
if (process.env.REASONS) { const r={}; for (const m of res.mutants.filter(m=>m.status && m.fileName.includes(process.env.REASONS))) { const k=m.statusReason.slice(0,60); r[k]=(r[k]||0)+1; } console.log(r); }
