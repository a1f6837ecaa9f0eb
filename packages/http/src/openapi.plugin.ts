import compress from '@fastify/compress';
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
  // the documents for developers, compressed as a browser or a generator accepts (swagger-ui's script
  // alone is over a megabyte); in their own context, so the API's answers are not
  await app.register(async (docs) => {
    await docs.register(compress, { global: true, encodings: ['br', 'gzip'] });
    await docs.register(swaggerUi, { routePrefix: '/docs' });
    docs.get('/openapi.json', { schema: { hide: true } }, async () => app.swagger());
  });
}
