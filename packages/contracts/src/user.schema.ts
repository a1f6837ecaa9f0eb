import { type Static, Type } from '@sinclair/typebox';
import { DEFAULT_PLATFORM, freeString, MaxLength, openIdParam, requiredString } from './fields.js';

/** POST /user/register body (spec §4.4): an upsert keyed by openId (decisions.md §3). */
export const RegisterBody = Type.Object(
  {
    openId: openIdParam(),
    platform: Type.Optional(
      Type.String({
        minLength: 1,
        maxLength: MaxLength.code,
        description: `Platform the user belongs to (default "${DEFAULT_PLATFORM}", the messaging platform, at the first registration; a later one without it keeps the platform).`,
      }),
    ),
    avatarUrl: Type.Optional(freeString(MaxLength.avatarUrl, 'Avatar image address.')),
    nickName: Type.Optional(freeString(MaxLength.nickName, 'Nickname.')),
    gender: Type.Optional(
      Type.Integer({
        minimum: 0,
        maximum: 2,
        description: '1 male, 2 female, 0 undisclosed (default 0 at the first registration).',
      }),
    ),
    country: Type.Optional(freeString(MaxLength.shortText, 'Country.')),
    province: Type.Optional(freeString(MaxLength.shortText, 'Province.')),
    city: Type.Optional(freeString(MaxLength.shortText, 'City.')),
    language: Type.Optional(freeString(MaxLength.code, 'Language.')),
  },
  {
    $id: 'RegisterBody',
    additionalProperties: false,
    description:
      'Registration body (spec §4.4). An upsert keyed by openId: a later call changes the fields it sends and keeps the others, and the registration time.',
  },
);
export interface RegisterBody extends Static<typeof RegisterBody> {}

/** GET /user/day query (spec §4.10). */
export const UserDayQuery = Type.Object(
  { openId: openIdParam() },
  { $id: 'UserDayQuery', description: 'Days-since-registration query (spec §4.10).' },
);
export interface UserDayQuery extends Static<typeof UserDayQuery> {}

/** GET /user/day data (spec §4.10): whole days, the registration day counting as day 1. */
export const UserDayData = Type.Object(
  {
    day: Type.Integer({ minimum: 1, description: 'Days since registration, the registration day being 1.' }),
  },
  { $id: 'UserDayData', description: 'Days since registration (spec §4.10).' },
);
export interface UserDayData extends Static<typeof UserDayData> {}

/** GET /openId/get query, messaging platform (spec §4.3). */
export const OpenIdQuery = Type.Object(
  {
    appId: requiredString(MaxLength.appId, 'Mini-program app id.'),
    code: requiredString(MaxLength.authCode, 'Code obtained from the platform login call.'),
    secret: requiredString(
      MaxLength.secret,
      'Mini-program secret; used only when the server has none for this appId.',
    ),
  },
  { $id: 'OpenIdQuery', description: 'Login-code exchange query, messaging platform (spec §4.3).' },
);
export interface OpenIdQuery extends Static<typeof OpenIdQuery> {}

/** GET /openId/get/payplatform (and /openId/get/alipay) query (spec §4.3, decisions.md §3). */
export const PayOpenIdQuery = Type.Object(
  {
    appId: requiredString(MaxLength.appId, 'Mini-program app id.'),
    code: requiredString(MaxLength.authCode, 'Authorisation code obtained from the platform.'),
  },
  { $id: 'PayOpenIdQuery', description: 'Login-code exchange query, payment platform (spec §4.3).' },
);
export interface PayOpenIdQuery extends Static<typeof PayOpenIdQuery> {}

/** Login-code exchange data (spec §4.3): exactly `{openid, session_key}`. */
export const OpenIdData = Type.Object(
  {
    openid: Type.String({
      description: 'User identifier; on the payment platform `<user id>|<platform user id>`.',
    }),
    session_key: Type.String({
      description: 'Session key for platform JS API requests (payment platform: the access token).',
    }),
  },
  { $id: 'OpenIdData', description: 'Login-code exchange result (spec §4.3).' },
);
export interface OpenIdData extends Static<typeof OpenIdData> {}
