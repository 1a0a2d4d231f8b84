import express, { Router, type RequestHandler, type Response } from 'express';
import {
  AppError,
  CODE_LIFETIME_TEXT,
  signInCodeSentMessage,
  serviceZipsSchema,
  timezoneSchema,
  nameSchema,
  phoneSchema,
  websiteSchema,
} from '@frontdesk/domain';
import { requestSignInCode, signUpBusiness, type SignUpInput } from '@frontdesk/use-cases';
import type { Pro } from '@frontdesk/db';
import {
  emailCodeForm,
  errorLine,
  esc,
  formField,
  formsFromThisSite,
  sendPage,
  setErrorHeaders,
  takeSignInCode,
  validateInput,
  type HostLimits,
  type ObjectSchema,
} from '@frontdesk/http';
import type { AppContext } from './context';
import { sendCodeStep } from './sign-in-steps';

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

const emailSchema = { type: 'string', minLength: 3, maxLength: 200, description: 'The address that owns the business; the code goes there.' };
const codeRequestSchema: ObjectSchema = { type: 'object', properties: { email: emailSchema }, required: ['email'], additionalProperties: false };
const signUpSchema: ObjectSchema = {
  type: 'object',
  properties: {
    email: emailSchema,
    code: { type: 'string', minLength: 1, maxLength: 10, description: 'The 6-digit code from the email.' },
    name: nameSchema,
    timezone: timezoneSchema,
    service_zips: serviceZipsSchema,
    phone: phoneSchema,
    website: websiteSchema,
  },
  required: ['email', 'code', 'name', 'timezone', 'service_zips'],
  additionalProperties: false,
};

interface Details {
  email: string;
  name: string;
  timezone: string;
  zips: string;
  phone: string;
  website: string;
}

const emailForm = (error = '', email = '') =>
  `${emailCodeForm({
    action: '/signup/code',
    intro:
      'Sign your cleaning business up and your AI assistant gets a key to price jobs from your own price list, find open times, log leads and book jobs on your schedule.',
    label: 'Your email',
    error,
    email,
  })}
<p class="note">We email a 6-digit code to check the address. It becomes your business's sign-in.</p>`;

function zoneOptions(selected: string): string {
  const option = (id: string, label: string) => `<option value="${esc(id)}"${id === selected ? ' selected' : ''}>${esc(label)}</option>`;
  return `<optgroup label="United States">${US_ZONES.map(([id, label]) => option(id, label)).join('')}</optgroup>
<optgroup label="Other time zones">${OTHER_ZONES.map((z) => option(z, z)).join('')}</optgroup>`;
}

const detailsForm = (d: Details, error = '') => `
${errorLine(error)}
<p>We sent a 6-digit code to <strong>${esc(d.email)}</strong>. ${CODE_LIFETIME_TEXT}</p>
<form method="post" action="/signup/business"><input type="hidden" name="email" value="${esc(d.email)}">
<label>Code from the email <input name="code" inputmode="numeric" pattern="[0-9]{6}" maxlength="6" required autocomplete="one-time-code"></label>
<label>Business name <input name="name" required maxlength="100" autocomplete="organization" value="${esc(d.name)}"></label>
<label>Time zone <select name="timezone" required>${zoneOptions(d.timezone || 'America/New_York')}</select></label>
<label>ZIP codes you serve <input name="zips" required maxlength="1400" inputmode="numeric" value="${esc(d.zips)}" aria-describedby="zips-note"></label>
<p class="note" id="zips-note">5-digit ZIPs separated by commas or spaces.</p>
<label>Phone (optional) <input type="tel" name="phone" maxlength="30" autocomplete="tel" value="${esc(d.phone)}"></label>
<label>Website (optional) <input type="url" name="website" maxlength="200" autocomplete="url" placeholder="https://" value="${esc(d.website)}"></label>
<button type="submit">Create my business</button></form>
<p class="note">You start with a standard price list and Monday to Saturday hours; change them any time through your assistant.</p>
<p class="note"><a href="/signup">Use another email</a></p>`;

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
    booking_page: `${ctx.config.bookingUrl}/book/${pro.id}`,
    message:
      'Your business is ready with the default price list and hours. The key is shown once: store it now and give it to your assistant as Authorization: Bearer <key>. Then ask it to show my_business and set your prices, hours and time off.',
  };
}

const keyPage = (c: ReturnType<typeof created>) => `
<p><strong>${esc(c.name)}</strong> is ready. This is its key; copy it now, it is shown only this once:</p>
<p class="key" id="new-key">${esc(c.api_key)}</p>
<p>Give your AI assistant the key with one of these:</p>
<ul><li>MCP: <code>${esc(c.mcp_url)}</code> with the header <code>Authorization: Bearer &lt;key&gt;</code></li>
<li>REST: <code>${esc(c.api_url)}</code>, same header</li></ul>
<p>Then ask it to show your business (<code>my_business</code>) and set your own prices, hours and days off (<code>update_business</code>, <code>add_time_off</code>).</p>
<p>Customers book you at <a href="${esc(c.booking_page)}">${esc(c.booking_page)}</a>.</p>`;

const zipsOf = (text: string) => text.split(/[\s,;]+/).filter(Boolean);
const optional = (text: string) => text.trim() || null;

/** What the sign-up routes share. */
interface SignUpDeps {
  ctx: AppContext;
  limits: HostLimits;
}

/** A refusal shown on the page it came from, with the headers the API would send. */
function failed(res: Response, err: unknown, page: { title: string; body: string }): void {
  if (!(err instanceof AppError)) throw err;
  setErrorHeaders(res, err);
  sendPage(res, err.status, page.title, page.body);
}

const getSignUp: RequestHandler = (_req, res) => sendPage(res, 200, 'Sign up your cleaning business', emailForm());

const postCode = (d: SignUpDeps): RequestHandler =>
  sendCodeStep({
    ...d,
    purpose: PURPOSE,
    sent: (email) => ({ title: 'About your business', body: detailsForm({ email, name: '', timezone: '', zips: '', phone: '', website: '' }) }),
    refused: (message, email) => ({ title: 'Sign up your cleaning business', body: emailForm(message, email) }),
  });

const postBusiness =
  (d: SignUpDeps): RequestHandler =>
  async (req, res) => {
    const typed: Details = {
      email: formField(req.body, 'email'),
      name: formField(req.body, 'name'),
      timezone: formField(req.body, 'timezone'),
      zips: formField(req.body, 'zips'),
      phone: formField(req.body, 'phone'),
      website: formField(req.body, 'website'),
    };
    try {
      const input: SignUpInput = {
        email: typed.email,
        code: formField(req.body, 'code'),
        name: typed.name,
        timezone: typed.timezone,
        service_zips: zipsOf(typed.zips),
        phone: optional(typed.phone),
        website: optional(typed.website),
      };
      const { pro, apiKey } = await signUpBusiness(d.ctx.db, input, d.ctx.clock());
      sendPage(res, 201, 'Your business is ready', keyPage(created(d.ctx, pro, apiKey)));
    } catch (err) {
      failed(res, err, { title: 'About your business', body: detailsForm(typed, (err as Error).message) });
    }
  };

// The same for assistants, as JSON.
const apiCode =
  (d: SignUpDeps): RequestHandler =>
  async (req, res) => {
    const { email } = validateInput<{ email: string }>({ input: codeRequestSchema }, req.body);
    await takeSignInCode(d.limits, req, email);
    const sent = await requestSignInCode(d.ctx.db, email, d.ctx.clock(), PURPOSE);
    res.status(202).json({
      email: sent.email,
      expires_at: sent.expiresAt.toISOString(),
      message: `${signInCodeSentMessage(sent.email)} Send it with the business details to /signup/api/business.`,
    });
  };

const apiBusiness =
  (d: SignUpDeps): RequestHandler =>
  async (req, res) => {
    const input = validateInput<SignUpInput>({ input: signUpSchema }, req.body);
    const { pro, apiKey } = await signUpBusiness(d.ctx.db, input, d.ctx.clock());
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
  const form = express.urlencoded({ extended: false, limit: '16kb' });
  const json = express.json({ limit: '16kb' });
  const router = Router();
  router.post('/signup/*path', formsFromThisSite(ctx.config.publicUrl, '/signup/api/'));
  router.get('/signup', getSignUp);
  router.post('/signup/code', form, postCode(d));
  router.post('/signup/business', form, postBusiness(d));
  router.post('/signup/api/code', json, apiCode(d));
  router.post('/signup/api/business', json, apiBusiness(d));
  return router;
}
