import type { FastifyInstance } from 'fastify';

/**
 * A slow bank: every answer (the token endpoint's included; /health excepted) is held `latencyMs`
 * before it leaves. The SCA's own delay is the sandbox's `scaDelayMs`.
 */
export function installLatency(app: FastifyInstance, latencyMs: number): void {
  app.addHook('onSend', async (req, _reply, payload) => {
    if (req.url === '/health') return payload;
    await new Promise((done) => setTimeout(done, latencyMs));
    return payload;
  });
}
