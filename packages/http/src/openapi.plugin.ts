import swagger from '@fastify/swagger';
import swaggerUi from '@fastify/swagger-ui';
import type { FastifyInstance } from 'fastify';

export interface OpenApiInfo {
  title: string;
  version: string;
  description: string;
  bearer?: boolean;
}

/** OpenAPI generated from the route schemas (the contracts), served as /openapi.json and browsable at /docs. */
export async function registerOpenApi(app: FastifyInstance, info: OpenApiInfo): Promise<void> {
  await app.register(swagger, {
    openapi: {
      openapi: '3.1.0',
      info: { title: info.title, version: info.version, description: info.description },
      ...(info.bearer
        ? {
            components: {
              securitySchemes: { bearerAuth: { type: 'http', scheme: 'bearer', bearerFormat: 'JWT' } },
            },
            security: [{ bearerAuth: [] }],
          }
        : {}),
    },
    // components named by the contracts' $id, so clients see BookSummary, not def-3
    refResolver: { buildLocalReference: (json, _base, _frag, i) => (json.$id as string) || `def-${i}` },
  });
  await app.register(swaggerUi, { routePrefix: '/docs' });
  app.get('/openapi.json', { schema: { hide: true } }, async () => app.swagger());
}
