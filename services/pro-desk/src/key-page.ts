import { Router, type Request, type RequestHandler } from 'express';
import { AppError, KEY_NO_LONGER_SHOWN, KEY_SESSION_MINUTES, KEY_SHOWN_FOR, noPersonalKeyToRevoke, signInCodeSentMessage } from '@frontdesk/domain';
import {
  endKeySessionOf,
  issuePersonalKey,
  keySessionOwner,
  openKeySession,
  personalKeyOf,
  personalKeysOf,
  requestSignInCode,
  revokeOwnKey,
  verifySignInCode,
} from '@frontdesk/use-cases';
import {
  bearerToken,
  codeEntryForm,
  cookieValue,
  emailCodeForm,
  formField,
  holderOf,
  html,
  lookUpCredential,
  sendView,
  ShownOnce,
  takeSignInCode,
  type Holder,
  type HostLimits,
  type Html,
  withinRequest,
} from '@frontdesk/http';
import type { AppContext } from './context';
import { backTo, codeSentSlot, codeStepAt, signInRouter, signOutStep, startSession, type PageSession } from './sign-in-steps';

const COOKIE = 'fd_key_session';
const CODE_AT = '/key/code';
const PURPOSE = 'get your Front Desk personal key';

/** What the /key routes share. */
interface KeyDeps {
  ctx: AppContext;
  limits: HostLimits;
}

const emailForm = (error = '', email = '') =>
  emailCodeForm({
    action: '/key/code',
    intro: html`A personal key lets your AI assistant list and manage your cleaning bookings. Sign in with your email: we send you a code.`,
    error,
    email,
  });
const codeForm = (email: string, error = '') => codeEntryForm({ action: '/key/verify', email, back: '/key', error });
const pageSession = (d: KeyDeps): PageSession => ({ cookie: COOKIE, path: '/key', secure: d.ctx.config.publicUrl.startsWith('https://') });
/** The new key between the POST that made it and the page that shows it (a reload shows it again; nothing is made twice). */
const newKeySlot = (d: KeyDeps) => new ShownOnce(d.ctx.config.keySealer, { name: 'fd_key_new', path: '/key', secure: pageSession(d).secure });

/** A live /key session: its address, and who a key it makes is shown to (a digest of its token). */
async function signedIn(d: KeyDeps, req: Request): Promise<{ email: string; holder: Holder } | null> {
  const token = cookieValue(req, COOKIE);
  const email = token ? await keySessionOwner(d.ctx.db, token, d.ctx.clock()) : null;
  return email && token ? { email, holder: holderOf('key session', token) } : null;
}

const keyRows = (keys: Awaited<ReturnType<typeof personalKeysOf>>): Html =>
  html`<table>
    ${keys.map(
      (k) =>
        html`<tr>
          <td class="key">fdp_…${k.key_hint}</td>
          <td>${k.created_at.toISOString().slice(0, 10)}</td>
          <td>
            <form method="post" action="/key/revoke"><input type="hidden" name="key_id" value="${k.id}" /><button type="submit">Revoke</button></form>
          </td>
        </tr>`,
    )}
  </table>`;

/** `/key`: the sign-in form, or the address's keys with a way to make or revoke one. */
const getKeys =
  (d: KeyDeps): RequestHandler =>
  async (req, res) => {
    const email = (await signedIn(d, req))?.email;
    if (!email) return sendView(res, 200, { title: 'Your personal key', body: emailForm() });
    const keys = await personalKeysOf(d.ctx.db, email);
    sendView(res, 200, {
      title: 'Your personal keys',
      body: html`<p>Signed in as <strong>${email}</strong>.</p>
        ${keys.length ? keyRows(keys) : html`<p>You have no keys yet.</p>`}
        <form method="post" action="/key/create"><button type="submit">Create a new key</button></form>
        <form method="post" action="/key/sign-out"><button type="submit">Sign out</button></form>`,
    });
  };

const codeStep = (d: KeyDeps) =>
  codeStepAt(d, CODE_AT, {
    purpose: PURPOSE,
    sent: (email) => ({ title: 'Check your email', body: codeForm(email) }),
    first: { title: 'Your personal key', form: emailForm },
  });

const postVerify =
  (d: KeyDeps): RequestHandler =>
  async (req, res) => {
    let email = '';
    try {
      email = formField(req.body, 'email');
      const token = await withinRequest(req, async () => {
        const verified = await verifySignInCode(d.ctx.db, email, formField(req.body, 'code'), { now: d.ctx.clock(), keys: d.ctx.config.keySealer.hashKeys });
        return openKeySession(d.ctx.db, verified, d.ctx.clock());
      });
      startSession(res, pageSession(d), { token, maxAgeSeconds: KEY_SESSION_MINUTES * 60 });
    } catch (err) {
      if (!(err instanceof AppError)) throw err;
      sendView(res, err.status, { title: 'Check your email', body: codeForm(email, err.message) });
    }
  };

const SIGNED_OUT = 'Your sign-in has ended; sign in again.';

/** Makes the key, keeps it for the page that shows it, and goes there: a reload never makes another. */
const postCreate =
  (d: KeyDeps): RequestHandler =>
  async (req, res) => {
    const signed = await signedIn(d, req);
    if (!signed) return sendView(res, 401, { title: 'Your personal key', body: emailForm(SIGNED_OUT) });
    const { key } = await withinRequest(req, () => issuePersonalKey(d.ctx.db, signed.email));
    res.redirect(303, `/key/new?ref=${newKeySlot(d).keep(res, signed.holder, key, d.ctx.clock())}`);
  };

/** The key the last POST made, to the session that made it while this browser keeps it; once gone, the page says so. */
const getNewKey =
  (d: KeyDeps): RequestHandler =>
  async (req, res) => {
    const holder = (await signedIn(d, req))?.holder ?? null;
    const key = newKeySlot(d).value<string>(req, holder, typeof req.query.ref === 'string' ? req.query.ref : '', d.ctx.clock());
    if (typeof key !== 'string') {
      return sendView(res, 404, {
        title: 'Your new personal key',
        body: html`<p>${KEY_NO_LONGER_SHOWN} Sign in and make another if you did not keep it.</p>
          <p><a href="/key">Back to your keys</a></p>`,
      });
    }
    sendView(res, 200, {
      title: 'Your new personal key',
      body: html`<p>${KEY_SHOWN_FOR} Give it to your assistant as <code>Authorization: Bearer &lt;key&gt;</code> for the booking service.</p>
        <p class="key" id="new-key">${key}</p>
        <p><a href="/key">Back to your keys</a></p>`,
    });
  };

const postRevoke =
  (d: KeyDeps): RequestHandler =>
  async (req, res) => {
    const email = (await signedIn(d, req))?.email;
    if (!email) return sendView(res, 401, { title: 'Your personal key', body: emailForm(SIGNED_OUT) });
    await withinRequest(req, () => revokeOwnKey(d.ctx.db, { keyId: formField(req.body, 'key_id'), email }, d.ctx.clock()));
    res.redirect(303, '/key');
  };

/** Signs out: the session ends, and the key it made and the address a code went to are no longer shown in this browser. */
const postSignOut = (d: KeyDeps): RequestHandler =>
  signOutStep(pageSession(d), (token) => endKeySessionOf(d.ctx.db, token), [newKeySlot(d), codeSentSlot(d.ctx, CODE_AT)]);

// The same for assistants, as JSON.
const apiCode =
  (d: KeyDeps): RequestHandler =>
  async (req, res) => {
    await takeSignInCode(d.limits, req, formField(req.body, 'email'));
    const sent = await withinRequest(req, () =>
      requestSignInCode(d.ctx.db, formField(req.body, 'email'), d.ctx.clock(), { purpose: PURPOSE, keys: d.ctx.config.keySealer.hashKeys }),
    );
    res.status(202).json({ email: sent.email, expires_at: sent.expiresAt.toISOString(), message: signInCodeSentMessage(sent.email) });
  };

const apiKeys =
  (d: KeyDeps): RequestHandler =>
  async (req, res) => {
    const { email, key, record } = await withinRequest(req, async () => {
      const email = await verifySignInCode(d.ctx.db, formField(req.body, 'email'), formField(req.body, 'code'), {
        now: d.ctx.clock(),
        keys: d.ctx.config.keySealer.hashKeys,
      });
      return { email, ...(await issuePersonalKey(d.ctx.db, email)) };
    });
    res
      .status(201)
      .json({ key, key_id: record.id, email, message: 'Shown once: store it now. Send it as Authorization: Bearer <key> to the booking service.' });
  };

const apiRevoke =
  (d: KeyDeps): RequestHandler =>
  async (req, res) => {
    const token = bearerToken(req);
    const key = token ? await lookUpCredential(d.limits, req, () => personalKeyOf(d.ctx.db, token)) : undefined;
    if (!key) throw noPersonalKeyToRevoke();
    await withinRequest(req, () => revokeOwnKey(d.ctx.db, { keyId: key.id, email: key.email }, d.ctx.clock()));
    res.json({ revoked: true, key_id: key.id, message: 'The key no longer works.' });
  };

/**
 * `{base_url}/key`: a customer signs in with an emailed code and gets a personal key for
 * the booking service, shown once, and can revoke keys. Works without JavaScript. The same
 * flow for assistants under /key/api.
 */
export function keyRouter(ctx: AppContext, limits: HostLimits): Router {
  const d: KeyDeps = { ctx, limits };
  // Forms post only from this site; the cookie is SameSite=Strict as well.
  const { router, form, json } = signInRouter(ctx, '/key', { limit: '8kb', step: codeStep(d) });
  router.get('/key', getKeys(d));
  router.post('/key/verify', form, postVerify(d));
  router.post('/key/create', postCreate(d));
  router.get('/key/new', getNewKey(d));
  router.post('/key/revoke', form, postRevoke(d));
  router.post('/key/sign-out', postSignOut(d));
  // A form's address opened as a page (a bookmark, a reload after a refusal): the page it is on.
  router.get(['/key/verify', '/key/create', '/key/revoke', '/key/sign-out'], backTo('/key'));
  router.post('/key/api/code', json, apiCode(d));
  router.post('/key/api/keys', json, apiKeys(d));
  router.post('/key/api/revoke', apiRevoke(d));
  return router;
}
