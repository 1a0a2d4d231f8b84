import { mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { ConfigError, FILE_SECRETS, flatten, readDatabaseSettings, readKeyEncryptionKeys, readMailSettings } from '../src';

// Secrets may come from files (compose `secrets:` mounts them under /run/secrets): <NAME>_FILE
// names the file, its trimmed contents are the value. DATABASE_PASSWORD (or its file) goes
// into DATABASE_URL, so one secret serves both the database image and the services.
const dir = mkdtempSync(join(tmpdir(), 'fd-secrets-'));
const secretFile = (name: string, contents: string) => {
  const path = join(dir, name);
  writeFileSync(path, contents);
  return path;
};

describe('secrets from files', () => {
  it.each(FILE_SECRETS)('reads %s from the file %s_FILE names, trimmed', (name) => {
    const flat = flatten({
      [`${name}_FILE`]: secretFile(name, '  value-from-file\n'),
      DATABASE_URL: name === 'DATABASE_PASSWORD' ? 'postgres://u@db/x' : undefined,
    });
    if (name === 'DATABASE_PASSWORD') expect(new URL(flat.DATABASE_URL!).password).toBe('value-from-file');
    else expect(flat[name]).toBe('value-from-file');
    expect(flat[`${name}_FILE`]).toBeUndefined();
  });

  it('feeds the typed readers: keys, database and mail', () => {
    const flat = flatten({
      KEY_ENCRYPTION_KEY_FILE: secretFile('kek', 'current-key\n'),
      KEY_ENCRYPTION_KEY_PREVIOUS_FILE: secretFile('kek-old', 'old-key\n'),
      DATABASE_URL_FILE: secretFile('db-url', 'postgres://fd:pw@db:5432/frontdesk\n'),
      SMTP_URL_FILE: secretFile('smtp', 'smtp://mailer:pw@mail.example:587\n'),
    });
    expect(readKeyEncryptionKeys(flat)).toEqual({ current: 'current-key', previous: 'old-key' });
    expect(readDatabaseSettings(flat).url).toBe('postgres://fd:pw@db:5432/frontdesk');
    expect(readMailSettings(flat).smtpUrl).toBe('smtp://mailer:pw@mail.example:587');
  });

  it('refuses a value and its file both set, naming the variable', () => {
    const both = () => flatten({ KEY_ENCRYPTION_KEY: 'a', KEY_ENCRYPTION_KEY_FILE: secretFile('kek2', 'b') });
    expect(both).toThrow(ConfigError);
    expect(both).toThrow(/^KEY_ENCRYPTION_KEY and KEY_ENCRYPTION_KEY_FILE are both set/);
    expect(() => flatten({ DATABASE_PASSWORD: 'a', DATABASE_PASSWORD_FILE: secretFile('pw2', 'b'), DATABASE_URL: 'postgres://db/x' })).toThrow(
      /^DATABASE_PASSWORD and DATABASE_PASSWORD_FILE are both set/,
    );
  });

  it('refuses a file that cannot be read, naming the _FILE variable and the path', () => {
    expect(() => flatten({ SMTP_URL_FILE: join(dir, 'missing') })).toThrow(
      new RegExp(`^SMTP_URL_FILE names a file that cannot be read \\(${dir}/missing: ENOENT\\)\\.$`),
    );
  });

  it('puts DATABASE_PASSWORD into DATABASE_URL, whatever characters it holds', () => {
    const password = 'p@ss:w/rd%20 é#?';
    const url = flatten({ DATABASE_URL: 'postgres://frontdesk:placeholder@db:5432/frontdesk?sslmode=disable', DATABASE_PASSWORD: password }).DATABASE_URL!;
    const parsed = new URL(url);
    expect([parsed.username, decodeURIComponent(parsed.password), parsed.host, parsed.pathname, parsed.search]).toEqual([
      'frontdesk',
      password,
      'db:5432',
      '/frontdesk',
      '?sslmode=disable',
    ]);
    // A URL without a password gets one.
    const file = secretFile('pw', `${password}\n`);
    expect(decodeURIComponent(new URL(flatten({ DATABASE_URL: 'postgres://frontdesk@db/x', DATABASE_PASSWORD_FILE: file }).DATABASE_URL!).password)).toBe(
      password,
    );
    // Without it the URL is as given.
    expect(flatten({ DATABASE_URL: 'postgres://u:given@db/x' }).DATABASE_URL).toBe('postgres://u:given@db/x');
  });

  it('refuses a password without a DATABASE_URL to put it in', () => {
    expect(() => flatten({ DATABASE_PASSWORD: 'pw' })).toThrow(/^DATABASE_PASSWORD is set, but DATABASE_URL is not/);
  });
});
