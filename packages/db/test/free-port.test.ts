import { readFileSync } from 'node:fs';
import { createServer } from 'node:net';
import { freePort } from '../src';

describe('freePort', () => {
  it('gives a port that binds, outside the range the kernel hands to outgoing connections', async () => {
    const [low] = readFileSync('/proc/sys/net/ipv4/ip_local_port_range', 'utf8').trim().split(/\s+/).map(Number);
    const ports = await Promise.all(Array.from({ length: 20 }, () => freePort()));
    for (const port of ports) expect(port).toBeLessThan(low!);
    const srv = createServer();
    await new Promise<void>((res, rej) => srv.once('error', rej).listen(ports[0], '127.0.0.1', res));
    await new Promise<void>((res) => srv.close(() => res()));
  });
});
