import { ENV_VARS, flagOf, type ConfigKey } from '../lib/config.js';
import { PROFILE_VARIABLES } from '../lib/profile.js';

// The command line's usage texts: `cpc --help`, `cpc help <command>` and every usage error print
// these without loading the commands themselves.

const TARGET_OPTIONS = `target options (or the environment variables in brackets):
${(Object.keys(ENV_VARS) as ConfigKey[]).map((k) => `  --${flagOf(k).padEnd(18)} [${ENV_VARS[k]}]`).join('\n')}
  target profile (environment): ${Object.values(PROFILE_VARIABLES).join(', ')}
`;

export const USAGE = `usage: cpc <command> [options]

commands:
  conformance   run the suite against the target and write reports (default target: embedded emulator)
  preflight     check a configured target without creating anything, and show what a run will do
  report        re-render a saved report, merge the partial reports of a sharded run, or build a history page
  diff          compare two saved reports rule by rule
  detect        the detection matrix: every emulator fault must fail the rule it breaks
  emulator      start the emulator standalone (prints its URL and keys)
  load          run the load scenarios (k6 when on PATH, else the Node path)
  help          cpc help <command>: that command's options

Reports go to reports/out under the working directory. cpc <command> --help for each command.
`;

const CONFORMANCE_USAGE = `usage: cpc conformance [options]

  Runs the contract and property suites (and, against the embedded emulator, the load
  scenarios) with one seed, and writes conformance.json, junit.xml, report.html and summary.md.
  Against a configured target (CPC_BASE_URL) the preflight checks run first: a configuration
  problem exits 2 before anything is created.

${TARGET_OPTIONS}
run options:
  --out DIR            report folder (default reports/out)
  --project NAME       contract or property (repeatable; default both)
  --grep RE            only tests whose title or rule tag matches
  --workers N          parallel workers (default 2)
  --shard I/N          run slice I of N (Playwright's sharding); the report is partial: merge with cpc report --merge
  --faults id,id       switch emulator faults on (embedded emulator only)
  --chaos SEED[,...]   legal chaos in every emulator world: SEED[,real-time][,latency=MS][,capacity=SHARE]
                       [,capacity-only] (emulator/README.md, Chaos); also CPC_EMULATOR_CHAOS
  --quiet-summary      dots instead of one line per test
  --baseline FILE      expectations file of known differences: any change exits 1
  --update-baseline    rewrite the baseline file from this run, on purpose
  --load-dir DIR       load summaries to merge (default <out>/load)
  --probe-every MS     watchdog interval for a remote target (default 15000)
  --artifacts DIR      Playwright's output folder (default test-results)
  --load / --skip-load run the load scenarios (default: with the embedded emulator only, beside the suites;
                       on a deployment after them)
  --skip-preflight     against a configured target, start without the preflight checks
  --worker-image IMAGE an image serving the conformance handler (worker/): the run makes a serverless
                       template of it and a queue-based endpoint, and deletes both (also CPC_WORKER_IMAGE)
  --target-name NAME   the target's label in the report (default: the profile's targetName, else the
                       base URL; every embedded run is "embedded emulator"): it names the target's history
  --previous FILE|DIR  a previous report of the same target (or the newest one in a history folder):
                       summary.md and report.html lead with what changed since (new failures, new
                       passes, unstable rules); a report of another target exits 2 before the run
  --fail-on-blocked G  a strict gate on MUST rules the run could not decide (blocked: no capacity, a setup
                       error, ...): G is all (any), N (more than N) or RULE,RULE (any of those)
  --require-all-must   the certification gate: exit 1 unless every MUST rule was decided (pass or fail;
                       none blocked, skipped or untested); also CPC_REQUIRE_ALL_MUST=1 or the profile's
                       requireAllMust

CPC_SEED replays a run; without it a seed is chosen, printed and recorded in the report.
`;

const PREFLIGHT_USAGE = `usage: cpc preflight [target options]

  Against the configured target, without creating anything: checks that REST v2, serverless,
  REST v1 and GraphQL answer, that each key authenticates (the read-only key is refused a
  write, the other key is another account), that the endpoint and template ids exist (CPC_TEMPLATE_ID,
  CPC_MODEL_ENDPOINT_ID too), and reads the catalog. Then prints which rules will run, which
  will be skipped and why (with the variable or opt-in that would let them run), and what the run
  will create, with what it provisions from --worker-image (CPC_WORKER_IMAGE).
  Exit 0 ready, 2 when something required is missing or refused (named by its variable).

${TARGET_OPTIONS}`;

const DETECT_USAGE = `usage: cpc detect [--faults id,id] [--per-fault N] [--workers N] [--out DIR] [--full] [--variants id,id] [--chaos SEED] [--pooled [--scale N]]

  The detection matrix: runs tests with each emulator fault on; every fault must be detected
  by the rule it breaks. Writes detection.json (and re-renders conformance.json of --out).
  --faults id,id       only these faults (default: the whole catalog)
  --per-fault N        tests run per fault
  --full               the whole suite once per fault (nightly): the MUST rules each fault fails,
                       its own among them and at most 3 (detection-full.json)
  --variants id,id     conforming emulator variants or sets (live) on in every world: the suite
                       must still catch every fault (emulator/README.md, Variants)
  --chaos SEED[,...]   legal chaos in every world: the suite must still catch every fault
  --pooled             as on a deployment: per fault, the standalone emulator with the fault on behind
                       the proxy that hides its control surface, one worker, pools shared; the pooled
                       tests of the fault's rule (every pooled test in one run at least; --per-fault,
                       default 3) (detection-pooled.json)
  --scale N            with --pooled: the emulator clock's speed (default 1, real time)
`;

const EMULATOR_USAGE = `usage: cpc emulator [--port N] [--host H] [--key K] [--clock auto|manual] [--scale N] [--faults id,id] [--quotas m,h,d]
                    [--variants id,id] [--chaos SEED[,real-time][,latency=MS][,capacity=SHARE][,capacity-only]] [--outside-workers]

  Starts the emulator standalone and prints its URL, keys and seeded ids as CPC_* lines
  (port 0 picks a free port). Ctrl-C stops it.
  --outside-workers   queue-based endpoints are served by worker processes outside the emulator
                      (the official worker library's protocol); prints the RUNPOD_* variables to
                      start a worker with (emulator/README.md, Outside workers)
`;

const LOAD_USAGE = `usage: cpc load [--runner auto|k6|node] [--scenario NAME ...] [--out DIR] [target options]

  Runs every load scenario against the target (default: the embedded emulator), on k6 when a
  k6 binary is on PATH, else on the Node path at smoke scale. Summaries go to reports/out/load.
  Exit 0 when every scenario passed, k6's code otherwise (99: a threshold failed).
`;

const MERGE_USAGE = `

  cpc report --merge A.json B.json ... [--out DIR] [--baseline FILE]
    Merges the partial reports of every shard of one run (cpc conformance --shard i/n, same
    CPC_SEED) into one report; rule verdicts are computed again from all the tests.
    Exit as cpc conformance: 0 conformant, 1 not, 2 reports that do not belong together.
`;

export const REPORT_USAGE = `usage: cpc report [--from FILE] [--out DIR] [--baseline FILE [--update-baseline]] [--previous FILE|DIR]
       cpc report --history DIR [--keep N] [--out DIR]
       cpc report diff A.json B.json [--out DIR]

  Re-renders every format (conformance.json, junit.xml, report.html, summary.md) from a
  saved JSON report. --from defaults to reports/out/conformance.json, --out to its folder.
  With --baseline, the saved run is compared with the expectations file (exit 1 on change).
  With --previous, with an older report of the same target (or the newest report of a
  history folder): what changed since leads summary.md.

  cpc report --history DIR [--keep N] [--out DIR]
    Builds history.html (one self-contained page, in --out, default reports/out) from the
    conformance.json reports saved in DIR (its *.json files) of one target: each rule's verdict
    run by run, the run it changed, unstable rules (changed at least twice in the last 7 runs),
    the load figures and suite versions over time. A report of another target, unreadable, or
    of an unsupported schema version exits 2 naming the file, before anything is deleted.
    --keep N  DELETES from DIR every report file older than the newest N runs, then builds
              the page from those N.
`;

export const DIFF_USAGE = `usage: cpc diff A.json B.json [--out DIR]

  Compares two saved reports (say, the emulator and a real deployment) and lists every rule
  whose verdict or observed behaviour differs, as diff.md and diff.html in DIR (default
  reports/out/diff). Exit 0 when identical, 1 when different, 2 when a report is unreadable.
`;

export const USAGES: Record<string, string> = {
  conformance: CONFORMANCE_USAGE, preflight: PREFLIGHT_USAGE, report: REPORT_USAGE + MERGE_USAGE, diff: DIFF_USAGE,
  detect: DETECT_USAGE, emulator: EMULATOR_USAGE, load: LOAD_USAGE,
};
