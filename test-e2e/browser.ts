import { existsSync } from 'node:fs';
import { spawnSync } from 'node:child_process';

const CHROMIUM = '/usr/bin/chromium';

/**
 * Debian's Chromium for page tests, installed here when missing and we may (root, apt).
 * Never a browser download of playwright's own. Returns the path, or why there is none.
 */
export function ensureChromium(): { path: string } | { reason: string } {
  if (existsSync(CHROMIUM)) return { path: CHROMIUM };
  if (process.getuid?.() !== 0) return { reason: `no browser at ${CHROMIUM} and not root, so apt-get cannot install Debian's chromium` };
  if (spawnSync('which', ['apt-get']).status !== 0) return { reason: "no browser and no apt-get to install Debian's chromium" };
  const env = { ...process.env, DEBIAN_FRONTEND: 'noninteractive' };
  const update = spawnSync('apt-get', ['update', '-qq'], { env, encoding: 'utf8', timeout: 300_000 });
  const install = spawnSync('apt-get', ['install', '-y', '-qq', 'chromium'], { env, encoding: 'utf8', timeout: 600_000 });
  if (existsSync(CHROMIUM)) return { path: CHROMIUM };
  return { reason: `apt-get could not install chromium: ${(install.stderr || update.stderr || '').trim().slice(0, 300)}` };
}

/** Flags for a headless Chromium on a closed network (no background connections). */
export const CHROMIUM_ARGS = [
  '--no-sandbox',
  '--disable-gpu',
  '--disable-quic',
  '--no-first-run',
  '--disable-background-networking',
  '--disable-component-update',
  '--disable-sync',
];
