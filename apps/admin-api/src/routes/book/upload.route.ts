import { randomBytes } from 'node:crypto';
import { createWriteStream } from 'node:fs';
import { mkdir, rm } from 'node:fs/promises';
import { join } from 'node:path';
import { pipeline } from 'node:stream/promises';
import type { MultipartFile } from '@fastify/multipart';
import type { FastifyPluginAsyncTypebox } from '@fastify/type-provider-typebox';
import { AppError, invalid, uploadEpub } from '@readlib/catalog';
import { AdminBookDetail, ref } from '@readlib/contracts';
import { Type } from '@sinclair/typebox';
import { ok, responses } from '../responses.js';

/**
 * Streams the part into a new file under the store's `.tmp/` (same file system as the store; leftovers
 * of a crash are removed by the store's temp cleanup), so an upload is never held in memory.
 * multipart stops the stream at limits.fileSize; a truncated part is refused as too large.
 */
async function saveFilePart(part: MultipartFile, tmpRoot: string): Promise<string> {
  await mkdir(tmpRoot, { recursive: true });
  const path = join(tmpRoot, `upload-${Date.now()}-${randomBytes(8).toString('hex')}.epub`);
  try {
    await pipeline(part.file, createWriteStream(path, { flags: 'wx', mode: 0o600 }));
    if (part.file.truncated) throw new AppError('too_large', 'the file is larger than the upload limit');
    return path;
  } catch (err) {
    await rm(path, { force: true });
    if ((err as { code?: string }).code === 'FST_REQ_FILE_TOO_LARGE') {
      throw new AppError('too_large', 'the file is larger than the upload limit');
    }
    throw err;
  }
}

/** POST /book/upload: multipart field `file`; 413 too large, 415 not an EPUB, 422 unsafe archive. */
export const uploadRoute: FastifyPluginAsyncTypebox = async (app) => {
  app.post(
    '/book/upload',
    {
      schema: {
        operationId: 'uploadBook',
        tags: ['book'],
        summary:
          'Upload and parse an EPUB (multipart/form-data, field "file"); create it with POST /book/create',
        consumes: ['multipart/form-data'],
        // documents the form for OpenAPI clients; the part itself is checked by multipart and the parser
        body: Type.Object({ file: Type.String({ format: 'binary', description: 'The EPUB file.' }) }),
        response: responses(ref(AdminBookDetail), [409, 413, 415, 422]),
      },
      // the body is a stream read in the handler, not a parsed object: nothing for the validator to see
      validatorCompiler: () => () => true,
    },
    async (req) => {
      if (!req.isMultipart())
        throw new AppError('unsupported_media', 'send the EPUB as multipart/form-data, field "file"');
      const part = await req.file();
      if (part?.fieldname !== 'file') throw invalid('the multipart field "file" is required');
      const path = await saveFilePart(part, join(app.ctx.store.root, '.tmp'));
      try {
        return ok(await uploadEpub(app.ctx.ingest, path, part.filename ?? ''));
      } finally {
        await rm(path, { force: true });
      }
    },
  );
};
