import { ReaderKeeps } from '@readlib/catalog';
import Fastify from 'fastify';
import { describe, expect, it } from 'vitest';
import { KeptEnvelopes } from '../src/routes/kept-envelopes.js';

// Issue: performance — search and search-list pages the catalogue keeps (spec §4.5, §4.6) are
// serialised once per kept object; what is sent must be what the route's schema serialiser sends.
describe('KeptEnvelopes', () => {
  async function stand() {
    const envelopes = new KeptEnvelopes(new ReaderKeeps().versions, 'pages, serialised');
    const app = Fastify();
    let data: { title: string }[] = [];
    const schema = {
      response: {
        200: {
          type: 'object',
          properties: {
            error_code: { type: 'integer' },
            msg: { type: 'string' },
            data: { type: 'array', items: { type: 'object', properties: { title: { type: 'string' } } } },
          },
        },
      },
    };
    app.get('/k', { schema }, async (_req, reply) => envelopes.send(reply, data));
    const send = async (d: { title: string }[]) => {
      data = d;
      const res = await app.inject('/k');
      expect(res.headers['content-type']).toBe('application/json; charset=utf-8');
      expect(Number(res.headers['content-length'])).toBe(res.rawPayload.length);
      return JSON.parse(res.rawPayload.toString('utf8'));
    };
    return { app, send };
  }

  it("sends the route schema's serialisation: declared fields only, in the envelope", async () => {
    const { app, send } = await stand();
    const page = [{ title: '红楼梦', extra: 'not declared' }];
    expect(await send(page)).toEqual({ error_code: 0, msg: 'success', data: [{ title: '红楼梦' }] });
    expect(await send(page)).toEqual({ error_code: 0, msg: 'success', data: [{ title: '红楼梦' }] });
    await app.close();
  });

  it('keeps an object from its second sending on; an object sent once is not kept', async () => {
    const { app, send } = await stand();
    const page = [{ title: 'first' }];
    expect((await send(page)).data[0].title).toBe('first');
    // sent once only: nothing kept, so the object is serialised anew
    page[0]!.title = 'second';
    expect((await send(page)).data[0].title).toBe('second');
    // kept at its second sending: the memo never changes a kept answer, so this change is not sent
    page[0]!.title = 'changed in place';
    expect((await send(page)).data[0].title).toBe('second');
    // another object (the memo's next answer) is its own
    expect((await send([{ title: 'next' }])).data[0].title).toBe('next');
    await app.close();
  });
});
