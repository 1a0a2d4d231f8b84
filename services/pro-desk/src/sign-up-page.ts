import { Router, type Request, type RequestHandler } from 'express';
import {
  bookingPageOf,
  CODE_LIFETIME_TEXT,
  KEY_NO_LONGER_SHOWN,
  KEY_SHOWN_FOR,
  SIGN_UP_FEE_TEXT,
  signInCodeSentMessage,
  serviceZipsSchema,
  timezoneSchema,
  nameSchema,
  phoneSchema,
  websiteSchema,
  singleLine,
  fields,
} from '@frontdesk/domain';
import { requestSignInCode, signUpBusiness, type SignUpInput } from '@frontdesk/use-cases';
import type { Pro } from '@frontdesk/db';
import {
  emailCodeForm,
  formField,
  formRoute,
  html,
  inputField,
  problemLine,
  sendView,
  takeSignInCode,
  validateInput,
  type HostLimits,
  type Html,
  type Problem,
  withinRequest,
} from '@frontdesk/http';
import type { AppContext } from './context';
import { firstKeySlot, sessionHolder, type DashboardDeps } from './dashboard/deps';
import { signedInPage } from './dashboard/layout';
import { bookingAddress } from './dashboard/views/booking-address';
import { setDashboardSession } from './dashboard/session';
import { backTo, codeStepAt, signInRouter } from './sign-in-steps';

const PURPOSE = 'sign up your cleaning business on Front Desk';

/** Zones most US cleaning businesses work in, first in the list; every other IANA zone follows. */
const US_ZONES: [string, string][] = [
  ['America/New_York', 'Eastern (New York)'],
  ['America/Chicago', 'Central (Chicago)'],
  ['America/Denver', 'Mountain (Denver)'],
  ['America/Phoenix', 'Arizona (Phoenix)'],
  ['America/Los_Angeles', 'Pacific (Los Angeles)'],
  ['America/Anchorage', 'Alaska (Anchorage)'],
  ['Pacific/Honolulu', 'Hawaii (Honolulu)'],
  ['America/Puerto_Rico', 'Atlantic (Puerto Rico)'],
];
const OTHER_ZONES = Intl.supportedValuesOf('timeZone').filter((z) => !US_ZONES.some(([id]) => id === z));
/** A zone's name as a place: "America/Argentina/La_Rioja" reads "America, Argentina, La Rioja". */
const zoneLabel = (zone: string) => zone.replace(/_/g, ' ').split('/').join(', ');

const emailSchema = singleLine({ minLength: 3, maxLength: 200, description: 'The address that owns the business; the code goes there.' });
const codeRequestSchema = fields({ email: emailSchema }, ['email']);
const signUpSchema = fields(
  {
    email: emailSchema,
    code: singleLine({ minLength: 1, maxLength: 10, description: 'The 6-digit code from the email.' }),
    name: nameSchema,
    timezone: timezoneSchema,
    service_zips: serviceZipsSchema,
    phone: phoneSchema,
    website: websiteSchema,
  },
  ['email', 'code', 'name', 'timezone', 'service_zips'],
);

interface Details {
  email: string;
  code: string;
  name: string;
  timezone: string;
  zips: string;
  phone: string;
  website: string;
}

/** The form's labels by the field a refusal names, so a refusal reads in the form's words. */
const LABELS = {
  email: 'Your email',
  code: 'Code from the email',
  name: 'Business name',
  timezone: 'Time zone',
  service_zips: 'ZIP codes you serve',
  phone: 'Phone (optional)',
  website: 'Website (optional)',
};

const feeNote = html`<p class="note" id="fee">${SIGN_UP_FEE_TEXT}</p>`;

const emailForm = (error = '', email = '') =>
  html`${emailCodeForm({
      action: '/signup/code',
      intro: html`Sign your cleaning business up and your AI assistant gets a key to price jobs from your own price list, find open times, log leads and book
      jobs on your schedule.`,
      label: 'Your email',
      error,
      email,
    })}
    <p class="note">We email a 6-digit code to check the address. It becomes your business's sign-in.</p>
    ${feeNote}`;

function zoneOptions(selected: string): Html {
  const option = (id: string, label: string) => html`<option value="${id}" ${id === selected && html` selected`}>${label}</option>`;
  return html`<optgroup label="United States">${US_ZONES.map(([id, label]) => option(id, label))}</optgroup>
    <optgroup label="Other time zones">${OTHER_ZONES.map((z) => option(z, zoneLabel(z)))}</optgroup>`;
}

const zoneField = (d: Details, problem?: Problem): Html => {
  const wrong = problem?.field === 'timezone';
  return html`<label for="f-timezone">${LABELS.timezone}</label>
    <select id="f-timezone" name="timezone" required ${wrong && html`aria-invalid="true" aria-describedby="f-timezone-error"`}>
      ${zoneOptions(d.timezone || 'America/New_York')}
    </select>
    ${wrong && html`<span class="error" id="f-timezone-error">${problem.text}</span>`}`;
};

/** The business's details, after the code went out; a refusal marks its field and keeps what was typed. */
const detailsForm = (d: Details, problem?: Problem): Html => {
  // The ZIPs are typed in one box named "zips"; a refusal names them service_zips.
  const zipsProblem = problem?.field === 'service_zips' ? { ...problem, field: 'zips' } : problem;
  return html`${problemLine(problem)}
    <p>We sent a 6-digit code to <strong>${d.email}</strong>. ${CODE_LIFETIME_TEXT}</p>
    <form method="post" action="/signup/business">
      <input type="hidden" name="email" value="${d.email}" />
      ${inputField(
        {
          label: LABELS.code,
          name: 'code',
          value: '',
          attrs: html` inputmode="numeric" pattern="[0-9]{6}" maxlength="6" required autocomplete="one-time-code"`,
        },
        problem,
      )}
      ${inputField({ label: LABELS.name, name: 'name', value: d.name, attrs: html` required maxlength="100" autocomplete="organization"` }, problem)}
      ${zoneField(d, problem)}
      ${inputField(
        {
          label: LABELS.service_zips,
          name: 'zips',
          value: d.zips,
          hint: '5-digit ZIPs separated by commas or spaces.',
          attrs: html` required maxlength="1400" inputmode="numeric"`,
        },
        zipsProblem,
      )}
      ${inputField({ label: LABELS.phone, name: 'phone', type: 'tel', value: d.phone, attrs: html` maxlength="30" autocomplete="tel"` }, problem)}
      ${inputField({ label: LABELS.website, name: 'website', type: 'url', value: d.website, attrs: html` maxlength="200" autocomplete="url" placeholder="https://"` }, problem)}
      <button type="submit">Create my business</button>
    </form>
    <p class="note">You start with a standard price list and Monday to Saturday hours; change them any time on your dashboard or through your assistant.</p>
    ${feeNote}
    <p class="note"><a href="/signup">Use another email</a> · Signed up already? <a href="${signInAs(d.email)}">Sign in to your dashboard</a></p>`;
};

/** The dashboard's sign-in with the address filled in, for where sign-up knows it. */
const signInAs = (email: string) => `/dashboard?email=${encodeURIComponent(email)}`;

const noDetails = (email: string): Details => ({ email, code: '', name: '', timezone: '', zips: '', phone: '', website: '' });

/** What a new business is told once: its key and where its assistant connects. */
function created(ctx: AppContext, pro: Pro, apiKey: string) {
  return {
    pro_id: pro.id,
    name: pro.name,
    timezone: pro.timezone,
    service_zips: pro.service_zips,
    api_key: apiKey,
    mcp_url: `${ctx.config.publicUrl}/mcp`,
    api_url: `${ctx.config.publicUrl}/api/v1`,
    booking_page: bookingPageOf(ctx.config.bookingUrl, pro.id),
    message:
      'Your business is ready with the default price list and hours. The key is shown once: store it now and give it to your assistant as Authorization: Bearer <key>. Then ask it to show my_business and set your prices, hours and time off.',
  };
}
type Created = ReturnType<typeof created>;

const keyPage = (c: Created): Html =>
  html`<p><strong>${c.name}</strong> is ready, and you are signed in to its dashboard. This is its key.</p>
    <p class="key" id="new-key">${c.api_key}</p>
    <p>${KEY_SHOWN_FOR}</p>
    <p>Give your AI assistant the key with one of these:</p>
    <ul>
      <li>MCP: <code>${c.mcp_url}</code> with the header <code>Authorization: Bearer &lt;key&gt;</code></li>
      <li>REST: <code>${c.api_url}</code>, same header</li>
    </ul>
    <p>Then ask it to show your business and set your own prices, hours and days off, or do it yourself on your dashboard.</p>
    ${bookingAddress(c.booking_page, { copy: false })}
    <p id="fee">${SIGN_UP_FEE_TEXT}</p>
    <p><a href="/dashboard">Go to your dashboard</a></p>`;

const zipsOf = (text: string) => text.split(/[\s,;]+/).filter(Boolean);
const optional = (text: string) => text.trim() || null;

/** What the sign-up routes share. */
interface SignUpDeps {
  ctx: AppContext;
  limits: HostLimits;
}

/** Where sign-up sends a new business: its first page in the dashboard, whose session sign-up opened. */
const WELCOME = '/dashboard/welcome';

const getSignUp: RequestHandler = (_req, res) => sendView(res, 200, { title: 'Sign up your cleaning business', body: emailForm() });

const codeStep = (d: SignUpDeps) =>
  codeStepAt(d, '/signup/code', {
    purpose: PURPOSE,
    sent: (email) => ({ title: 'About your business', body: detailsForm(noDetails(email)) }),
    first: { title: 'Sign up your cleaning business', form: emailForm },
  });

const typedDetails = (req: Request): Details => ({
  email: formField(req.body, 'email'),
  code: formField(req.body, 'code'),
  name: formField(req.body, 'name'),
  timezone: formField(req.body, 'timezone'),
  zips: formField(req.body, 'zips'),
  phone: formField(req.body, 'phone'),
  website: formField(req.body, 'website'),
});

/**
 * Makes the business and its key and signs its owner in to the dashboard (the code proved the
 * address), keeps the key for that session's welcome page, and goes there.
 */
const postBusiness = (d: SignUpDeps): RequestHandler =>
  formRoute<Details>({
    title: 'About your business',
    labels: LABELS,
    read: typedDetails,
    async act(typed, req, res) {
      const input: SignUpInput = {
        email: typed.email,
        code: typed.code,
        name: typed.name,
        timezone: typed.timezone,
        service_zips: zipsOf(typed.zips),
        phone: optional(typed.phone),
        website: optional(typed.website),
      };
      const { apiKey, session } = await withinRequest(req, () =>
        signUpBusiness(d.ctx.db, input, { now: d.ctx.clock(), keys: d.ctx.config.keySealer.hashKeys, openSession: true }),
      );
      setDashboardSession(d.ctx, res, session!);
      return `${WELCOME}?key=${firstKeySlot(d.ctx).keep(res, sessionHolder(session!), apiKey, d.ctx.clock())}`;
    },
    form: (typed, problem) => detailsForm(typed, problem),
  });

/**
 * `/dashboard/welcome`, the page a new business lands on, signed in: its key, shown to the
 * session sign-up opened while this browser keeps it; once gone, where to make another.
 */
export const welcomePage = (d: DashboardDeps): RequestHandler =>
  signedInPage(d, {
    section: null,
    render(s, req) {
      const ref = typeof req.query.key === 'string' ? req.query.key : '';
      const key = firstKeySlot(d.ctx).value<string>(req, sessionHolder(s.token), ref, d.ctx.clock());
      if (typeof key !== 'string') {
        return Promise.resolve({
          title: 'Your business is ready',
          status: 404,
          body: html`<p>${KEY_NO_LONGER_SHOWN}</p>
            <p>Make a new one under <a href="/dashboard/keys">Keys and calendar</a>: the one you had stops working then.</p>`,
        });
      }
      return Promise.resolve({ title: 'Your business is ready', body: keyPage(created(d.ctx, s.pro, key)) });
    },
  });

// The same for assistants, as JSON.
const apiCode =
  (d: SignUpDeps): RequestHandler =>
  async (req, res) => {
    const { email } = validateInput({ input: codeRequestSchema }, req.body);
    await takeSignInCode(d.limits, req, email);
    const sent = await withinRequest(req, () => requestSignInCode(d.ctx.db, email, d.ctx.clock(), { purpose: PURPOSE, keys: d.ctx.config.keySealer.hashKeys }));
    res.status(202).json({
      email: sent.email,
      expires_at: sent.expiresAt.toISOString(),
      message: `${signInCodeSentMessage(sent.email)} Send it with the business details to /signup/api/business.`,
    });
  };

const apiBusiness =
  (d: SignUpDeps): RequestHandler =>
  async (req, res) => {
    const input = validateInput({ input: signUpSchema }, req.body);
    const { pro, apiKey } = await withinRequest(req, () => signUpBusiness(d.ctx.db, input, { now: d.ctx.clock(), keys: d.ctx.config.keySealer.hashKeys }));
    res
      .status(201)
      .setHeader('Cache-Control', 'no-store')
      .json(created(d.ctx, pro, apiKey));
  };

/**
 * `{base_url}/signup`: a cleaning business signs itself up. An emailed code proves the
 * address, then name, zone and ZIPs make the business and its first key, shown once.
 * The same flow for assistants as JSON under /signup/api, judged by the same schemas.
 */
export function signUpRouter(ctx: AppContext, limits: HostLimits): Router {
  const d: SignUpDeps = { ctx, limits };
  const { router, form, json } = signInRouter(ctx, '/signup', { limit: '16kb', step: codeStep(d) });
  router.get('/signup', getSignUp);
  router.post('/signup/business', form, postBusiness(d));
  // Where a new business landed before it was signed in by sign-up: its page in the dashboard now.
  router.get('/signup/ready', backTo(WELCOME));
  // The form's address opened as a page: the sign-up it belongs to.
  router.get('/signup/business', backTo('/signup'));
  router.post('/signup/api/code', json, apiCode(d));
  router.post('/signup/api/business', json, apiBusiness(d));
  return router;
}
