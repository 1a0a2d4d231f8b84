import { createHash, timingSafeEqual } from 'node:crypto';
import express, { Router, type Request, type Response } from 'express';
import { AppError, DASHBOARD_SESSION_HOURS, WEEKDAYS, localDate } from '@frontdesk/domain';
import {
  calendarFeedOf,
  createProSession,
  endProSession,
  getPro,
  markNotificationsRead,
  proOfSession,
  proOwnedBy,
  rotateCalendarFeed,
  rotateProKey,
  unreadNotifications,
  upcomingBookings,
  upcomingTimeOff,
  type Pro,
} from '@frontdesk/db';
import { calendarFeed, followUpsDue, pipelineReport, requestSignInCode, verifySignInCode, type AffectedJob } from '@frontdesk/use-cases';
import {
  allowOwnScripts,
  codeEntryForm,
  cookieValue,
  emailCodeForm,
  esc,
  formField,
  formsFromThisSite,
  sendPage,
  sessionCookie,
  setErrorHeaders,
  runOperation,
  takeSignInCode,
  type HostLimits,
  type Operation,
  type RunOptions,
} from '@frontdesk/http';
import type { AppContext } from '../context';
import { COPY_SCRIPT, dashboardHtml, type Notice } from './view';

const COOKIE = 'fd_pro_session';
const PURPOSE = 'sign in to your Front Desk dashboard';

const signInForm = (error = '', email = '') =>
  emailCodeForm({
    action: '/dashboard/code',
    intro: 'Sign in with the email your business signed up with: we send you a code. New here? <a href="/signup">Sign your business up</a>.',
    label: 'Business email',
    error,
    email,
  });
const codeForm = (email: string, error = '') => codeEntryForm({ action: '/dashboard/verify', email, back: '/dashboard', error });

/** The form token of a session: only a page of that session can know it (sessions are never in a page). */
const csrfOf = (session: string) => createHash('sha256').update(`csrf:${session}`).digest('base64url');

/** Form text as update_business's input: digits become numbers, anything else is left for the schema to name. */
function numeric(text: string): number | string | undefined {
  const t = text.trim();
  if (t === '') return undefined;
  return /^-?\d+(\.\d+)?$/.test(t) ? Number(t) : t;
}
const optionalText = (text: string) => (text.trim() === '' ? null : text.trim());
const list = (text: string) => text.split(/[\s,;]+/).filter(Boolean);

/** Each settings form, read into the one input update_business takes. */
const SETTINGS_FORMS: Record<string, { saved: string; read(body: unknown): Record<string, unknown> }> = {
  hours: {
    saved: 'Saved your working hours.',
    read: (body) => ({ working_hours: Object.fromEntries(WEEKDAYS.map((day) => [day, list(formField(body, day))])) }),
  },
  prices: {
    saved: 'Saved your prices. New quotes use them now; booked jobs keep their price.',
    read: (body) => {
      const prices: Record<string, unknown> = {};
      for (const name of ['base', 'per_bedroom', 'per_bathroom', 'minimum', 'pets_fee', 'crew_size']) prices[name] = numeric(formField(body, name));
      prices.frequency_discounts_pct = Object.fromEntries(['weekly', 'biweekly', 'monthly'].map((f) => [f, numeric(formField(body, f)) ?? 0]));
      prices.first_visit = formField(body, 'first_visit') || undefined;
      return { prices: JSON.parse(JSON.stringify(prices)) as Record<string, unknown> };
    },
  },
  'add-ons': {
    saved: 'Saved your add-ons.',
    read: (body) => {
      const rows = Math.min(Number(formField(body, 'rows')) || 0, 40);
      const addOns = [];
      for (let i = 0; i < rows; i++) {
        const name = formField(body, `addon_name_${i}`).trim();
        const label = formField(body, `addon_label_${i}`);
        if ((name === '' && label.trim() === '') || formField(body, `addon_remove_${i}`) === '1') continue;
        addOns.push({ name, label, price: numeric(formField(body, `addon_price_${i}`)), minutes: numeric(formField(body, `addon_minutes_${i}`)) });
      }
      return { add_ons: JSON.parse(JSON.stringify(addOns)) as unknown[] };
    },
  },
  profile: {
    saved: 'Saved your business details.',
    read: (body) =>
      JSON.parse(
        JSON.stringify({
          name: formField(body, 'name'),
          phone: optionalText(formField(body, 'phone')),
          email: optionalText(formField(body, 'email')),
          website: optionalText(formField(body, 'website')),
          service_zips: list(formField(body, 'service_zips')),
          travel_buffer_minutes: numeric(formField(body, 'travel_buffer_minutes')),
          slot_step_minutes: numeric(formField(body, 'slot_step_minutes')),
          min_notice_hours: numeric(formField(body, 'min_notice_hours')),
        }),
      ) as Record<string, unknown>,
  },
};

/**
 * `{base_url}/dashboard`: the business's week for a person. Signed in by a code mailed to
 * the address the business signed up with; a session cookie for this path only. Every
 * form posts here with the session's form token, and changes go through the same use
 * cases as the API, so the rules are the API's. Works without JavaScript; the copy
 * buttons are the only script. The calendar feed lives at /calendar/<secret>.ics.
 */
export function dashboardRouter(ctx: AppContext, limits: HostLimits, operations: Operation<Pro>[], run: RunOptions<Pro>): Router {
  const router = Router();
  const secure = ctx.config.publicUrl.startsWith('https://');
  const form = express.urlencoded({ extended: false, limit: '32kb' });
  const host = new URL(ctx.config.publicUrl).host;
  router.post('/dashboard/*path', formsFromThisSite(ctx.config.publicUrl));

  const session = async (req: Request): Promise<{ pro: Pro; token: string } | null> => {
    const token = cookieValue(req, COOKIE);
    const pro = token ? await proOfSession(ctx.db, token, ctx.clock()) : undefined;
    return pro && token ? { pro, token } : null;
  };

  const show = async (res: Response, status: number, pro: Pro, token: string, notice?: Notice) => {
    const now = ctx.clock();
    const [jobs, notifications, followUps, pipeline, timeOff, calendar] = await Promise.all([
      upcomingBookings(ctx.db, pro.id, now),
      unreadNotifications(ctx.db, pro.id),
      followUpsDue(ctx.db, pro, ctx.config.bookingUrl, now),
      pipelineReport(ctx.db, pro, localDate(now, pro.timezone).slice(0, 7)),
      upcomingTimeOff(ctx.db, pro.id, now),
      calendarFeedOf(ctx.db, pro.id),
    ]);
    allowOwnScripts(res);
    const data = { pro, now, csrf: csrfOf(token), jobs, notifications, followUps, pipeline, timeOff, calendar };
    sendPage(res, status, pro.name, dashboardHtml(data, ctx.config.publicUrl, notice));
  };

  router.get('/dashboard/copy.js', (_req, res) => {
    res.type('text/javascript').setHeader('Cache-Control', 'public, max-age=3600').send(COPY_SCRIPT);
  });

  router.get('/dashboard', async (req, res) => {
    const s = await session(req);
    if (!s) return sendPage(res, 200, 'Your dashboard', signInForm());
    await show(res, 200, s.pro, s.token);
  });

  router.post('/dashboard/code', form, async (req, res) => {
    const email = formField(req.body, 'email');
    try {
      await takeSignInCode(limits, req, email);
      const sent = await requestSignInCode(ctx.db, email, ctx.clock(), PURPOSE);
      sendPage(res, 200, 'Check your email', codeForm(sent.email));
    } catch (err) {
      if (!(err instanceof AppError)) throw err;
      setErrorHeaders(res, err);
      sendPage(res, err.status, 'Your dashboard', signInForm(err.message, email));
    }
  });

  router.post('/dashboard/verify', form, async (req, res) => {
    const email = formField(req.body, 'email');
    try {
      const verified = await verifySignInCode(ctx.db, email, formField(req.body, 'code'), ctx.clock());
      const pro = await proOwnedBy(ctx.db, verified);
      if (!pro) {
        return sendPage(
          res,
          404,
          'No business here yet',
          `<p>No business has signed up with <strong>${esc(verified)}</strong>.</p><p><a href="/signup">Sign your business up</a> or <a href="/dashboard">use another email</a>.</p>`,
        );
      }
      const now = ctx.clock();
      const token = await createProSession(ctx.db, pro.id, new Date(now.getTime() + DASHBOARD_SESSION_HOURS * 3_600_000), now);
      res.setHeader('Set-Cookie', sessionCookie(COOKIE, '/dashboard', token, DASHBOARD_SESSION_HOURS * 3600, secure));
      res.redirect(303, '/dashboard');
    } catch (err) {
      if (!(err instanceof AppError)) throw err;
      setErrorHeaders(res, err);
      sendPage(res, err.status, 'Check your email', codeForm(email, err.message));
    }
  });

  /** A form of a signed-in page: the session and its form token, or a page saying to sign in again. */
  const signedInPost = (handle: (req: Request, res: Response, pro: Pro, token: string) => Promise<void>) => [
    form,
    async (req: Request, res: Response) => {
      const s = await session(req);
      const sent = Buffer.from(formField(req.body, 'csrf'));
      const expected = s ? Buffer.from(csrfOf(s.token)) : Buffer.alloc(0);
      if (!s || sent.length !== expected.length || !timingSafeEqual(sent, expected)) {
        return sendPage(res, 401, 'Your dashboard', signInForm('Your sign-in has ended or this form is out of date; sign in again.'));
      }
      try {
        await handle(req, res, s.pro, s.token);
      } catch (err) {
        if (!(err instanceof AppError)) throw err;
        setErrorHeaders(res, err);
        // Nothing was written: the page shows the business as it was, with the reason.
        await show(res, err.status, s.pro, s.token, { ok: false, text: err.message });
      }
    },
  ];
  /** A form that changes the business runs the operation the API runs, through the same runner (limits, checks, fence). */
  const call = async <T>(name: string, input: unknown, req: Request, pro: Pro) =>
    (
      await runOperation(
        operations.find((o) => o.name === name)!,
        input,
        req,
        pro,
        { ...run, clientName: 'the dashboard' },
      )
    ).result as T;
  /** After a write that is no operation (a new key), this process has heard it before the next page reads. */
  const written = () => ctx.changes?.fence();
  const fresh = async (pro: Pro) => (await getPro(ctx.db, pro.id)) ?? pro;

  for (const [part, settings] of Object.entries(SETTINGS_FORMS)) {
    router.post(
      `/dashboard/${part}`,
      ...signedInPost(async (req, res, pro, token) => {
        const { affected_jobs: affected } = await call<{ affected_jobs: AffectedJob[] }>('update_business', settings.read(req.body), req, pro);
        await show(res, 200, await fresh(pro), token, { ok: true, text: settings.saved, affected });
      }),
    );
  }

  router.post(
    '/dashboard/time-off',
    ...signedInPost(async (req, res, pro, token) => {
      const note = formField(req.body, 'note').trim();
      const input = { start: formField(req.body, 'start'), end: formField(req.body, 'end'), ...(note ? { note } : {}) };
      const { affected_jobs: affected } = await call<{ affected_jobs: AffectedJob[] }>('add_time_off', input, req, pro);
      await show(res, 200, pro, token, { ok: true, text: 'Time off saved: no open times are offered in it.', affected });
    }),
  );
  router.post(
    '/dashboard/time-off/remove',
    ...signedInPost(async (req, res, pro, token) => {
      await call('remove_time_off', { time_off_id: formField(req.body, 'time_off_id') }, req, pro);
      await show(res, 200, pro, token, { ok: true, text: 'Time off removed: those times are offered again.' });
    }),
  );
  router.post(
    '/dashboard/notifications/read',
    ...signedInPost(async (req, res, pro, token) => {
      const ids = ([] as unknown[]).concat((req.body as { id?: unknown }).id ?? []).filter((v): v is string => typeof v === 'string');
      await markNotificationsRead(ctx.db, pro.id, ids.slice(0, 100), ctx.clock());
      await show(res, 200, pro, token, { ok: true, text: 'Marked read.' });
    }),
  );
  router.post(
    '/dashboard/key',
    ...signedInPost(async (_req, res, pro, token) => {
      const key = (await rotateProKey(ctx.db, pro.id))!;
      await written();
      await show(res, 201, pro, token, {
        ok: true,
        text: 'Your old key stopped working. Give your assistant this one.',
        secret: { id: 'new-key', label: 'Your new key (copy it now; it is shown only this once):', value: key },
      });
    }),
  );
  router.post(
    '/dashboard/calendar',
    ...signedInPost(async (_req, res, pro, token) => {
      const feed = await rotateCalendarFeed(ctx.db, pro.id, ctx.clock());
      await show(res, 201, pro, token, {
        ok: true,
        text: 'Subscribe your calendar to this address. Any address made before it no longer works.',
        secret: {
          id: 'calendar-url',
          label: 'Your calendar address (copy it now; it is shown only this once):',
          value: `${ctx.config.publicUrl}/calendar/${feed}.ics`,
        },
      });
    }),
  );
  router.post('/dashboard/sign-out', form, async (req, res) => {
    const token = cookieValue(req, COOKIE);
    if (token) await endProSession(ctx.db, token);
    res.setHeader('Set-Cookie', sessionCookie(COOKIE, '/dashboard', '', 0, secure));
    res.redirect(303, '/dashboard');
  });

  // The calendar feed: read fresh on every fetch, so a calendar sees a change on its next poll.
  router.get('/calendar/:file', async (req, res) => {
    const match = /^([A-Za-z0-9_-]{43})\.ics$/.exec(req.params.file);
    const ics = match ? await calendarFeed(ctx.db, match[1]!, host, ctx.clock()) : undefined;
    if (!ics) {
      res.status(404).json({ error: 'No calendar at this address: it may have been replaced by a newer one on the dashboard.' });
      return;
    }
    res.status(200).type('text/calendar; charset=utf-8').setHeader('Cache-Control', 'no-cache').send(ics);
  });
  return router;
}
