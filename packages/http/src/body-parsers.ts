import { invalid } from '@readlib/contracts';
import type { FastifyInstance, FastifyRequest } from 'fastify';
import secureJson from 'secure-json-parse';

/**
 * JSON bodies are parsed as Fastify's own parser parses them (secure-json-parse, refusing a `__proto__`
 * or `constructor.prototype` key), with a message that says what is wrong: Fastify's says "not valid
 * JSON" for a poisoned body too, and drops the parser's position. Plain text has no parser, so a JSON
 * body sent as text/plain (what `fetch` sends a string as) is refused 415 with what to send, instead
 * of reaching validation as a string ("body must be object").
 */
export function installBodyParsers(app: FastifyInstance): void {
  app.removeContentTypeParser(['application/json', 'text/plain']);
  app.addContentTypeParser('application/json', { parseAs: 'string' }, (req, body, done) => {
    if (body === '') {
      // a POST taking no body (POST /user/info, /user/logout) is sent by clients that set the JSON
      // content-type on every request: nothing to parse, nothing missing
      if (!takesBody(req)) return done(null, undefined);
      return done(invalid('the body is empty, with content-type application/json'));
    }
    try {
      done(null, secureJson.parse(body as string, { protoAction: 'error', constructorAction: 'error' }));
    } catch (err) {
      const text = (err as Error).message;
      done(
        invalid(
          /^Object contains forbidden/.test(text)
            ? 'the body holds a "__proto__" or "constructor.prototype" key, which is refused'
            : `the body is not valid JSON: ${text.slice(0, 200)}`,
        ),
      );
    }
  });
}

/** Whether the request's route reads a body (its schema has one). */
function takesBody(req: FastifyRequest): boolean {
  return (req.routeOptions.schema as { body?: unknown } | undefined)?.body !== undefined;
}

/** What a route with no parser for a request's content-type answers (Fastify's says "Unsupported Media Type"). */
export function unsupportedMediaMessage(req: FastifyRequest): string {
  const sent = req.headers['content-type']?.split(';')[0]?.trim().slice(0, 100) || 'none';
  const takes = (req.routeOptions.schema as { consumes?: readonly string[] } | undefined)?.consumes ?? [
    'application/json',
  ];
  return `content-type ${sent} is not taken here: send ${takes.join(' or ')}`;
}
