import { DEFAULT_READ_MAX_LAG_MS, DEFAULT_REQUEST_DEADLINE_MS } from './database';
import { DEFAULT_MCP_ORIGINS } from './host';
import { DEFAULT_PUBLIC_CLIENT_ID } from './keys';
import { DEFAULT_MAIL_FROM } from './mail';
import { DEFAULT_DRAIN_DELAY_MS } from './ops';
import { RATE_LIMIT_VARIABLES, type RateLimitName } from './rate-limits';

/**
 * Every environment variable Front Desk reads, in one declared list: docs/configuration.md is
 * generated from it (`pnpm reference`), and a test runs each reader below with an environment
 * that records what is asked of it, so a variable read but not listed here (or listed but no
 * longer read) fails.
 */

/** Who reads a variable: each host's own config reader, or the local run's (`pnpm start`, `pnpm cli`). */
export type SettingReader = 'pro-desk' | 'booking' | 'local';

export type SettingGroup = 'Ports and addresses' | 'Database and requests' | 'Keys and sign-in' | 'Mail' | 'Rate limits' | 'Logs and checks';

export interface Setting {
  readonly name: string;
  readonly group: SettingGroup;
  /** The default as a person reads it. */
  readonly default: string;
  readonly readBy: readonly SettingReader[];
  /** What it does, in a sentence or two. */
  readonly what: string;
  /** A secret that may also come from a file: `<name>_FILE` names it, and its contents (trimmed) are the value. */
  readonly file?: boolean;
}

const HOSTS: readonly SettingReader[] = ['pro-desk', 'booking'];
const EVERYONE: readonly SettingReader[] = ['pro-desk', 'booking', 'local'];

/** A rate limit: its variable and default come from the reader's own table. */
const limit = (name: RateLimitName, what: string, fallback?: string): Setting => ({
  name: RATE_LIMIT_VARIABLES[name].variable,
  group: 'Rate limits',
  default: fallback ?? String(RATE_LIMIT_VARIABLES[name].fallback),
  readBy: HOSTS,
  what: `${what} \`0\` turns it off.`,
});

export const SETTINGS: readonly Setting[] = [
  {
    name: 'PRO_DESK_PORT',
    group: 'Ports and addresses',
    default: '8080',
    readBy: HOSTS,
    what: 'The port the pro-desk host listens on; the booking host uses it only to make `PRO_DESK_URL` when that is unset.',
  },
  {
    name: 'BOOKING_PORT',
    group: 'Ports and addresses',
    default: '8081',
    readBy: HOSTS,
    what: 'The port the booking host listens on; the pro-desk host uses it only to make `BOOKING_URL` when that is unset.',
  },
  {
    name: 'PRO_DESK_URL',
    group: 'Ports and addresses',
    default: '`http://localhost:<PRO_DESK_PORT>`',
    readBy: HOSTS,
    what: "The pro-desk host's public address: links in pages and mail, OAuth metadata, and the issuer of its sign-ins. Set it (on both hosts) behind a load balancer.",
  },
  {
    name: 'BOOKING_URL',
    group: 'Ports and addresses',
    default: '`http://localhost:<BOOKING_PORT>`',
    readBy: HOSTS,
    what: "The booking host's public address: booking and manage links, OAuth metadata, and the issuer of its sign-ins. Set it on both hosts.",
  },
  {
    name: 'DATABASE_URL',
    group: 'Database and requests',
    default: 'required by a host on its own; `pnpm start` and `pnpm cli` run an embedded PostgreSQL without it',
    readBy: EVERYONE,
    what: 'The PostgreSQL server, as `postgres://user:password@host:5432/database`.',
    file: true,
  },
  {
    name: 'DATABASE_PASSWORD',
    group: 'Database and requests',
    default: 'unset',
    readBy: EVERYONE,
    what: 'When set, it replaces the password in `DATABASE_URL` (any characters), so the password can live in one secret the PostgreSQL image reads too (`POSTGRES_PASSWORD_FILE`).',
    file: true,
  },
  {
    name: 'DATABASE_READ_URL',
    group: 'Database and requests',
    default: 'unset (every read goes to `DATABASE_URL`)',
    readBy: HOSTS,
    what: 'Streaming replicas of `DATABASE_URL`, comma-separated. Searches, open times and quotes read one that is less than `DATABASE_READ_MAX_LAG_MS` behind; writes, reads inside writes and signed-in pages always read the primary.',
    file: true,
  },
  {
    name: 'DATABASE_READ_MAX_LAG_MS',
    group: 'Database and requests',
    default: String(DEFAULT_READ_MAX_LAG_MS),
    readBy: HOSTS,
    what: 'How far behind the primary a replica may be, in milliseconds (100 to 600000), and still be read; past it, or unreachable, reads go to the primary.',
  },
  {
    name: 'EMBEDDED_PG_PORT',
    group: 'Database and requests',
    default: '54329',
    readBy: ['local'],
    what: 'The port of the embedded PostgreSQL that `pnpm start` and `pnpm cli` run when `DATABASE_URL` is unset.',
  },
  {
    name: 'FRONT_DESK_DATA_DIR',
    group: 'Database and requests',
    default: '`.data` in the project',
    readBy: ['local'],
    what: "Where the local run keeps the embedded server's data (under `postgres/`) and the key-encryption key it made (`key-encryption-key`).",
  },
  {
    name: 'DATABASE_CONNECT_TIMEOUT_MS',
    group: 'Database and requests',
    default: '5000',
    readBy: HOSTS,
    what: 'The longest wait for a database connection, in milliseconds; `0` waits forever.',
  },
  {
    name: 'DATABASE_STATEMENT_TIMEOUT_MS',
    group: 'Database and requests',
    default: '5000',
    readBy: HOSTS,
    what: 'The longest statement the server runs, lock waits included, in milliseconds; the client gives up one second after it. `0` for no limit.',
  },
  {
    name: 'REQUEST_DEADLINE_MS',
    group: 'Database and requests',
    default: String(DEFAULT_REQUEST_DEADLINE_MS),
    readBy: HOSTS,
    what: 'Every request is answered within this many milliseconds (1000 to 60000): past it, a 503 with `Retry-After`, and its database work stops.',
  },
  {
    name: 'MIGRATE_ON_START',
    group: 'Database and requests',
    default: '`false`',
    readBy: ['pro-desk'],
    what: '`true` (or `1`): the pro-desk host brings the schema up to date before it listens.',
  },
  {
    name: 'KEY_ENCRYPTION_KEY',
    group: 'Keys and sign-in',
    default: 'required by a host on its own; `pnpm start` and `pnpm cli` make one in the data folder',
    readBy: EVERYONE,
    what: "32 random bytes, base64 or hex (`openssl rand -base64 32`), the same on every replica of both hosts: it seals the OAuth signing keys and the webhooks' secrets, and keys the sign-in codes' HMAC.",
    file: true,
  },
  {
    name: 'KEY_ENCRYPTION_KEY_PREVIOUS',
    group: 'Keys and sign-in',
    default: 'unset',
    readBy: HOSTS,
    what: 'During a rotation of `KEY_ENCRYPTION_KEY`, the old key: it still opens what it sealed, and never seals.',
    file: true,
  },
  {
    name: 'PUBLIC_SHARED_KEY',
    group: 'Keys and sign-in',
    default: '`fdpub_local_shared_key`',
    readBy: ['booking'],
    what: 'The shared public key assistants send on the booking host when their user has no key of their own (12 to 100 letters, digits, dots, dashes or underscores).',
  },
  {
    name: 'PUBLIC_CLIENT_ID',
    group: 'Keys and sign-in',
    default: `\`${DEFAULT_PUBLIC_CLIENT_ID}\``,
    readBy: HOSTS,
    what: 'The id of the pre-registered public OAuth client both authorization servers know.',
  },
  {
    name: 'PUBLIC_CLIENT_REDIRECT_URIS',
    group: 'Keys and sign-in',
    default: "Claude's, ChatGPT's and the MCP Inspector's callbacks",
    readBy: HOSTS,
    what: 'Comma-separated redirect URIs of that client.',
  },
  {
    name: 'MCP_ALLOWED_ORIGINS',
    group: 'Keys and sign-in',
    default: DEFAULT_MCP_ORIGINS.map((o) => `\`${o}\``).join(', '),
    readBy: HOSTS,
    what: "Browser origins allowed to call `/mcp`, besides the host's own and loopback ones; any other `Origin` gets 403.",
  },
  {
    name: 'TRUST_PROXY',
    group: 'Keys and sign-in',
    default: '`false`',
    readBy: HOSTS,
    what: "Whose `X-Forwarded-For` names the client (for rate limits and the shared key's retries): `true`, a number of hops, or addresses and subnets such as `loopback, 10.0.0.0/8`. Set it behind a load balancer; never when clients reach the host directly.",
  },
  {
    name: 'SMTP_URL',
    group: 'Mail',
    default: 'unset: nothing is sent',
    readBy: HOSTS,
    what: 'Where mail (sign-in codes, booking confirmations, notices to the owner) is sent: an `smtp://` or `smtps://` URL.',
    file: true,
  },
  {
    name: 'MAIL_FROM',
    group: 'Mail',
    default: `\`${DEFAULT_MAIL_FROM}\``,
    readBy: HOSTS,
    what: 'The sender of every mail.',
  },
  {
    name: 'FRONT_DESK_LOCAL_MAIL',
    group: 'Mail',
    default: '`false`; `pnpm start` sets it',
    readBy: HOSTS,
    what: 'Without `SMTP_URL`, print each mail to the terminal instead of leaving it unsent.',
  },
  limit('signInPerIp', 'Sign-in codes asked for from one client address, per hour.'),
  limit('signInPerAddress', 'Sign-in codes sent to one email address, per hour.', "5, the domain's own limit of codes an hour"),
  limit('registerPerIp', 'OAuth client registrations from one client address, per hour.'),
  limit('authorizePerIp', 'OAuth `/authorize` requests and client-document fetches per client address, per hour.'),
  limit('authFailuresPerIp', 'Keys or tokens that match nothing, per client address, per 15 minutes; past it even a right key waits.'),
  limit('readsPerCredential', 'Reads per credential (a key or a sign-in; the shared public key per client address), per minute.'),
  limit('writesPerCredential', 'Writes per credential, counted the same way, per minute.'),
  {
    name: 'LOG_LEVEL',
    group: 'Logs and checks',
    default: '`info`',
    readBy: HOSTS,
    what: "pino's level: `fatal`, `error`, `warn`, `info`, `debug`, `trace` or `silent`. Credentials are redacted at every level.",
  },
  {
    name: 'FRONT_DESK_CHECK_ANSWERS',
    group: 'Logs and checks',
    default: '`false`',
    readBy: HOSTS,
    what: "`true` (or `1`): every answer is checked against its operation's output schema (the tests turn it on).",
  },
  {
    name: 'METRICS_TOKEN',
    group: 'Logs and checks',
    default: 'unset',
    readBy: HOSTS,
    what: 'Serves Prometheus metrics at `/metrics` to `Authorization: Bearer <token>` only (at least 16 characters). With neither this nor `METRICS_PORT`, `/metrics` is not served.',
    file: true,
  },
  {
    name: 'METRICS_PORT',
    group: 'Logs and checks',
    default: 'unset',
    readBy: HOSTS,
    what: "Serves `/metrics` on this port of its own instead of the host's port (keep it off the public network); `METRICS_TOKEN`, when set, is asked there too.",
  },
  {
    name: 'OTEL_EXPORTER_OTLP_ENDPOINT',
    group: 'Logs and checks',
    default: 'none: no traces',
    readBy: HOSTS,
    what: 'Turns OpenTelemetry traces on: each request, the operation it runs and each SQL statement (never a parameter value) are sent by OTLP over HTTP (protobuf) to `<this URL>/v1/traces`, e.g. `http://otel-collector:4318`. Without it (or the next), no tracing code is loaded.',
  },
  {
    name: 'OTEL_EXPORTER_OTLP_TRACES_ENDPOINT',
    group: 'Logs and checks',
    default: 'none',
    readBy: HOSTS,
    what: 'The full URL traces are sent to, taking the place of `OTEL_EXPORTER_OTLP_ENDPOINT` for traces. The exporter reads the other standard `OTEL_EXPORTER_OTLP_*` variables itself (headers, timeout, compression).',
  },
  {
    name: 'DRAIN_DELAY_MS',
    group: 'Logs and checks',
    default: String(DEFAULT_DRAIN_DELAY_MS),
    readBy: HOSTS,
    what: 'After SIGTERM, `/readyz` answers 503 while requests are still served for this many milliseconds (up to 60000), so a load balancer stops sending them; then the port closes and requests in flight finish. Set it a little above the readiness probe period.',
  },
];

/** Every name the catalogue declares, with `<name>_FILE` for the secrets that may come from a file. */
export const settingNames = (): string[] => SETTINGS.flatMap((s) => (s.file ? [s.name, `${s.name}_FILE`] : [s.name]));
