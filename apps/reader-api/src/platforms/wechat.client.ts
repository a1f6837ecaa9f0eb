import type { OpenIdData } from '@readlib/contracts';
import { callPlatform, type FetchLike, parseObject, upstreamError } from './upstream.js';

export interface WechatOptions {
  baseUrl: string;
  timeoutMs: number;
  fetch: FetchLike;
}

/** jscode2session: exchanges a mini-program login code for {openid, session_key} (decisions.md §3). */
export async function wechatCodeToSession(
  opts: WechatOptions,
  input: { appId: string; secret: string; code: string },
): Promise<OpenIdData> {
  // under the base's path, if it has one (an egress proxy at https://proxy.internal/wechat/)
  const url = new URL('sns/jscode2session', opts.baseUrl.endsWith('/') ? opts.baseUrl : `${opts.baseUrl}/`);
  url.search = new URLSearchParams({
    appid: input.appId,
    secret: input.secret,
    js_code: input.code,
    grant_type: 'authorization_code',
  }).toString();
  const text = await callPlatform('wechat', opts.fetch, url.toString(), { method: 'GET' }, opts.timeoutMs);
  const body = parseObject('wechat', text);
  // WeChat reports refusals with HTTP 200 and a non-zero errcode
  if (body.errcode !== undefined && Number(body.errcode) !== 0) {
    throw upstreamError(
      'wechat',
      `refused the code (${String(body.errcode)} ${String(body.errmsg ?? '')})`.trim(),
    );
  }
  if (typeof body.openid !== 'string' || !body.openid || typeof body.session_key !== 'string') {
    throw upstreamError('wechat', 'answer lacks openid or session_key');
  }
  return { openid: body.openid, session_key: body.session_key };
}
