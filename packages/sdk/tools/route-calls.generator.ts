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

/** The text of `src/route-calls.generated.ts`. */
export const routeCallsSource = (): string =>
  [
    '// Written by `pnpm openapi` from the route tables of @readlib/contracts: edit those, then run it again.',
    "import type { RouteCalls } from './route-client.js';",
    '',
    constant('readerRouteCalls', readerRoutes),
    constant('adminRouteCalls', adminRoutes),
  ].join('\n');
