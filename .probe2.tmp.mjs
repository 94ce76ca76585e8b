import { Instrumenter } from '@stryker-mutator/instrumenter';
import { readFileSync } from 'node:fs';
import { strykerPlugins } from './mutation/ignorers.mjs';
const logger = { isDebugEnabled:()=>false, debug(){}, info(){}, warn: console.log, error: console.error, isTraceEnabled:()=>false, trace(){} };
const files = process.argv.slice(2);
const res = await new Instrumenter(logger).instrument(files.map(f=>({name:f, content: readFileSync(f,'utf8'), mutate:true})), { plugins: null, excludedMutations: [], ignorers: strykerPlugins.map(p=>p.value), noHeader: false });
console.log(res.mutants.filter(m=>!m.status).length, res.mutants.length);
