import type { FastifyPluginAsync } from 'fastify';
import { alipayCodeToToken, loadAlipayKeys } from '../../platforms/alipay.client.js';
import { wechatCodeToSession } from '../../platforms/wechat.client.js';
import { ok, type RouteOptions, serve } from '../route-options.js';

/** Login-code exchange with the two host platforms (spec §4.3; decisions.md §3). */
export const openIdRoutes: FastifyPluginAsync<RouteOptions> = async (app, { config, fetch, ctx }) => {
  const { timeoutMs, wechat, alipay } = config.platforms;

  serve(app, 'getWechatOpenId', async (req) => {
    const { appId, code } = req.query;
    // a secret configured for the appId wins: the client-sent one is only a fallback
    const secret = wechat.secrets[appId] ?? req.query.secret;
    return ok(
      await wechatCodeToSession({ baseUrl: wechat.baseUrl, timeoutMs, fetch }, { appId, secret, code }),
    );
  });

  const keys = loadAlipayKeys(alipay.keys);
  const alipayOptions = { gateway: alipay.gateway, keys, timeoutMs, fetch, now: ctx.now };
  // the spec's path, and the one existing mini-program clients call
  for (const operationId of ['getPayPlatformOpenId', 'getAlipayOpenId'] as const) {
    serve(app, operationId, async (req) => ok(await alipayCodeToToken(alipayOptions, req.query)));
  }
};
