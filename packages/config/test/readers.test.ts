import {
  ConfigError,
  flatten,
  readDatabaseSettings,
  readDevDatabase,
  readHostSettings,
  readMailSettings,
  readMigrateOnStart,
  readPort,
  readUrl,
  type Env,
} from '../src';

// The shared reader every host's config is built on: each value checked at start, and
// every refusal a sentence that begins with the variable to fix.
const REQUIRED = { DATABASE_URL: 'postgres://fd:pw@db:5432/frontdesk', KEY_ENCRYPTION_KEY: Buffer.alloc(32, 1).toString('base64') };
const host = (env: Env) => readHostSettings(flatten({ ...REQUIRED, ...env }), { signInPerAddress: 5 });

/** The refusal `read` throws, as a ConfigError. */
function refusal(read: () => unknown): ConfigError {
  try {
    read();
  } catch (err) {
    if (err instanceof ConfigError) return err;
    throw new Error(`not a ConfigError: ${String(err)}`);
  }
  throw new Error('nothing was refused');
}

describe('the settings reader', () => {
  it('gives every default when only the required settings are there', () => {
    const s = host({});
    expect(s).toMatchObject({
      database: { url: REQUIRED.DATABASE_URL, connectTimeoutMs: undefined, statementTimeoutMs: undefined },
      mcpAllowedOrigins: ['https://claude.ai', 'https://chatgpt.com'],
      trustProxy: false,
      keyEncryptionKeys: { current: REQUIRED.KEY_ENCRYPTION_KEY, previous: undefined },
      publicClientId: 'front-desk',
      mail: { smtpUrl: undefined, from: 'Front Desk <no-reply@localhost>', printLocally: false },
      logLevel: 'info',
      checkAnswers: false,
      requestDeadlineMs: 8000,
    });
    expect(s.rateLimits.signInPerAddress).toEqual({ limit: 5, windowSeconds: 3600 });
    expect(s.rateLimits.writesPerCredential).toEqual({ limit: 120, windowSeconds: 60 });
  });

  it('reads each setting it is given', () => {
    const s = host({
      DATABASE_STATEMENT_TIMEOUT_MS: '0',
      DATABASE_CONNECT_TIMEOUT_MS: '1500',
      REQUEST_DEADLINE_MS: '3000',
      TRUST_PROXY: '2',
      LOG_LEVEL: 'warn',
      FRONT_DESK_CHECK_ANSWERS: '1',
      SMTP_URL: 'smtps://u:p@mail.example:465',
      MAIL_FROM: 'Desk <desk@example.com>',
      RATE_LIMIT_READS_PER_MINUTE: '0',
      MCP_ALLOWED_ORIGINS: 'https://a.example, http://localhost:3000',
    });
    expect(s.database).toMatchObject({ statementTimeoutMs: 0, connectTimeoutMs: 1500 });
    expect(s.requestDeadlineMs).toBe(3000);
    expect([s.trustProxy, s.logLevel, s.checkAnswers, s.rateLimits.readsPerCredential.limit]).toEqual([2, 'warn', true, 0]);
    expect(s.mail).toEqual({ smtpUrl: 'smtps://u:p@mail.example:465', from: 'Desk <desk@example.com>', printLocally: false });
    expect(s.mcpAllowedOrigins).toEqual(['https://a.example', 'http://localhost:3000']);
    expect(readMigrateOnStart(flatten({ MIGRATE_ON_START: 'true' }))).toBe(true);
    expect(readUrl(flatten({ PRO_DESK_URL: 'https://desk.example/' }), 'PRO_DESK_URL', 'http://x')).toBe('https://desk.example');
  });

  // Each bad value, and the variable its refusal must begin with.
  const BAD: [string, () => unknown][] = [
    ['PRO_DESK_PORT', () => readPort(flatten({ PRO_DESK_PORT: '80a' }), 'PRO_DESK_PORT', 8080)],
    ['BOOKING_PORT', () => readPort(flatten({ BOOKING_PORT: '70000' }), 'BOOKING_PORT', 8081)],
    ['BOOKING_URL', () => readUrl(flatten({ BOOKING_URL: 'ftp://book.example' }), 'BOOKING_URL', 'http://x')],
    ['DATABASE_URL', () => host({ DATABASE_URL: '' })],
    ['DATABASE_URL', () => host({ DATABASE_URL: 'not a url' })],
    ['DATABASE_CONNECT_TIMEOUT_MS', () => host({ DATABASE_CONNECT_TIMEOUT_MS: '-1' })],
    ['DATABASE_STATEMENT_TIMEOUT_MS', () => host({ DATABASE_STATEMENT_TIMEOUT_MS: '600001' })],
    ['REQUEST_DEADLINE_MS', () => host({ REQUEST_DEADLINE_MS: '500' })],
    ['REQUEST_DEADLINE_MS', () => host({ REQUEST_DEADLINE_MS: '60001' })],
    ['MCP_ALLOWED_ORIGINS', () => host({ MCP_ALLOWED_ORIGINS: 'https://claude.ai/chat' })],
    ['RATE_LIMIT_SIGN_IN_PER_IP', () => host({ RATE_LIMIT_SIGN_IN_PER_IP: 'lots' })],
    ['RATE_LIMIT_WRITES_PER_MINUTE', () => host({ RATE_LIMIT_WRITES_PER_MINUTE: '1.5' })],
    ['TRUST_PROXY', () => host({ TRUST_PROXY: 'everyone; really' })],
    ['KEY_ENCRYPTION_KEY', () => host({ KEY_ENCRYPTION_KEY: '' })],
    ['PUBLIC_CLIENT_ID', () => host({ PUBLIC_CLIENT_ID: 'x' })],
    ['PUBLIC_CLIENT_REDIRECT_URIS', () => host({ PUBLIC_CLIENT_REDIRECT_URIS: 'https://ok.example/cb, not a uri' })],
    ['SMTP_URL', () => host({ SMTP_URL: 'https://mail.example' })],
    ['MAIL_FROM', () => host({ MAIL_FROM: 'nobody' })],
    ['LOG_LEVEL', () => host({ LOG_LEVEL: 'loud' })],
    ['FRONT_DESK_CHECK_ANSWERS', () => host({ FRONT_DESK_CHECK_ANSWERS: 'yes' })],
    ['FRONT_DESK_LOCAL_MAIL', () => readMailSettings(flatten({ FRONT_DESK_LOCAL_MAIL: 'maybe' }))],
    ['MIGRATE_ON_START', () => readMigrateOnStart(flatten({ MIGRATE_ON_START: 'yes please' }))],
    ['EMBEDDED_PG_PORT', () => readDevDatabase(flatten({ EMBEDDED_PG_PORT: '0' }), '/project')],
  ];

  it.each(BAD)('refuses a bad %s at start with a sentence that names it', (variable, read) => {
    const err = refusal(read);
    expect(err.variable).toBe(variable);
    expect(err.message.startsWith(`${variable} `)).toBe(true);
    expect(err.message).toMatch(/[.)]$/);
  });

  it('keeps the sentences operators and tests already know', () => {
    expect(refusal(() => host({ DATABASE_URL: '' })).message).toMatch(/^DATABASE_URL must be set to a PostgreSQL URL/);
    expect(refusal(() => host({ KEY_ENCRYPTION_KEY: '' })).message).toMatch(/^KEY_ENCRYPTION_KEY must be set: it seals the OAuth signing keys/);
    expect(refusal(() => host({ RATE_LIMIT_SIGN_IN_PER_IP: 'lots' })).message).toBe(
      'RATE_LIMIT_SIGN_IN_PER_IP must be a whole number from 0 (no limit) to 1000000 (sign-in codes asked for per client IP per hour); got "lots".',
    );
    expect(refusal(() => host({ DATABASE_CONNECT_TIMEOUT_MS: 'soon' })).message).toBe(
      'DATABASE_CONNECT_TIMEOUT_MS must be a whole number of milliseconds from 0 (no limit) to 600000; got "soon".',
    );
    expect(refusal(() => readPort(flatten({ PRO_DESK_PORT: 'x' }), 'PRO_DESK_PORT', 8080)).message).toBe(
      'PRO_DESK_PORT must be a port number from 0 to 65535; got "x".',
    );
  });

  it('never repeats a secret in a refusal', () => {
    expect(refusal(() => host({ SMTP_URL: 'http://user:hunter2@mail.example' })).message).not.toContain('hunter2');
    expect(refusal(() => host({ DATABASE_URL: 'postgres://user:hunter2@db:port/x' })).message).not.toContain('hunter2');
  });

  it('counts an empty variable as unset', () => {
    expect(host({ LOG_LEVEL: '', TRUST_PROXY: '', MAIL_FROM: '' })).toMatchObject({
      logLevel: 'info',
      trustProxy: false,
      mail: { from: 'Front Desk <no-reply@localhost>' },
    });
  });

  it('reads the data folder and the embedded port of a local run', () => {
    expect(readDevDatabase(flatten({}), '/project')).toEqual({ url: undefined, embeddedPort: 54329, dataDir: '/project/.data' });
    expect(readDevDatabase(flatten({ FRONT_DESK_DATA_DIR: '/data', EMBEDDED_PG_PORT: '5555' }), '/project')).toMatchObject({
      embeddedPort: 5555,
      dataDir: '/data',
    });
    expect(readDatabaseSettings(flatten(REQUIRED)).url).toBe(REQUIRED.DATABASE_URL);
  });
});
