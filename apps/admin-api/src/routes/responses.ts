import { AdminAck, AdminEnvelope } from '@readlib/contracts';
import { errorResponses, success } from '@readlib/http';
import type { TSchema } from '@sinclair/typebox';

/** Statuses any route can answer: validation (400), global rate limit (429), internal (500), database busy (503). */
const COMMON = [400, 429, 500, 503];
/** ...and every route behind the token: 401 with code -2. */
export const AUTHED = [...COMMON, 401];

/** 200 with `data` plus every error status of a token-protected route. */
export function responses<T extends TSchema>(data: T, errors: number[] = []) {
  return { 200: AdminEnvelope(data), ...errorResponses('admin', [...AUTHED, ...errors]) };
}

/** 200 with `data: null` (update, delete, create) plus every error status of a token-protected route. */
export function ackResponses(errors: number[] = []) {
  return { 200: AdminAck, ...errorResponses('admin', [...AUTHED, ...errors]) };
}

/** Error statuses of a route outside the token (login). */
export const publicErrors = (errors: number[]) => errorResponses('admin', [...COMMON, ...errors]);

export const ok = <T>(data: T) => success('admin', data) as { code: number; msg: string; data: T };
export const ack = () => ({ code: 0, msg: 'success', data: null });

/** The bodies decisions.md §4 accepts on its writes, declared so OpenAPI lists the form beside JSON. */
export const JSON_OR_FORM = ['application/json', 'application/x-www-form-urlencoded'];
