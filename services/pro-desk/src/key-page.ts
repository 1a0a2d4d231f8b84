import express, { Router, type Request } from 'express';
import { createPersonalKey, endKeySession, findPersonalKey, keySessionEmail, revokePersonalKey } from '@frontdesk/db';
import { AppError, InvalidInputError, KEY_SESSION_MINUTES } from '@frontdesk/domain';
import { openKeySession, requestSignInCode, verifySignInCode } from '@frontdesk/use-cases';
import {
  bearerToken,
  codeEntryForm,
  cookieValue,
  sessionCookie,
  emailCodeForm,
  esc,
  formField,
  formsFromThisSite,
  lookUpCredential,
  sendPage,
  setErrorHeaders,
  takeSignInCode,
  type HostLimits,
} from '@frontdesk/http';
import type { AppContext } from './context';

const COOKIE = 'fd_key_session';
const PURPOSE = 'get your Front Desk personal key';

const emailForm = (error = '') =>
  emailCodeForm({
    action: '/key/code',
    intro: 'A personal key lets your AI assistant list and manage your cleaning bookings. Sign in with your email: we send you a code.',
    error,
  });

const codeForm = (email: string, error = '') => codeEntryForm({ action: '/key/verify', email, back: '/key', error });

const cookieOf = (req: Request) => cookieValue(req, COOKIE);

/**
 * `{base_url}/key`: a customer signs in with an emailed code and gets a personal key for
 * the booking service, shown once, and can revoke keys. Works without JavaScript. The same
 * flow for assistants under /key/api.
 */
export function keyRouter(ctx: AppContext, limits: HostLimits): Router {
  const router = Router();
  const secure = ctx.config.publicUrl.startsWith('https://');
  const form = express.urlencoded({ extended: false, limit: '8kb' });
  const json = express.json({ limit: '8kb' });

  const html = sendPage;
  // Forms post only from this site; the cookie is SameSite=Strict as well.
  router.post('/key/*path', formsFromThisSite(ctx.config.publicUrl, '/key/api/'));
  const signedIn = async (req: Request) => {
    const token = cookieOf(req);
    return token ? keySessionEmail(ctx.db, token, ctx.clock()) : null;
  };

  router.get('/key', async (req, res) => {
    const email = await signedIn(req);
    if (!email) return html(res, 200, 'Your personal key', emailForm());
    const keys = await ctx.db
      .selectFrom('personal_keys')
      .select(['id', 'key_hint', 'created_at'])
      .where('email', '=', email)
      .where('revoked_at', 'is', null)
      .orderBy('created_at')
      .execute();
    const rows = keys
      .map(
        (k) => `<tr><td class="key">fdp_…${esc(k.key_hint)}</td><td>${esc(k.created_at.toISOString().slice(0, 10))}</td>
<td><form method="post" action="/key/revoke"><input type="hidden" name="key_id" value="${esc(k.id)}"><button type="submit">Revoke</button></form></td></tr>`,
      )
      .join('');
    html(
      res,
      200,
      'Your personal keys',
      `<p>Signed in as <strong>${esc(email)}</strong>.</p>
${keys.length ? `<table>${rows}</table>` : '<p>You have no keys yet.</p>'}
<form method="post" action="/key/create"><button type="submit">Create a new key</button></form>
<form method="post" action="/key/sign-out"><button type="submit">Sign out</button></form>`,
    );
  });

  router.post('/key/code', form, async (req, res) => {
    const email = formField(req.body, 'email');
    try {
      await takeSignInCode(limits, req, email);
      const sent = await requestSignInCode(ctx.db, email, ctx.clock(), PURPOSE);
      html(res, 200, 'Check your email', codeForm(sent.email));
    } catch (err) {
      if (!(err instanceof AppError)) throw err;
      setErrorHeaders(res, err);
      html(res, err.status, 'Your personal key', emailForm(err.message));
    }
  });

  router.post('/key/verify', form, async (req, res) => {
    const email = formField(req.body, 'email');
    try {
      const verified = await verifySignInCode(ctx.db, email, formField(req.body, 'code'), ctx.clock());
      const token = await openKeySession(ctx.db, verified, ctx.clock());
      res.setHeader('Set-Cookie', sessionCookie(COOKIE, '/key', token, KEY_SESSION_MINUTES * 60, secure));
      res.redirect(303, '/key');
    } catch (err) {
      if (!(err instanceof AppError)) throw err;
      html(res, err.status, 'Check your email', codeForm(email, err.message));
    }
  });

  router.post('/key/create', async (req, res) => {
    const email = await signedIn(req);
    if (!email) return html(res, 401, 'Your personal key', emailForm('Your sign-in has ended; sign in again.'));
    const { key } = await createPersonalKey(ctx.db, email);
    html(
      res,
      201,
      'Your new personal key',
      `<p>Copy it now: it is shown only this once. Give it to your assistant as <code>Authorization: Bearer &lt;key&gt;</code> for the booking service.</p>
<p class="key" id="new-key">${esc(key)}</p><p><a href="/key">Back to your keys</a></p>`,
    );
  });

  router.post('/key/revoke', form, async (req, res) => {
    const email = await signedIn(req);
    if (!email) return html(res, 401, 'Your personal key', emailForm('Your sign-in has ended; sign in again.'));
    await revokePersonalKey(ctx.db, formField(req.body, 'key_id'), email);
    res.redirect(303, '/key');
  });

  router.post('/key/sign-out', async (req, res) => {
    const token = cookieOf(req);
    if (token) await endKeySession(ctx.db, token);
    res.setHeader('Set-Cookie', sessionCookie(COOKIE, '/key', '', 0, secure));
    res.redirect(303, '/key');
  });

  // The same for assistants, as JSON.
  router.post('/key/api/code', json, async (req, res) => {
    await takeSignInCode(limits, req, formField(req.body, 'email'));
    const sent = await requestSignInCode(ctx.db, formField(req.body, 'email'), ctx.clock(), PURPOSE);
    res.status(202).json({
      email: sent.email,
      expires_at: sent.expiresAt.toISOString(),
      message: `A 6-digit code was sent to ${sent.email}; it works once, for 10 minutes.`,
    });
  });
  router.post('/key/api/keys', json, async (req, res) => {
    const email = await verifySignInCode(ctx.db, formField(req.body, 'email'), formField(req.body, 'code'), ctx.clock());
    const { key, record } = await createPersonalKey(ctx.db, email);
    res
      .status(201)
      .json({ key, key_id: record.id, email, message: 'Shown once: store it now. Send it as Authorization: Bearer <key> to the booking service.' });
  });
  router.post('/key/api/revoke', async (req, res) => {
    const token = bearerToken(req);
    const key = token ? await lookUpCredential(limits, req, () => findPersonalKey(ctx.db, token)) : undefined;
    if (!key) throw new InvalidInputError('Send the personal key to revoke as Authorization: Bearer <key>.');
    await revokePersonalKey(ctx.db, key.id, key.email);
    res.json({ revoked: true, key_id: key.id, message: 'The key no longer works.' });
  });
  return router;
}
