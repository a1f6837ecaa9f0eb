import { fileURLToPath } from 'node:url';
import { adminRoutes, type RouteTable, readerRoutes } from '@readlib/contracts/routes';
import type { RouteCall } from '../src/route-client.js';

/** Where the committed index lives (the SDK's sources import it). */
export const routeCallsPath = fileURLToPath(new URL('../src/route-calls.generated.ts', import.meta.url));

/** What a client needs of a route: its schemas stay in the contracts, so TypeBox stays out of the SDK. */
export function routeCallOf(spec: RouteTable[string]): RouteCall {
  const input = spec.querystring !== undefined ? 'query' : spec.body !== undefined ? 'body' : undefined;
  return {
    method: spec.method,
    url: spec.url,
    ...(input ? { input } : {}),
    ...(spec.access ? { access: spec.access } : {}),
    reply: spec.reply,
  };
}

export const routeCallsOf = (table: RouteTable): Record<string, RouteCall> =>
  Object.fromEntries(Object.entries(table).map(([operationId, spec]) => [operationId, routeCallOf(spec)]));

/** One line per route, so a change to a route is a one-line diff. */
function constant(name: string, table: RouteTable): string {
  const lines = Object.entries(routeCallsOf(table)).map(([id, call]) => `  ${id}: ${JSON.stringify(call)},`);
  return `export const ${name} = {\n${lines.join('\n')}\n} as const satisfies RouteCalls;\n`;
}

/**
 * What a route's method takes and resolves with, by the contracts' type names where the table names a
 * schema: `{ input: HomeQuery; result: HomeData }`. A query written in the table, and a page, are left
 * to the types computed from the table (the method's type falls back to them).
 */
function namedTypes(spec: RouteTable[string]): { input?: string; result?: string } {
  const input = typeof spec.querystring === 'string' ? spec.querystring : spec.body;
  const reply = spec.reply;
  const result =
    'data' in reply
      ? reply.data
      : 'plain' in reply
        ? reply.plain
        : 'ack' in reply
          ? 'void'
          : 'document' in reply
            ? 'string'
            : undefined;
  return { ...(input ? { input } : {}), ...(result ? { result } : {}) };
}

/** What an editor shows for a route's method: `GET /book/home/v2: Home page: …`. */
const methodDoc = (spec: RouteTable[string]): string =>
  `${spec.method} ${spec.url}: ${spec.summary}`.replaceAll('*/', '*\\/');

/** One member per route, named as the client's method, with the route as its doc comment. */
function namedTypesInterface(name: string, table: RouteTable): string {
  const lines = Object.entries(table).map(([id, spec]) => {
    const members = Object.entries(namedTypes(spec)).map(([key, type]) => `${key}: ${type}`);
    return `  /** ${methodDoc(spec)} */\n  ${id}: { ${members.join('; ')} };`;
  });
  return `export interface ${name} {\n${lines.join('\n')}\n}\n`;
}

/** Every contract type the tables name, for the generated module's import. */
function namedTypeImports(): string {
  const names = new Set<string>();
  for (const table of [readerRoutes, adminRoutes]) {
    for (const spec of Object.values(table)) {
      for (const type of Object.values(namedTypes(spec))) {
        const name = type.replace(/\[\]$/, '');
        if (name !== 'void' && name !== 'string') names.add(name);
      }
    }
  }
  const sorted = [...names].sort();
  return `import type {\n${sorted.map((n) => `  ${n},`).join('\n')}\n} from '@readlib/contracts';`;
}

/** The text of `src/route-calls.generated.ts`. */
export const routeCallsSource = (): string =>
  [
    '// Written by `pnpm openapi` from the route tables of @readlib/contracts: edit those, then run it again.',
    namedTypeImports(),
    "import type { RouteCalls } from './route-client.js';",
    '',
    constant('readerRouteCalls', readerRoutes),
    constant('adminRouteCalls', adminRoutes),
    '/**',
    " * Each reader route's input and result by the contracts' names, so that editors and declaration",
    ' * emit name them (`Promise<HomeData>`) instead of spelling out their fields.',
    ' */',
    namedTypesInterface('ReaderRouteTypes', readerRoutes),
    "/** Each admin route's input and result by the contracts' names (see ReaderRouteTypes). */",
    namedTypesInterface('AdminRouteTypes', adminRoutes),
  ].join('\n');
