// Ignore plugins of the mutation run (stryker.config.mjs). Plain JavaScript because Stryker
// imports its plugins in every worker process, where no TypeScript loader runs.
//
// Each ignorer names a kind of code where a mutant cannot change what a no-fault run of the
// suite sees, so it would only ever survive as noise. Ignored mutants still appear in the
// report (status "Ignored", with the reason below) and are not counted in the score.
import { readFileSync } from 'node:fs';
import { declareValuePlugin, PluginKind } from '@stryker-mutator/api/plugin';

const scope = JSON.parse(readFileSync(new URL('./scope.json', import.meta.url), 'utf8'));

/** Every fault id of the emulator's catalogs (`'pods.x-y': { rule, description }`). */
const FAULT_CATALOGS = ['emulator/faults/core.ts', 'emulator/pods/faults.ts', 'emulator/serverless/faults.ts', 'emulator/graphql/faults.ts'];
const FAULT_IDS = new Set(FAULT_CATALOGS.flatMap((file) => [...readFileSync(new URL(`../${file}`, import.meta.url), 'utf8').matchAll(/^\s*'([a-z0-9]+\.[a-z0-9.-]+)':\s*\{/gm)].map((m) => m[1])));

/**
 * The original expression under Stryker's own instrumentation. The instrumenter places a
 * node's mutants on its way back up the tree, so a sibling visited earlier may already read
 * `stryMutAct_9fa48("7") ? mutant : (stryCov_9fa48("7"), original)`.
 */
function unwrap(node) {
  for (;;) {
    if (node?.type === 'ConditionalExpression' && node.test.type === 'CallExpression' && node.test.callee.name === 'stryMutAct_9fa48') node = node.alternate;
    else if (node?.type === 'SequenceExpression' && node.expressions[0]?.type === 'CallExpression' && node.expressions[0].callee.name === 'stryCov_9fa48') node = node.expressions.at(-1);
    else if (node?.type === 'ParenthesizedExpression') node = node.expression;
    else return node;
  }
}

/** `world.fault('id')`, `ctx.world.fault('id')`, `this.host.world.fault('id')`... */
function isFaultSwitch(node) {
  const n = unwrap(node);
  return n?.type === 'CallExpression' && n.callee.type === 'MemberExpression' && !n.callee.computed
    && n.callee.property.type === 'Identifier' && n.callee.property.name === 'fault';
}

/** The leaves of an `a && b && c` chain. */
function conjuncts(node) {
  const n = unwrap(node);
  return n.type === 'LogicalExpression' && n.operator === '&&' ? [...conjuncts(n.left), ...conjuncts(n.right)] : [n];
}

/** An expression that is false whenever every fault is off: a switch, or a conjunction with one. */
const isFaultGated = (node) => conjuncts(node).some(isFaultSwitch);

/** Emulator faults: switched on only by the detection matrix (`run/detection`), never in this run. */
const faults = {
  shouldIgnore(path) {
    const { node, parentPath } = path;
    if (isFaultSwitch(node)) return 'fault switch: off in a no-fault run (the detection matrix covers it)';
    // A condition with a fault switch among its conjuncts is false whatever else it holds.
    if (node.type === 'LogicalExpression' && node.operator === '&&' && !parentPath?.isLogicalExpression({ operator: '&&' }) && isFaultGated(node)) {
      return 'fault-gated condition: false with the fault off, whatever its other terms';
    }
    // What only a switched-on fault runs: the branch taken when a fault-gated test holds.
    if (parentPath?.isIfStatement() && parentPath.node.consequent === node && isFaultGated(parentPath.node.test)) return 'runs only with a fault on';
    if (parentPath?.isConditionalExpression() && parentPath.node.consequent === node && isFaultGated(parentPath.node.test)) return 'runs only with a fault on';
    // A fault id passed along (`requireWrite(ctx, 'serverless.readonly-can-run')`, `{ incompleteFault: '...' }`).
    if (node.type === 'StringLiteral' && FAULT_IDS.has(node.value)) return 'fault id: names a fault that is off in a no-fault run';
    // A table of faults (`{ fault: 'id', drops(...) }`): consulted only for switched-on faults.
    if (node.type === 'ObjectExpression' && node.properties.some((p) => p.type === 'ObjectProperty' && p.key.type === 'Identifier' && p.key.name === 'fault')) {
      return 'fault table entry: consulted only with its fault on';
    }
    if (node.type === 'ArrayExpression' && node.elements.length > 0 && node.elements.every((e) => e?.type === 'ObjectExpression'
      && e.properties.some((p) => p.type === 'ObjectProperty' && p.key.type === 'Identifier' && p.key.name === 'fault'))) {
      return 'fault table: consulted only with its faults on';
    }
    return undefined;
  },
};

/** The name a function, method or variable node declares; undefined for other nodes. */
function functionName(node) {
  switch (node.type) {
    case 'FunctionDeclaration': return node.id?.name;
    case 'ClassMethod': case 'ObjectMethod': return node.key.type === 'Identifier' ? node.key.name : undefined;
    case 'ClassPrivateMethod': return `#${node.key.id.name}`;
    case 'VariableDeclarator': return node.id.type === 'Identifier' ? node.id.name : undefined;
    default: return undefined;
  }
}

/**
 * A statement that refuses a request (`@refusals` in `only`): an `if` whose branch throws the
 * problem, or the schema check `validateBody(...)`.
 */
function isRefusal(node) {
  if (node.type === 'IfStatement') {
    const branch = node.consequent;
    return branch.type === 'ThrowStatement' || (branch.type === 'BlockStatement' && branch.body.some((st) => st.type === 'ThrowStatement'));
  }
  return node.type === 'ExpressionStatement' && node.expression.type === 'CallExpression' && node.expression.callee.type === 'Identifier'
    && node.expression.callee.name === 'validateBody';
}

const selected = (node, names) => names.includes(functionName(node)) || (names.includes('@refusals') && isRefusal(node));

/** Per program: the code `only` selects and every node that contains some. */
const scopeOfProgram = new WeakMap();

/**
 * Walks the raw tree (not Babel's `traverse`: a nested traversal would disturb the paths of
 * the instrumenter's own traversal) and marks the named functions and their ancestors.
 */
function programScope(path, names) {
  const program = path.findParent((p) => p.isProgram()).node;
  let known = scopeOfProgram.get(program);
  if (known) return known;
  known = { listed: new Set(), holders: new Set() };
  const walk = (node, ancestors) => {
    if (selected(node, names)) {
      known.listed.add(node);
      for (const a of ancestors) known.holders.add(a);
      return;
    }
    const next = [...ancestors, node];
    for (const [key, value] of Object.entries(node)) {
      if (key === 'loc' || key.endsWith('Comments') || key === 'extra') continue;
      for (const child of Array.isArray(value) ? value : [value]) if (child && typeof child.type === 'string') walk(child, next);
    }
  };
  walk(program, []);
  scopeOfProgram.set(program, known);
  return known;
}

const onlyFor = (filename) => Object.entries(scope.only ?? {}).find(([file]) => filename?.replaceAll('\\', '/').endsWith(file))?.[1];

/**
 * Files that mix rules with plumbing (`only` in mutation/scope.json): mutants outside the named
 * functions (routing tables, worker scheduling, waiting requests, streaming, building a record
 * or a response) are out of scope; `@refusals` selects the statements that refuse a request.
 */
const scopeIgnorer = {
  shouldIgnore(path) {
    const names = onlyFor(path.hub?.file?.opts?.filename);
    if (!names || path.isProgram()) return undefined;
    const { listed, holders } = programScope(path, names);
    // A named function, or a node that holds one, is entered; anything inside a named one is in scope.
    if (holders.has(path.node) || listed.has(path.node) || path.findParent((p) => listed.has(p.node))) return undefined;
    return `outside the validation and state-machine code of this file (mutation/scope.json: ${names.join(', ')})`;
  },
};

/** Calls whose second argument is the human-readable text of a problem (`detail`, an `errors[]` line). */
const MESSAGE_CALLS = new Set(['conflict', 'fail', 'problem']);
/** Variables holding a problem's human-readable text. */
const MESSAGE_VARIABLES = new Set(['detail', 'lines']);

/**
 * Human-readable text of problems: the spec asks only that `detail` is a string ("Human-readable
 * explanation") and that `errors` holds strings; no rule fixes their wording, so no honest test
 * can tell one wording (or an empty one) from another.
 */
const messages = {
  shouldIgnore(path) {
    const { node, parent, parentPath } = path;
    if (parentPath?.isCallExpression() && parent.arguments[1] === node && parent.callee.type === 'Identifier' && MESSAGE_CALLS.has(parent.callee.name)) {
      return 'problem text (detail or errors[] message): the spec fixes no wording';
    }
    // conflict(path, message): the JSON pointer that starts the errors[] line ("for instance a path marker").
    if (parentPath?.isCallExpression() && parent.arguments[0] === node && parent.callee.type === 'Identifier' && parent.callee.name === 'conflict') {
      return 'errors[] path marker: the spec gives it "for instance", as no rule';
    }
    if (parentPath?.isVariableDeclarator() && parent.init === node && parent.id.type === 'Identifier' && MESSAGE_VARIABLES.has(parent.id.name)
      && (node.type === 'TemplateLiteral' || node.type === 'StringLiteral' || node.type === 'ConditionalExpression')) {
      return 'problem text (detail): the spec fixes no wording';
    }
    if (node.type === 'TemplateLiteral' && path.findParent((p) => p.isVariableDeclarator() && p.node.id.type === 'Identifier' && MESSAGE_VARIABLES.has(p.node.id.name))) {
      return 'problem text (errors[] line): the spec fixes no wording';
    }
    return undefined;
  },
};

export const strykerPlugins = [
  declareValuePlugin(PluginKind.Ignore, 'cpc-scope', scopeIgnorer),
  declareValuePlugin(PluginKind.Ignore, 'cpc-faults', faults),
  declareValuePlugin(PluginKind.Ignore, 'cpc-messages', messages),
];
