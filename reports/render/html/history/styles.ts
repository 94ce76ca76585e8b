import { STYLES } from '../styles.js';

/** The history page's stylesheet: the report's, and the strips of verdict cells. */
export const HISTORY_STYLES = `${STYLES}
table.history { table-layout: fixed; }
col.c-rule { width: 34%; } col.c-strip { width: auto; } col.c-now { width: 96px; } col.c-changes { width: 140px; }
table.history td { overflow-wrap: anywhere; }
.strip { display: grid; grid-auto-flow: column; grid-auto-columns: minmax(3px, 18px); gap: 2px; justify-content: start; }
.strip.dense { gap: 0; grid-auto-columns: minmax(0, 1fr); justify-content: stretch; }
.c { display: inline-block; height: 18px; border-radius: 2px; background: var(--untested); }
.strip .c { min-width: 0; } .strip.dense .c { border-radius: 0; }
.legend .c { width: 14px; vertical-align: middle; margin-left: 8px; }
.c.v-pass { background: var(--pass); } .c.v-fail { background: var(--fail); } .c.v-blocked { background: var(--blocked); }
.c.v-skip { background: var(--skip); } .c.v-observed { background: var(--observed); } .c.v-untested { background: var(--untested); }
.c.v-absent { background: repeating-linear-gradient(45deg, var(--line), var(--line) 2px, transparent 2px, transparent 4px); }
.c.chg { box-shadow: inset 0 4px 0 var(--fg); }
.c.nc { opacity: .4; }
.badge { display: inline-block; border-radius: 10px; padding: 0 8px; font-size: 12px; font-weight: 600; }
.badge.unstable { color: #fff; background: var(--blocked); } .badge.added { color: var(--pass); border: 1px solid currentColor; } .badge.removed { color: var(--fail); border: 1px solid currentColor; }
code.added { color: var(--pass); } code.removed { color: var(--fail); text-decoration: line-through; }
.since ul { margin: 4px 0; }
`;
