import { createCipheriv, createDecipheriv, randomBytes } from 'node:crypto';
import express from 'express';
import request from 'supertest';
import { holderOf, html, htmlText, inPeoplesWords, inputField, safeUrl, ShownOnce, trusted, type Sealer } from '../src';

/** AES-GCM with the kid as associated data, as the services' KeySealer does. */
function testSealer(): Sealer {
  const key = randomBytes(32);
  return {
    seal(plain, kid) {
      const iv = randomBytes(12);
      const c = createCipheriv('aes-256-gcm', key, iv).setAAD(Buffer.from(kid));
      const body = Buffer.concat([c.update(plain), c.final()]);
      return Buffer.concat([iv, c.getAuthTag(), body]);
    },
    open(sealed, kid) {
      const d = createDecipheriv('aes-256-gcm', key, sealed.subarray(0, 12)).setAAD(Buffer.from(kid)).setAuthTag(sealed.subarray(12, 28));
      return Buffer.concat([d.update(sealed.subarray(28)), d.final()]);
    },
  };
}

describe('the html template', () => {
  it('escapes every value in text and attributes, and leaves Html as it is', () => {
    const name = `"><img src=x onerror=alert(1)>'\`&`;
    const out = htmlText(html`<p title="${name}">${name}${html`<b>${name}</b>`}${[html`<i>1</i>`, '<2>']}</p>`);
    expect(out).not.toMatch(/<img/);
    expect(out).toContain('&quot;&gt;&lt;img src=x onerror=alert(1)&gt;&#39;&#96;&amp;');
    expect(out).toContain('<b>&quot;');
    expect(out).toContain('<i>1</i>&lt;2&gt;');
  });

  it('renders nothing for null, undefined and false, and numbers as text', () => {
    expect(htmlText(html`${null}${undefined}${false}${0}${trusted('<hr>')}`)).toBe('0<hr>');
  });

  it('lets only web, mail and phone addresses or own paths into links', () => {
    expect(safeUrl('javascript:alert(1)')).toBe('#');
    expect(safeUrl(' JavaScript:alert(1)')).toBe('#');
    expect(safeUrl('data:text/html,x')).toBe('#');
    expect(safeUrl('//evil.example/x')).toBe('#');
    expect(safeUrl('/manage/abc')).toBe('/manage/abc');
    expect(safeUrl('https://a.example/')).toBe('https://a.example/');
  });
});

describe('refusals in people words', () => {
  const labels = { 'prices.base': 'Base price', service_zips: 'ZIP codes you serve', 'working_hours.monday': 'Monday hours' };

  it('names the field by its label and marks it', () => {
    expect(inPeoplesWords('prices.base must be at least 0.', labels)).toEqual({ text: 'Base price must be at least 0.', field: 'prices.base' });
    expect(inPeoplesWords('service_zips[1] must be exactly 5 digits.', labels)).toEqual({
      text: 'ZIP codes you serve (the second entry) must be exactly 5 digits.',
      field: 'service_zips',
    });
    expect(inPeoplesWords('working_hours.monday[0] must be a working window.', labels).text).toBe('Monday hours (the first entry) must be a working window.');
  });

  it('names another field the sentence ends a clause with by its label too', () => {
    const offLabels = { start: 'First day off', end: 'Last day off', note: 'Note' };
    expect(inPeoplesWords('end must be after start.', offLabels)).toEqual({ text: 'Last day off must be after first day off.', field: 'end' });
    // A word that is a field's name inside the sentence, not ending a clause, is left alone.
    expect(inPeoplesWords('note must not start with a space.', offLabels).text).toBe('Note must not start with a space.');
  });

  it('never shows a path it has no label for, and leaves sentences alone', () => {
    expect(inPeoplesWords('prices.deep_multiplier must be at least 1.', labels)).toEqual({ text: 'This must be at least 1.' });
    expect(inPeoplesWords('That time was just taken.', labels)).toEqual({ text: 'That time was just taken.' });
  });

  it('marks the field it is about, with the sentence next to it', () => {
    const problem = inPeoplesWords('prices.base must be at least 0.', labels);
    const out = htmlText(inputField({ label: 'Base price', name: 'prices.base', value: '-5' }, problem));
    expect(out).toContain('aria-invalid="true"');
    expect(out).toContain('value="-5"');
    expect(out).toContain('Base price must be at least 0.');
  });
});

describe('what a form shows once', () => {
  const slot = { name: 'fd_shown', path: '/', secure: false };

  // The holder is who the page is opened by (a session, in the pages): `?as=` here.
  const holder = (as: unknown) => (typeof as === 'string' && as ? holderOf('test', as) : null);

  function app(shown: ShownOnce, clock: () => Date) {
    const a = express();
    a.post('/make', (req, res) =>
      res.redirect(
        303,
        `/made/${shown.keep(res, holder(req.query.as)!, { key: 'pk_secret' }, clock())}?as=${typeof req.query.as === 'string' ? req.query.as : ''}`,
      ),
    );
    a.get('/made/:ref', (req, res) => {
      const v = shown.value<{ key: string }>(req, holder(req.query.as), req.params.ref, clock());
      res.status(v ? 200 : 410).send(v ? v.key : 'gone');
    });
    return a;
  }

  it('shows the result on every reload in the browser that made it, to its holder alone, and nowhere else', async () => {
    let now = new Date('2026-11-24T10:00:00Z');
    const sealer = testSealer();
    const a = app(new ShownOnce(sealer, slot), () => now);
    const agent = request.agent(a);
    const made = await agent.post('/make?as=ann').expect(303);
    const where = made.headers.location as string;
    expect(made.headers['set-cookie']?.[0]).toMatch(/HttpOnly; SameSite=Strict; Max-Age=900/);
    // The holder is sealed as a digest: the cookie's plain text never carries it.
    expect(
      sealer
        .open(Buffer.from(/fd_shown=([^;]+)/.exec(made.headers['set-cookie']![0]!)![1]!, 'base64url'), `shown-once:fd_shown:${/made\/([^?]+)/.exec(where)![1]}`)
        .toString(),
    ).not.toContain('ann');
    await agent.get(where).expect(200, 'pk_secret');
    await agent.get(where).expect(200, 'pk_secret');
    // The same browser and reference, opened by another holder or by none: nothing.
    await agent.get(where.replace('as=ann', 'as=bob')).expect(410);
    await agent.get(where.replace('as=ann', 'as=')).expect(410);
    await request(a).get(where).expect(410);
    await agent.get('/made/another-reference?as=ann').expect(410);
    now = new Date(now.getTime() + 16 * 60_000);
    await agent.get(where).expect(410);
  });
});
