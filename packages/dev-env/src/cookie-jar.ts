/**
 * Cookies as a browser keeps them, for tests that walk pages over HTTP: each by name and path,
 * sent back only under its path, dropped by `Max-Age=0`, and (on `restart`) without a lifetime
 * of its own gone, as when the browser is closed and opened again. supertest's agent keeps no
 * Max-Age, so a page's sign-out and a closed browser can only be seen this way.
 */

interface Kept {
  name: string;
  value: string;
  path: string;
  /** No Max-Age or Expires: the browser drops it when it closes. */
  session: boolean;
}

type WithHeaders = { headers: Record<string, unknown> } | { headers: Headers };

/** The Set-Cookie lines of a supertest or fetch response. */
export function setCookies(res: WithHeaders): string[] {
  if (res.headers instanceof Headers) return res.headers.getSetCookie();
  return ([] as string[]).concat((res.headers['set-cookie'] as string[] | string | undefined) ?? []);
}

/** Every cookie a response sets with a value, as a Cookie header sends them back: "a=1; b=2". */
export const cookiesFrom = (res: WithHeaders): string =>
  setCookies(res)
    .map((line) => line.split(';')[0]!)
    .filter((pair) => !pair.endsWith('='))
    .join('; ');

export class CookieJar {
  private readonly kept = new Map<string, Kept>();

  /** Takes what a response sets, as a browser would. */
  take(res: WithHeaders): void {
    for (const line of setCookies(res)) {
      const [pair, ...attrs] = line.split(';').map((p) => p.trim());
      const eq = pair!.indexOf('=');
      const name = pair!.slice(0, eq);
      const value = pair!.slice(eq + 1);
      const attr = (key: string) => attrs.find((a) => a.toLowerCase().startsWith(`${key}=`))?.slice(key.length + 1);
      const path = attr('path') ?? '/';
      const maxAge = attr('max-age');
      const id = `${name} ${path}`;
      if (maxAge === '0' || value === '') this.kept.delete(id);
      else this.kept.set(id, { name, value, path, session: maxAge === undefined && attr('expires') === undefined });
    }
  }

  /** The Cookie header a browser sends to `url` (a path, with or without a query): longest paths first. */
  header(url: string): string {
    const path = url.split('?')[0]!;
    return [...this.kept.values()]
      .filter((c) => c.path === '/' || path === c.path || path.startsWith(`${c.path}/`))
      .sort((a, b) => b.path.length - a.path.length)
      .map((c) => `${c.name}=${c.value}`)
      .join('; ');
  }

  /** The value of the cookie `name` (under any path), if kept. */
  value(name: string): string | undefined {
    return [...this.kept.values()].find((c) => c.name === name)?.value;
  }

  /** Sets a cookie by hand (one copied from another time, say). */
  set(name: string, value: string, path: string): void {
    this.kept.set(`${name} ${path}`, { name, value, path, session: false });
  }

  /** The browser closed and opened again: cookies without a lifetime of their own are gone. */
  restart(): void {
    for (const [id, c] of this.kept) if (c.session) this.kept.delete(id);
  }
}

/** What `browse` needs of supertest: a request per method, for the app under test. */
interface Api {
  get(url: string): import('supertest').Test;
  post(url: string): import('supertest').Test;
}

/** A browser over an app under test: every GET and form POST sends the jar's cookies for its path and keeps what comes back. */
export function browse(api: Api, jar = new CookieJar()) {
  const send = async (req: import('supertest').Test, url: string, form?: Record<string, string>) => {
    const cookie = jar.header(url);
    if (cookie) req.set('Cookie', cookie);
    const res = await (form ? req.type('form').send(form) : req);
    jar.take(res);
    return res;
  };
  return {
    jar,
    get: (url: string) => send(api.get(url), url),
    post: (url: string, form: Record<string, string> = {}) => send(api.post(url), url, form),
  };
}
export type Browsing = ReturnType<typeof browse>;
