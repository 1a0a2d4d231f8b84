// Settings are read in packages/config and the hosts' config modules; what stays here is
// how the HTTP kit recognises this machine.

/** This machine's names: loopback origins may call /mcp, and native apps' OAuth redirects may use plain http. */
export const isLoopbackHost = (hostname: string) => ['localhost', '127.0.0.1', '[::1]'].includes(hostname);
