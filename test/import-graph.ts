/**
 * The project's import graph and its cycles, for test/architecture.test.ts. Every import,
 * `export … from`, `import type`, `import('…')` type and dynamic `import('…')` of a file is read
 * from TypeScript's full parse of it (`ts.createSourceFile`, no types): the pre-processing scanner
 * is cheaper alone but only tokenizes, so a regex literal holding a quote or a backtick threw it
 * off and the imports after it were lost (about 1 CPU-s for the project's files, against 0.3 for
 * the scanner plus 1 for the full parse that would be needed to check it). A relative specifier
 * is resolved as NodeNext resolves it in this project: `./x.js` names `./x.ts` where that exists.
 * A type-only import closes a cycle too: the two files cannot be read one without the other.
 */
import { existsSync, readFileSync, statSync } from 'node:fs';
import { dirname, relative, resolve } from 'node:path';
import ts from 'typescript';

/** Files the graph reads the imports of; any other file an import names is a leaf (JSON, for one). */
const SCANNED = /\.(ts|mts|js|mjs)$/;

export interface ImportGraph {
  /** Each file read, relative to the base folder, with the files it imports (sorted). */
  edges: Record<string, string[]>;
  /** `file: specifier` for each relative import that names no file. */
  unresolved: string[];
  /** `file: import(expression)` for each import whose target is computed, as written: the graph cannot follow it. */
  dynamic: string[];
}

const isFile = (path: string): boolean => existsSync(path) && statSync(path).isFile();

/** The file a relative specifier names from `from` (NodeNext: the extension is written; `.js` may stand for `.ts`). */
function resolveRelative(from: string, specifier: string): string | undefined {
  const target = resolve(dirname(from), specifier);
  const candidates = [target, target.replace(/\.js$/, '.ts'), target.replace(/\.mjs$/, '.mts')];
  return candidates.find(isFile);
}

/** The module a node names, if it is an import of any kind: a string, `null` for a computed `import(…)`. */
function importOf(node: ts.Node): string | null | undefined {
  if ((ts.isImportDeclaration(node) || ts.isExportDeclaration(node)) && node.moduleSpecifier && ts.isStringLiteral(node.moduleSpecifier)) return node.moduleSpecifier.text;
  if (ts.isImportEqualsDeclaration(node) && ts.isExternalModuleReference(node.moduleReference) && ts.isStringLiteral(node.moduleReference.expression)) return node.moduleReference.expression.text;
  if (ts.isImportTypeNode(node) && ts.isLiteralTypeNode(node.argument) && ts.isStringLiteral(node.argument.literal)) return node.argument.literal.text;
  if (ts.isCallExpression(node) && node.expression.kind === ts.SyntaxKind.ImportKeyword) {
    const [arg] = node.arguments;
    return arg && ts.isStringLiteralLike(arg) ? arg.text : null;
  }
  return undefined;
}

/** The specifiers a file imports (type-only and dynamic imports included, package names left out), and its computed `import(…)`s as written. */
function importsOf(file: string): { specifiers: string[]; computed: string[] } {
  const kind = /\.m?js$/.test(file) ? ts.ScriptKind.JS : ts.ScriptKind.TS;
  const source = ts.createSourceFile(file, readFileSync(file, 'utf8'), ts.ScriptTarget.Latest, false, kind);
  const specifiers: string[] = [];
  const computed: string[] = [];
  const visit = (node: ts.Node): void => {
    const found = importOf(node);
    if (found === null) computed.push(node.getText(source).replace(/\s+/g, ' '));
    else if (found !== undefined && (found.startsWith('./') || found.startsWith('../'))) specifiers.push(found);
    ts.forEachChild(node, visit);
  };
  visit(source);
  return { specifiers, computed };
}

/** The graph of `files` (paths relative to `baseDir`) and of every file they reach through relative imports. */
export function importGraph(baseDir: string, files: readonly string[]): ImportGraph {
  const edges: Record<string, string[]> = {};
  const unresolved: string[] = [];
  const dynamic: string[] = [];
  const queue = files.map((f) => resolve(baseDir, f));
  for (let file = queue.shift(); file !== undefined; file = queue.shift()) {
    const name = relative(baseDir, file).split('\\').join('/');
    if (edges[name] || !SCANNED.test(file)) continue;
    const targets = new Set<string>();
    const { specifiers, computed } = importsOf(file);
    dynamic.push(...computed.map((call) => `${name}: ${call}`));
    for (const specifier of specifiers) {
      const target = resolveRelative(file, specifier);
      if (!target) { unresolved.push(`${name}: ${specifier}`); continue; }
      targets.add(relative(baseDir, target).split('\\').join('/'));
      queue.push(target);
    }
    edges[name] = [...targets].sort();
  }
  return { edges, unresolved: unresolved.sort(), dynamic: dynamic.sort() };
}

/**
 * The import cycles of a graph, each as its files in import order from the smallest name
 * (`a.ts → b.ts`, closing back to the first): one per strongly connected group of files that
 * import each other (Tarjan's algorithm), read from its smallest file along the smallest edges.
 */
export function cyclesOf(graph: ImportGraph): string[][] {
  const { edges } = graph;
  const index = new Map<string, number>();
  const low = new Map<string, number>();
  const stack: string[] = [];
  const onStack = new Set<string>();
  const groups: string[][] = [];
  const visit = (node: string): void => {
    index.set(node, index.size);
    low.set(node, index.get(node)!);
    stack.push(node);
    onStack.add(node);
    for (const next of edges[node] ?? []) {
      if (!index.has(next)) { visit(next); low.set(node, Math.min(low.get(node)!, low.get(next)!)); }
      else if (onStack.has(next)) low.set(node, Math.min(low.get(node)!, index.get(next)!));
    }
    if (low.get(node) !== index.get(node)) return;
    const group: string[] = [];
    for (let top = stack.pop()!; ; top = stack.pop()!) { onStack.delete(top); group.push(top); if (top === node) break; }
    if (group.length > 1 || (edges[node] ?? []).includes(node)) groups.push(group);
  };
  for (const node of Object.keys(edges).sort()) if (!index.has(node)) visit(node);
  return groups.map((group) => cycleThrough(edges, new Set(group))).sort((a, b) => a.join().localeCompare(b.join()));
}

/** A cycle through a group's smallest file: the shortest way back to it inside the group (breadth first, smallest names first). */
function cycleThrough(edges: Record<string, string[]>, group: Set<string>): string[] {
  const start = [...group].sort()[0]!;
  const cameFrom = new Map<string, string>();
  const queue = [start];
  for (let node = queue.shift(); node !== undefined; node = queue.shift()) {
    for (const next of edges[node] ?? []) {
      if (!group.has(next)) continue;
      if (next === start) {
        const path = [node];
        while (path[0] !== start) path.unshift(cameFrom.get(path[0]!)!);
        return path;
      }
      if (!cameFrom.has(next)) { cameFrom.set(next, node); queue.push(next); }
    }
  }
  return [start];
}
