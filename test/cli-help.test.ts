// @own-process: starts cpc processes.
// Help everywhere: `cpc --help`, `cpc help <command>` and `cpc <command> --help` print the
// command's usage and exit 0; an unknown option or command exits 2 with the usage. One call of
// each kind starts `cpc` as a user does (the exit code as the shell sees it); the other help and
// usage answers come from bin/main.ts in this process (helpHere).
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { cpc } from './cli-support.js';
import { helpHere } from './cpc-here.js';

const COMMANDS = ['conformance', 'preflight', 'report', 'diff', 'detect', 'emulator', 'load'];

test('cli-help: cpc --help and cpc help list every command; exit 0', () => {
  for (const args of [['--help'], ['-h'], ['help']]) {
    const r = args[0] === '--help' ? cpc(args) : helpHere(args);
    assert.equal(r.code, 0, `cpc ${args.join(' ')}: ${r.stderr}`);
    for (const c of COMMANDS) assert.match(r.stdout, new RegExp(`^  ${c} `, 'm'), `cpc ${args.join(' ')} lists ${c}`);
  }
});

test('cli-help: cpc help <command> and cpc <command> --help print that usage; exit 0', () => {
  const usage = new Map<string, string>();
  for (const c of COMMANDS) {
    const a = c === 'conformance' ? cpc(['help', c]) : helpHere(['help', c]);
    const b = helpHere([c, '--help']);
    assert.equal(a.code, 0, `cpc help ${c}: ${a.stderr}`);
    assert.equal(b.code, 0, `cpc ${c} --help: ${b.stderr}`);
    assert.match(a.stdout, new RegExp(`^usage: cpc ${c}\\b`), `cpc help ${c}`);
    assert.equal(b.stdout, a.stdout, `cpc ${c} --help is cpc help ${c}`);
    assert.equal(b.stderr, '');
    usage.set(c, b.stdout);
  }
  // -h is --help.
  const short = helpHere(['report', '-h']);
  assert.equal(short.stdout, usage.get('report'), 'cpc report -h is cpc report --help');
  assert.match(usage.get('conformance')!, /--shard I\/N/);
  assert.match(usage.get('report')!, /cpc report --merge A\.json B\.json/);
  assert.match(usage.get('report')!, /cpc report --history DIR \[--keep N\][\s\S]*--keep N +DELETES from DIR/);
  assert.match(usage.get('conformance')!, /--target-name NAME[\s\S]*--previous FILE\|DIR/);
});

test('cli-help: an unknown option or command exits 2 with the usage, and nothing runs', () => {
  const bad = cpc(['conformance', '--no-such-option']);
  assert.equal(bad.code, 2);
  assert.match(bad.stderr, /configuration error: Unknown option '--no-such-option'/);
  assert.match(bad.stderr, /usage: cpc conformance/);
  assert.doesNotMatch(bad.stdout, /Seed:/, 'no run started');
  const preflight = cpc(['preflight', '--nope']);
  assert.equal(preflight.code, 2);
  assert.match(preflight.stderr, /usage: cpc preflight/);
  const command = cpc(['frobnicate']);
  assert.equal(command.code, 2);
  assert.match(command.stderr, /unknown command "frobnicate"[\s\S]*usage: cpc <command>/);
  assert.equal((helpHere(['help', 'frobnicate'])).code, 2);
  const none = helpHere([]);
  assert.equal(none.code, 2);
  assert.match(none.stderr, /usage: cpc <command>/);
});
