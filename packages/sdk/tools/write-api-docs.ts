import { mkdir, readdir, rm, writeFile } from 'node:fs/promises';
import { join, relative } from 'node:path';
import { apiDocsDir, renderApiDocs } from './api-docs.files.js';

// `pnpm docs:api` at the root: rewrites docs/api/ from packages/sdk/openapi/*.json (run `pnpm openapi` first).
const files = await renderApiDocs();
await mkdir(apiDocsDir, { recursive: true });
for (const stale of (await readdir(apiDocsDir)).filter((f) => !(f in files))) {
  await rm(join(apiDocsDir, stale));
}
for (const [file, text] of Object.entries(files)) {
  await writeFile(join(apiDocsDir, file), text);
  console.log(`wrote ${relative(process.cwd(), join(apiDocsDir, file))}`);
}
