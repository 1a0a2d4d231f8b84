// Not a view: the page script of the test host test-e2e/apps-views.test.ts serves (never built into a host).
import { AppBridge, PostMessageTransport, getToolUiResourceUri } from '@modelcontextprotocol/ext-apps/app-bridge';
import { Client, StreamableHTTPClientTransport } from '@modelcontextprotocol/client';

/**
 * A test host for MCP Apps views, built on the official host bridge (AppBridge): it connects
 * the official MCP client to /mcp on its own origin (the test relays that to a host with the
 * user's credential), calls a tool, reads the view the tool links, and shows it in a sandboxed
 * frame under the CSP the view declares. Everything the view asks goes through the bridge.
 */

const EXTENSION = 'io.modelcontextprotocol/ui';

interface Shown {
  tools: string[];
  uri: string;
  declaredCsp: { connectDomains?: string[]; resourceDomains?: string[] };
  frameCsp: string;
  openedLinks: string[];
  downloads: unknown[];
}

/** The frame's CSP from the view's declaration: its own inline code, and only the domains it names. */
function cspOf(declared: Shown['declaredCsp']): string {
  const connect = declared.connectDomains?.length ? declared.connectDomains.join(' ') : "'none'";
  const resources = ['data:', ...(declared.resourceDomains ?? [])].join(' ');
  return `default-src 'none'; script-src 'unsafe-inline'; style-src 'unsafe-inline'; img-src ${resources}; font-src ${resources}; connect-src ${connect}; frame-src 'none'; base-uri 'none'; form-action 'none'`;
}

async function run(tool: string, args: Record<string, unknown>): Promise<Shown> {
  const client = new Client(
    { name: 'front-desk-test-host', version: '1.0.0' },
    { capabilities: { extensions: { [EXTENSION]: { mimeTypes: ['text/html;profile=mcp-app'] } } } },
  );
  // The MCP server this host is connected to: the book host's relay, or the one ?mcp= names.
  await client.connect(new StreamableHTTPClientTransport(new URL(new URLSearchParams(location.search).get('mcp') ?? '/mcp', location.href)));
  const { tools } = await client.listTools();
  const linked = tools.find((t) => t.name === tool)!;
  const uri = getToolUiResourceUri(linked)!;
  const result = await client.callTool({ name: tool, arguments: args });
  const read = await client.readResource({ uri });
  const content = read.contents[0] as { text: string; _meta?: { ui?: { csp?: Shown['declaredCsp'] } } };
  const declaredCsp = content._meta?.ui?.csp ?? {};
  const frameCsp = cspOf(declaredCsp);
  const shown: Shown = { tools: tools.map((t) => t.name), uri, declaredCsp, frameCsp, openedLinks: [], downloads: [] };
  (window as unknown as { hostState: Shown }).hostState = shown;

  const frame = document.createElement('iframe');
  frame.id = 'view';
  frame.title = 'Front Desk view';
  frame.setAttribute('sandbox', 'allow-scripts allow-forms');
  document.getElementById('conversation')!.append(frame);
  const bridge = new AppBridge(
    client,
    { name: 'front-desk-test-host', version: '1.0.0' },
    { openLinks: {}, downloadFile: {}, serverTools: {}, serverResources: {} },
    { hostContext: { theme: 'light', displayMode: 'inline' } },
  );
  bridge.onopenlink = ({ url }) => {
    shown.openedLinks.push(url);
    return Promise.resolve({});
  };
  bridge.ondownloadfile = (p) => {
    shown.downloads.push(p);
    return Promise.resolve({});
  };
  bridge.onsizechange = ({ height }) => {
    if (height) frame.style.height = `${height}px`;
  };
  bridge.oninitialized = () => {
    void bridge.sendToolInput({ arguments: args }).then(() => bridge.sendToolResult(result as never));
  };
  await bridge.connect(new PostMessageTransport(frame.contentWindow!, frame.contentWindow!));
  frame.srcdoc = content.text.replace('<head>', `<head><meta http-equiv="Content-Security-Policy" content="${frameCsp}">`);
  return shown;
}

(window as unknown as { showTool: typeof run }).showTool = run;
