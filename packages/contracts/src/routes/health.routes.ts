import type { RouteTable } from './route-spec.js';

/** Liveness and readiness: on both services, outside the envelopes, the rate limit and the token. */
export const healthRoutes = {
  health: {
    method: 'GET',
    url: '/healthz',
    summary: 'Liveness: the process answers',
    tags: ['health'],
    access: 'public',
    reply: { plain: 'Health' },
  },
  ready: {
    method: 'GET',
    url: '/readyz',
    summary: 'Readiness: the database (and Redis, when configured) answer; 503 when not',
    tags: ['health'],
    access: 'public',
    reply: { plain: 'Ready', unavailable: true },
  },
} as const satisfies RouteTable;
