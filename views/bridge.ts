import { inCustomerWords } from '../packages/domain/src/words/booking-pages';
import { App, applyDocumentTheme, applyHostStyleVariables, type McpUiHostContext } from '@modelcontextprotocol/ext-apps';

/**
 * What every view shares: the official MCP Apps App (the view's end of the host's bridge),
 * the host's theme, a little DOM builder that never parses markup, and tool calls whose
 * refusals come back as sentences. A view reaches nothing but the host: no fetch, no key.
 */

/** A tool's arguments, as the view sends them. */
export type Args = Record<string, unknown>;
type Child = Node | string | false | null | undefined;

/** An element with attributes (`on…` ones are listeners) and children; text is always text. */
export function h(tag: string, attrs: Record<string, unknown> = {}, ...children: (Child | Child[])[]): HTMLElement {
  const el = document.createElement(tag);
  for (const [k, v] of Object.entries(attrs)) {
    if (v === undefined || v === false) continue;
    if (k.startsWith('on') && typeof v === 'function') el.addEventListener(k.slice(2), v as EventListener);
    else el.setAttribute(k, v === true ? '' : typeof v === 'string' ? v : JSON.stringify(v));
  }
  for (const c of children.flat()) if (c !== false && c !== null && c !== undefined) el.append(c);
  return el;
}

let drawn = 0;

/** The view's body, replaced whole; after the first, focus moves to its first heading so a screen reader hears the change. */
export function show(...given: (Child | Child[])[]): void {
  const children = given.flat();
  const main = document.getElementById('view')!;
  main.replaceChildren(...children.filter((c): c is Node | string => c !== false && c !== null && c !== undefined));
  const first = main.querySelector<HTMLElement>('h1, h2');
  if (first && drawn++ > 0) {
    first.tabIndex = -1;
    first.focus();
  }
}

/** A sentence in the status line (read out politely). */
export function say(text: string, error = false): void {
  const status = document.getElementById('status')!;
  status.className = error ? 'error' : 'note';
  status.textContent = text;
}

const textOf = (r: { content?: { type: string; text?: string }[] }) =>
  (r.content ?? [])
    .map((c) => (c.type === 'text' ? c.text : ''))
    .join(' ')
    .trim();

function theme(ctx: McpUiHostContext | undefined): void {
  if (ctx?.theme) applyDocumentTheme(ctx.theme);
  if (ctx?.styles?.variables) applyHostStyleVariables(ctx.styles.variables);
}

/** Connects the view to its host and draws each tool answer the host hands it (with the call's arguments). */
export function startView<T>(name: string, draw: (answer: T, input: Args) => void): App {
  const app = new App({ name: `front-desk-${name}`, version: '1.0.0' }, {}, { autoResize: true });
  let input: Args = {};
  app.ontoolinput = (p) => {
    input = p.arguments ?? {};
  };
  app.ontoolresult = (r) => {
    if (r.isError || !r.structuredContent) say(textOf(r) || 'Something went wrong.', true);
    else draw(r.structuredContent as T, input);
  };
  app.onhostcontextchanged = (ctx) => theme(ctx);
  void app.connect().then(() => theme(app.getHostContext()));
  return app;
}

/** A tool called through the host; a refusal is thrown as its sentence. */
export async function call<T>(app: App, name: string, args: Args): Promise<T> {
  const r = await app.callServerTool({ name, arguments: args });
  if (r.isError) throw new Error(inCustomerWords(textOf(r) || 'Something went wrong.'));
  return (r.structuredContent ?? {}) as T;
}

/** Runs an action from a button: the button waits, a refusal is said in the status line. */
export async function act(button: HTMLButtonElement | null, run: () => Promise<void>): Promise<void> {
  if (button) button.disabled = true;
  try {
    say('');
    await run();
  } catch (err) {
    say((err as Error).message, true);
  } finally {
    if (button?.isConnected) button.disabled = false;
  }
}
