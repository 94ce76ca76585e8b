/** The page's only stylesheet (inline: the report opens from disk with no network). */
export const STYLES = `
:root { --bg:#fff; --fg:#1b1f24; --muted:#59636e; --line:#d1d9e0; --soft:#f6f8fa;
  --pass:#1a7f37; --fail:#cf222e; --skip:#9a6700; --blocked:#bc4c00; --observed:#0969da; --untested:#6e7781; --warn-bg:#fff8c5; --bad-bg:#ffebe9; }
@media (prefers-color-scheme: dark) { :root { --bg:#0d1117; --fg:#e6edf3; --muted:#9198a1; --line:#3d444d; --soft:#151b23;
  --pass:#3fb950; --fail:#f85149; --skip:#d29922; --blocked:#db6d28; --observed:#4493f8; --untested:#9198a1; --warn-bg:#3b2e00; --bad-bg:#3d1214; } }
* { box-sizing: border-box; }
html { font: 14px/1.45 system-ui, -apple-system, "Segoe UI", Roboto, sans-serif; background: var(--bg); color: var(--fg); }
body { margin: 0 auto; max-width: 1280px; padding: 16px 24px 64px; overflow-wrap: break-word; }
h1 { font-size: 1.6rem; margin: .2em 0; } h2 { font-size: 1.25rem; margin-top: 2em; border-bottom: 1px solid var(--line); padding-bottom: .3em; }
h3 { font-size: 1.05rem; margin: 1.2em 0 .4em; }
a { color: var(--observed); }
code, pre, .mono { font-family: ui-monospace, SFMono-Regular, Menlo, Consolas, monospace; font-size: 12.5px; }
pre { background: var(--soft); border: 1px solid var(--line); border-radius: 6px; padding: 8px 10px; white-space: pre-wrap; word-break: break-word; max-height: 420px; overflow: auto; margin: 4px 0; }
table { border-collapse: collapse; width: 100%; margin: 8px 0; }
th, td { border-bottom: 1px solid var(--line); padding: 5px 8px; text-align: left; vertical-align: top; }
th { background: var(--soft); font-weight: 600; position: sticky; top: 0; }
td.num, th.num { text-align: right; font-variant-numeric: tabular-nums; }
dl.facts { display: grid; grid-template-columns: max-content 1fr; gap: 2px 16px; margin: 8px 0; }
dl.facts dt { color: var(--muted); } dl.facts dd { margin: 0; word-break: break-all; }
.result { display: inline-block; font-weight: 700; padding: 4px 12px; border-radius: 6px; color: #fff; }
.result.ok { background: var(--pass); } .result.bad { background: var(--fail); }
.banner { border: 1px solid var(--skip); background: var(--warn-bg); border-radius: 6px; padding: 10px 14px; margin: 12px 0; }
.banner.bad { border-color: var(--fail); background: var(--bad-bg); }
.v { display: inline-block; min-width: 64px; text-align: center; border-radius: 10px; padding: 0 8px; font-weight: 600; font-size: 12px; border: 1px solid currentColor; }
.v-pass { color: var(--pass); } .v-fail { color: var(--fail); } .v-skip { color: var(--skip); } .v-blocked { color: var(--blocked); } .v-observed { color: var(--observed); } .v-untested { color: var(--untested); }
.b-changed { color: var(--fail); font-weight: 600; } .b-as-expected { color: var(--muted); }
.muted { color: var(--muted); } .small { font-size: 12px; }
nav.toc { display: flex; flex-wrap: wrap; gap: 4px 14px; margin: 12px 0; }
.filters { position: sticky; top: 0; z-index: 2; background: var(--bg); display: flex; flex-wrap: wrap; gap: 8px 14px; align-items: center; padding: 8px 0; border-bottom: 1px solid var(--line); }
.filters label { display: inline-flex; gap: 4px; align-items: center; }
.filters input[type=search] { min-width: 160px; width: 200px; }
input, select, button { font: inherit; color: inherit; background: var(--soft); border: 1px solid var(--line); border-radius: 6px; padding: 3px 8px; }
button { cursor: pointer; }
table.matrix { table-layout: fixed; }
table.matrix th { top: 46px; }
table.matrix td { overflow-wrap: anywhere; }
col.c-rule { width: 23%; } col.c-verdict { width: 96px; } col.c-statement { width: auto; } col.c-tests { width: 120px; } col.c-baseline { width: 150px; }
td.rule-id code { font-size: 12px; }
.first-evidence { border-left: 3px solid var(--fail); padding: 2px 8px; margin: 4px 0; background: var(--bad-bg); border-radius: 0 4px 4px 0; }
.first-evidence .msg { font-family: ui-monospace, SFMono-Regular, Menlo, Consolas, monospace; font-size: 12.5px; }
.badge { display: inline-block; border-radius: 10px; padding: 0 8px; font-size: 12px; font-weight: 600; }
.badge.unstable { color: #fff; background: var(--blocked); }
td { overflow-wrap: anywhere; }
details { margin: 4px 0; } summary { cursor: pointer; color: var(--observed); }
.exchange { border-left: 3px solid var(--line); padding-left: 10px; margin: 8px 0; }
.failure-msg { border-left: 3px solid var(--fail); }
[hidden] { display: none !important; }
svg.chart { max-width: 100%; height: auto; background: var(--soft); border: 1px solid var(--line); border-radius: 6px; }
svg.chart text { fill: var(--fg); font: 11px system-ui, sans-serif; }
.charts { display: flex; flex-wrap: wrap; gap: 16px; align-items: flex-start; }
table.totals { width: auto; min-width: 640px; }
.cost-tables { display: flex; flex-wrap: wrap; gap: 4px 24px; align-items: flex-start; }
.cost-tables table { width: auto; min-width: 220px; }
p.cost-line { font-size: 1.05rem; }
.scenario { border: 1px solid var(--line); border-radius: 8px; padding: 4px 14px 12px; margin: 12px 0; }
`;
