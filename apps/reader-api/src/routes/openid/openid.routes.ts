import type { FastifyPluginAsyncTypebox } from '@fastify/type-provider-typebox';
import { OpenIdData, OpenIdQuery, PayOpenIdQuery, ref } from '@readlib/contracts';
import { alipayCodeToToken, loadAlipayKeys } from '../../platforms/alipay.client.js';
import { wechatCodeToSession } from '../../platforms/wechat.client.js';
import { ok, type RouteOptions, responses } from '../route-options.js';

const tags = ['login'];

/** Login-code exchange with the two host platforms (spec §4.3; decisions.md §3). */
export const openIdRoutes: FastifyPluginAsyncTypebox<RouteOptions> = async (app, { config, fetch, ctx }) => {
  const { timeoutMs, wechat, alipay } = config.platforms;

  app.get(
    '/openId/get',
    {
      schema: {
        operationId: 'getWechatOpenId',
        tags,
        summary: 'Exchange a messaging-platform (WeChat) login code for openid and session_key',
        querystring: ref(OpenIdQuery),
        response: responses(ref(OpenIdData), [502]),
      },
    },
    async (req) => {
      const { appId, code } = req.query;
      // a secret configured for the appId wins: the client-sent one is only a fallback
      const secret = wechat.secrets[appId] ?? req.query.secret;
      return ok(
        await wechatCodeToSession({ baseUrl: wechat.baseUrl, timeoutMs, fetch }, { appId, secret, code }),
      );
    },
  );

  const keys = loadAlipayKeys(alipay.keys);
  const alipayOptions = { gateway: alipay.gateway, keys, timeoutMs, fetch, now: ctx.now };
  for (const [path, operationId] of [
    ['/openId/get/payplatform', 'getPayPlatformOpenId'],
    ['/openId/get/alipay', 'getAlipayOpenId'],
  ] as const) {
    app.get(
      path,
      {
        schema: {
          operationId,
          tags,
          summary:
            'Exchange a payment-platform (Alipay) auth code for "<user id>|<platform user id>" and a token',
          querystring: ref(PayOpenIdQuery),
          response: responses(ref(OpenIdData), [502]),
        },
      },
      async (req) => ok(await alipayCodeToToken(alipayOptions, req.query)),
    );
  }
};
