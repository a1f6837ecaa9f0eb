import type { Kysely } from 'kysely';
import type { Database, Upload } from '../database.js';

export async function createUpload(
  db: Kysely<Database>,
  u: { fileName: string; originalName: string; parsed: unknown; ttlMs: number },
  now = Date.now(),
): Promise<void> {
  await db
    .insertInto('uploads')
    .values({
      file_name: u.fileName,
      original_name: u.originalName,
      parsed: JSON.stringify(u.parsed),
      created_at: now,
      expires_at: now + u.ttlMs,
    })
    .execute();
}

export async function findUpload(db: Kysely<Database>, fileName: string): Promise<Upload | undefined> {
  return db.selectFrom('uploads').selectAll().where('file_name', '=', fileName).executeTakeFirst();
}

export async function deleteUpload(db: Kysely<Database>, fileName: string): Promise<boolean> {
  const res = await db.deleteFrom('uploads').where('file_name', '=', fileName).executeTakeFirst();
  return Number(res.numDeletedRows) > 0;
}

export async function expiredUploads(db: Kysely<Database>, now = Date.now()): Promise<Upload[]> {
  return db.selectFrom('uploads').selectAll().where('expires_at', '<=', now).orderBy('expires_at').execute();
}

export async function allUploadFileNames(db: Kysely<Database>): Promise<string[]> {
  return (await db.selectFrom('uploads').select('file_name').execute()).map((r) => r.file_name);
}
