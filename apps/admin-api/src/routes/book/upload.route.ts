import type { MultipartFile } from '@fastify/multipart';
import type { FastifyPluginAsyncTypebox } from '@fastify/type-provider-typebox';
import { AppError, invalid, uploadEpub } from '@readlib/catalog';
import { AdminBookDetail, ref } from '@readlib/contracts';
import { Type } from '@sinclair/typebox';
import { ok, responses } from '../responses.js';

async function readFilePart(part: MultipartFile): Promise<Buffer> {
  try {
    // multipart stops the stream at limits.fileSize, so this never holds more than the limit
    return await part.toBuffer();
  } catch (err) {
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
      const buffer = await readFilePart(part);
      return ok(await uploadEpub(app.ctx.ingest, buffer, part.filename ?? ''));
    },
  );
};
