import { ConfigError, type FlatEnv } from './env';

/** The typed readers every setting is built from: a value or its default, or a refusal naming the variable. */

export function readPort(env: FlatEnv, name: string, fallback: number, min = 0): number {
  const raw = env[name];
  if (raw === undefined) return fallback;
  const port = Number(raw);
  if (!Number.isInteger(port) || port < min || port > 65535) throw new ConfigError(name, `must be a port number from ${min} to 65535; got "${raw}".`);
  return port;
}

/** An http(s) URL, without a trailing slash. */
export function readUrl(env: FlatEnv, name: string, fallback: string): string {
  const raw = env[name] ?? fallback;
  try {
    const url = new URL(raw);
    if (url.protocol !== 'http:' && url.protocol !== 'https:') throw new Error('not http');
    return raw.replace(/\/+$/, '');
  } catch {
    throw new ConfigError(name, `must be an http(s) URL such as https://desk.example.com; got "${raw}".`);
  }
}

/** Comma-separated browser origins (scheme, host, optional port). */
export function readOrigins(env: FlatEnv, name: string, fallback: string[]): string[] {
  const raw = env[name];
  if (raw === undefined || raw.trim() === '') return fallback;
  return raw.split(',').map((o) => {
    const origin = o.trim();
    try {
      if (new URL(origin).origin !== origin) throw new Error('not an origin');
      return origin;
    } catch {
      throw new ConfigError(name, `must be comma-separated origins such as https://claude.ai (scheme, host, optional port, no path); got "${origin}".`);
    }
  });
}

export interface WholeNumberRule {
  min: number;
  max: number;
  fallback: number;
  /** Said after "a whole number", e.g. "of milliseconds". */
  unit?: string;
  /** What the smallest value means, e.g. "no limit". */
  minMeans?: string;
  /** What is counted, said after the bounds. */
  what?: string;
}

export function readWholeNumber(env: FlatEnv, name: string, rule: WholeNumberRule): number {
  const raw = env[name];
  if (raw === undefined) return rule.fallback;
  const n = Number(raw);
  if (!Number.isInteger(n) || n < rule.min || n > rule.max) {
    const unit = rule.unit ? ` ${rule.unit}` : '';
    const min = rule.minMeans ? `${rule.min} (${rule.minMeans})` : `${rule.min}`;
    const what = rule.what ? ` (${rule.what})` : '';
    throw new ConfigError(name, `must be a whole number${unit} from ${min} to ${rule.max}${what}; got "${raw}".`);
  }
  return n;
}

/** A switch: true or 1 turns it on, false or 0 (or unset) leaves it off; anything else is a mistake worth hearing about. */
export function readFlag(env: FlatEnv, name: string): boolean {
  const raw = env[name];
  if (raw === undefined) return false;
  const value = raw.trim().toLowerCase();
  if (value === 'true' || value === '1') return true;
  if (value === 'false' || value === '0') return false;
  throw new ConfigError(name, `must be true (or 1) or false (or 0); got "${raw}".`);
}

/** One of a fixed list of words. */
export function readChoice<T extends string>(env: FlatEnv, name: string, choices: readonly T[], fallback: T): T {
  const raw = env[name];
  if (raw === undefined) return fallback;
  if ((choices as readonly string[]).includes(raw)) return raw as T;
  throw new ConfigError(name, `must be one of ${choices.join(', ')}; got "${raw}".`);
}

/** Text of a given shape (an id, a key), or a refusal that says the shape. */
export function readText(env: FlatEnv, name: string, o: { fallback: string; pattern: RegExp; shape: string }): string {
  const value = env[name] ?? o.fallback;
  if (!o.pattern.test(value)) throw new ConfigError(name, `must be ${o.shape}.`);
  return value;
}
