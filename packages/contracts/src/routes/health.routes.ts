import type { RouteSpec } from './route-spec.js';

// Named one by one, not spread into the tables: a bundler drops a table nobody uses only when its
// object literal holds nothing that could run code (a spread could), so a reader-only front end
// carries no admin routes.

/** Liveness: on both services, outside the envelopes, the rate limit and the token. */
export const healthRoute = {
  method: 'GET',
  url: '/healthz',
  summary: 'Liveness: the process answers',
  tags: ['health'],
  access: 'public',
  reply: { plain: 'Health' },
} as const satisfies RouteSpec;

/** Readiness: as liveness; 503 with the same shape when the database or Redis does not answer. */
export const readyRoute = {
  method: 'GET',
  url: '/readyz',
  summary: 'Readiness: the database (and Redis, when configured) answer; 503 when not',
  tags: ['health'],
  access: 'public',
  reply: { plain: 'Ready', unavailable: true },
} as const satisfies RouteSpec;

/** Both, as the services register them. */
export const healthRoutes = { health: healthRoute, ready: readyRoute } as const;
