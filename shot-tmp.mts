import { chromium } from '@playwright/test';
import { pathToFileURL } from 'node:url';
const b = await chromium.launch({ executablePath: '/usr/bin/chromium', args: ['--no-sandbox', '--disable-gpu'] });
const p = await b.newPage({ viewport: { width: 1280, height: 1000 } });
await p.goto(pathToFileURL(process.argv[2]!).href);
if (process.argv[4]) await p.evaluate((sel) => document.querySelector(sel)?.scrollIntoView(), process.argv[4]);
await p.screenshot({ path: process.argv[3]! });
await b.close();
