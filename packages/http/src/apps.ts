import { readFileSync } from 'node:fs';

/**
 * MCP Apps (the `io.modelcontextprotocol/ui` extension, stable since 2026-01-26): a tool names a
 * `ui://` resource in `_meta.ui.resourceUri`; a host that speaks the extension reads it with
 * resources/read and shows it in a sandboxed frame under the CSP the resource declares, and the
 * view calls tools only through the host (its app bridge), with the user's own credential.
 * A host without the extension never reads a view: tool answers are the same for everyone.
 */
export const MCP_APPS_EXTENSION = 'io.modelcontextprotocol/ui';
/** The MIME type of an MCP Apps view (one HTML document). */
export const MCP_APP_MIME_TYPE = 'text/html;profile=mcp-app';
/** JSON-RPC's "resource not found" (MCP server/resources §Error Handling). */
export const RESOURCE_NOT_FOUND = -32002;

/**
 * What a view may reach besides the host's bridge: nothing. Its script and styles are inline in
 * the one document, so no domain is named; a host builds its CSP from these lists.
 */
export const VIEW_CSP = { connectDomains: [] as string[], resourceDomains: [] as string[] };

/**
 * The most bytes a view's document may have; scripts/build-views.ts fails over it and the hosts'
 * tests check what they serve. The issue asks for under 150 KB; this holds every view to the
 * stricter reading, 150,000 bytes (146.5 KiB), and the build reports sizes in bytes against it.
 * What we write is 2–11 KB of each view; the rest is the official App class with what it needs
 * (its Protocol from @modelcontextprotocol/client with the 2025 wire era's message schemas, and
 * zod's classic API), about 130 KB after the build leaves out what a view cannot reach
 * (docs/mcp-apps.md), so a view that grows fails the build.
 */
export const VIEW_MAX_BYTES = 150_000;

/** One view a host serves: its `ui://` address, what it shows, and the tools that link it. */
export interface AppView {
  uri: `ui://${string}`;
  name: string;
  title: string;
  description: string;
  /** The tools whose `_meta.ui.resourceUri` names this view. */
  tools: readonly string[];
  /** The built document (scripts/build-views.ts writes it; read once, then kept). */
  html: () => string;
}

/** The capability a server declares for the extension (in `initialize` and in server/discover). */
export const appsCapability = () => ({ [MCP_APPS_EXTENSION]: { mimeTypes: [MCP_APP_MIME_TYPE] } });

/** A view's document from the file the build wrote, read on first use; a missing build says what to run. */
export function builtView(file: string): () => string {
  let text: string | undefined;
  return () => {
    text ??= readFileSync(file, 'utf8');
    return text;
  };
}

/** The view a tool links, by tool name. */
export const viewLinks = (views: readonly AppView[]): Map<string, string> => new Map(views.flatMap((v) => v.tools.map((t) => [t, v.uri] as const)));

const resourceMeta = { ui: { csp: VIEW_CSP, prefersBorder: true } };

/** resources/list: every view. */
export const listViews = (views: readonly AppView[]) => ({
  resources: views.map((v) => ({ uri: v.uri, name: v.name, title: v.title, description: v.description, mimeType: MCP_APP_MIME_TYPE, _meta: resourceMeta })),
});

/** resources/read of one view, or undefined when no view has that address. */
export function readView(views: readonly AppView[], uri: unknown) {
  const view = views.find((v) => v.uri === uri);
  if (!view) return undefined;
  return { contents: [{ uri: view.uri, mimeType: MCP_APP_MIME_TYPE, text: view.html(), _meta: resourceMeta }] };
}
