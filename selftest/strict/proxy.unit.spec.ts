import { createServer, type Server } from 'node:http';
import { expect } from '@playwright/test';
import { test } from '../support/test.js';
import { request } from 'undici';
import { makeDispatcher } from '../../harness/http/transport.js';
import { startProxy } from './proxy.js';

// The proxy settings on a plain-HTTP target (the strict run covers HTTPS through a proxy):
// HTTP_PROXY carries the call through the proxy; NO_PROXY naming the target sends it straight.

let target: Server;
let base = '';
const seenPorts: number[] = [];

test.beforeAll(async () => {
  target = createServer((req, res) => {
    seenPorts.push(req.socket.remotePort!);
    res.writeHead(200, { 'content-type': 'text/plain' }).end('ok');
  });
  await new Promise<void>((done) => target.listen(0, '127.0.0.1', done));
  base = `http://127.0.0.1:${(target.address() as { port: number }).port}`;
});
test.afterAll(async () => {
  await new Promise<void>((done) => target.close(() => done()));
});

test('HTTP_PROXY carries a call to a plain-HTTP target through the proxy', async () => {
  const proxy = await startProxy();
  const dispatcher = makeDispatcher(undefined, { httpProxy: proxy.url });
  try {
    seenPorts.length = 0;
    const res = await request(`${base}/through`, { dispatcher });
    expect(await res.body.text()).toBe('ok');
    expect(seenPorts.length, 'calls the target saw').toBe(1);
    expect([...proxy.tunnelPorts], 'the call came from a tunnel the proxy opened').toContain(seenPorts[0]);
  } finally {
    await dispatcher.close();
    await proxy.close();
  }
});

test('NO_PROXY naming the target sends the call straight to it', async () => {
  const proxy = await startProxy();
  const dispatcher = makeDispatcher(undefined, { httpProxy: proxy.url, noProxy: '127.0.0.1' });
  try {
    seenPorts.length = 0;
    const res = await request(`${base}/straight`, { dispatcher });
    expect(await res.body.text()).toBe('ok');
    expect(seenPorts.length, 'calls the target saw').toBe(1);
    expect(proxy.tunnelPorts.size, 'tunnels the proxy opened').toBe(0);
  } finally {
    await dispatcher.close();
    await proxy.close();
  }
});
