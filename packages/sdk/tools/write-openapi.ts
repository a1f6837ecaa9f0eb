import { mkdir, writeFile } from 'node:fs/promises';
import { dirname, relative } from 'node:path';
import { generateOpenApiDocuments, openApiPaths, type ServiceName } from './openapi.generator.js';
import { routeCallsPath, routeCallsSource } from './route-calls.generator.js';

// `pnpm --filter @readlib/sdk openapi` (or `pnpm openapi` at the root): rewrites packages/sdk/openapi/*.json
// and the SDK's index of the routes it calls (src/route-calls.generated.ts).
const docs = await generateOpenApiDocuments();
for (const name of Object.keys(docs) as ServiceName[]) {
  await mkdir(dirname(openApiPaths[name]), { recursive: true });
  await writeFile(openApiPaths[name], docs[name]);
  console.log(`wrote ${relative(process.cwd(), openApiPaths[name])}`);
}
await writeFile(routeCallsPath, routeCallsSource());
console.log(`wrote ${relative(process.cwd(), routeCallsPath)}`);
