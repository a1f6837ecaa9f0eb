import { type Static, Type } from '@sinclair/typebox';

/** GET /healthz: the process is up (decisions.md §1), outside the envelopes. */
export const Health = Type.Object(
  { status: Type.Literal('ok', { description: 'Always "ok" when the process answers.' }) },
  { $id: 'Health', description: 'Liveness (decisions.md §1).' },
);
export interface Health extends Static<typeof Health> {}

/** GET /readyz: the database (and Redis, when configured) is reachable (decisions.md §1), outside the envelopes. */
export const Ready = Type.Object(
  {
    status: Type.Union([Type.Literal('ok'), Type.Literal('unavailable')], {
      description: '"ok" when ready (HTTP 200), "unavailable" otherwise (HTTP 503).',
    }),
    database: Type.Boolean({ description: 'Whether the database answered.' }),
    redis: Type.Optional(
      Type.Boolean({
        description: 'Whether Redis answered; present only when the service uses Redis (REDIS_URL).',
      }),
    ),
  },
  { $id: 'Ready', description: 'Readiness (decisions.md §1).' },
);
export interface Ready extends Static<typeof Ready> {}
