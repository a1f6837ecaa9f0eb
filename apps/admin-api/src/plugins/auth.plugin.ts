import jwt from '@fastify/jwt';
import type { OperatorTokens } from '@readlib/catalog';
import type { AppConfig } from '@readlib/config';
import { AppError } from '@readlib/contracts';
import type { FastifyInstance, FastifyRequest } from 'fastify';
import fp from 'fastify-plugin';

export interface OperatorClaims {
  /** operator id, as a string (JWT `sub`) */
  sub: string;
  username: string;
  /** the operator's token version at login: a password reset moves it and refuses this token */
  ver?: number;
}

declare module '@fastify/jwt' {
  interface FastifyJWT {
    payload: OperatorClaims;
    user: OperatorClaims;
  }
}

declare module 'fastify' {
  interface FastifyInstance {
    /**
     * Refuses (401, code -2) anything without a valid Bearer token, and a token whose operator is gone
     * or has had the password reset since it was issued. Scopes install it with requireOperator.
     */
    authenticate: (req: FastifyRequest) => Promise<void>;
    /** the operators' token versions the process keeps (docs/architecture/caches.md) */
    operatorTokens: OperatorTokens;
  }
}

/** HS256 only, on both sides, so a token cannot choose its own algorithm (`none`, RS/HS confusion). */
export const authPlugin = fp(
  async (app, opts: { config: AppConfig; stillValid: (claims: OperatorClaims) => Promise<boolean> }) => {
    await app.register(jwt, {
      secret: opts.config.jwt.secret,
      sign: { algorithm: 'HS256', expiresIn: opts.config.jwt.expiresIn },
      verify: { algorithms: ['HS256'] },
    });
    app.decorate('authenticate', async (req: FastifyRequest) => {
      try {
        await req.jwtVerify();
      } catch (err) {
        // every failure (no header, other scheme, expired, bad signature, alg none) is the same class: 401 / -2
        const expired = (err as { code?: string }).code === 'FST_JWT_AUTHORIZATION_TOKEN_EXPIRED';
        throw new AppError('unauthorized', expired ? 'token expired' : 'a valid Bearer token is required');
      }
      if (!(await opts.stillValid(req.user))) throw new AppError('unauthorized', 'token revoked');
    });
  },
  { name: 'admin-auth' },
);

/**
 * Puts a scope's routes behind the token. A preParsing hook: it runs after the rate limit has counted
 * the request (the limit's hook is route-level onRequest, which runs after a scope's onRequest hooks,
 * so refusing there let anonymous floods go uncounted) and before a byte of the body is read, so an
 * anonymous upload is refused unread.
 */
export function requireOperator(app: FastifyInstance): void {
  app.addHook('preParsing', async (req) => {
    await app.authenticate(req);
  });
}
