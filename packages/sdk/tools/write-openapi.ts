import { mkdir, writeFile } from 'node:fs/promises';
import { dirname, relative } from 'node:path';
import { generateOpenApiDocuments, openApiPaths, type ServiceName } from './openapi.generator.js';

// `pnpm --filter @readlib/sdk openapi` (or `pnpm openapi` at the root): rewrites packages/sdk/openapi/*.json.
const docs = await generateOpenApiDocuments();
for (const name of Object.keys(docs) as ServiceName[]) {
  await mkdir(dirname(openApiPaths[name]), { recursive: true });
  await writeFile(openApiPaths[name], docs[name]);
  console.log(`wrote ${relative(process.cwd(), openApiPaths[name])}`);
}
