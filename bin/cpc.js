#!/usr/bin/env node
/**
 * The installed `cpc` command. The suite is TypeScript run as it is written: this entry
 * registers tsx's loader in this process (Node 20.6 or later) and loads the command line.
 * From a clone, `npx tsx bin/cpc.ts` and the npm scripts do the same.
 */
import { register } from 'tsx/esm/api';

register();
await import('./cpc.ts');
