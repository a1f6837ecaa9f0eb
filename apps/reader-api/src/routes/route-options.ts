import type { ReaderContext } from '@readlib/catalog';
import type { AppConfig } from '@readlib/config';
import { readerRoutes } from '@readlib/contracts';
import { servesOf, success } from '@readlib/http';
import type { FastifyReply } from 'fastify';
import type { FetchLike } from '../platforms/upstream.js';

/** What every route plugin receives from buildApp. */
export interface RouteOptions {
  ctx: ReaderContext;
  config: AppConfig;
  fetch: FetchLike;
}

/** Registers a route of the reader table (`readerRoutes`) with its handler. */
export const serve = servesOf('reader', readerRoutes);

export const ok = <T>(data: T) => success('reader', data);
/** A success envelope up to its data: `{"error_code":0,"msg":"success","data":` */
export const DATA_HEAD = JSON.stringify(ok(0)).slice(0, -2);
/** The envelope without data: the ack routes declare no `data` field. */
export const ack = (): { error_code: number; msg: string } => success('reader');

/** Sends an envelope already serialised (kept answers), as the route's serialiser would have sent it. */
export const sendJson = (reply: FastifyReply, json: string | Buffer): FastifyReply =>
  reply.type('application/json; charset=utf-8').send(json);

/**
 * Text as UTF-8 bytes in a buffer of their own, for answers kept across requests. `Buffer.from` puts
 * short text in a slice of an 8 KB slab Node shares between allocations, and a slice kept alive keeps
 * its whole slab alive: thousands of kept book summaries could hold a slab each.
 */
export function keptBytes(text: string): Buffer {
  const bytes = Buffer.allocUnsafeSlow(Buffer.byteLength(text));
  bytes.write(text);
  return bytes;
}
