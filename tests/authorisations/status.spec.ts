import { because, consentRequest, expect, req, test } from '../../harness/areas/authorisations.js';

test(
  'the SCA status of a decoupled authorisation reaches finalised',
  req('authorisations.status.ends'),
  async ({ authorisations }) => {
    const { consents } = authorisations;
    const { sca } = await consents.createAuthorised({
      body: consentRequest({ recurringIndicator: false, frequencyPerDay: 1 }),
    });
    expect(
      sca.scaStatus,
      because(`the decoupled SCA must end finalised; polls: ${sca.polls.map((p) => p.status).join(' → ')}`),
    ).toBe('finalised');
    const st = await authorisations.sca.status(sca.href, authorisations.headers());
    await expect(st).toMatchSchema('authorisations/sca-status');
  },
);

test(
  'a finalised authorisation keeps its status on later reads',
  req('authorisations.status.terminal-stable'),
  async ({ authorisations }) => {
    const { sca } = await authorisations.consents.createAuthorised({
      body: consentRequest({ recurringIndicator: false, frequencyPerDay: 1 }),
    });
    expect(sca.scaStatus, because('the decoupled SCA must end finalised first')).toBe('finalised');
    const seen: string[] = [];
    // Reads on the polling schedule for about two seconds: a final status never moves.
    await expect
      .poll(
        async () => {
          seen.push(String((await authorisations.sca.status(sca.href, authorisations.headers())).json().scaStatus));
          return seen.length;
        },
        { intervals: [500], timeout: 10_000 },
      )
      .toBeGreaterThanOrEqual(4);
    expect(seen, because(`scaStatus after finalised, read ${seen.length} times over about two seconds`)).toEqual(
      seen.map(() => 'finalised'),
    );
  },
);

test(
  'the SCA of the failing PSU ends failed',
  req('authorisations.status.failed'),
  async ({ authorisations, failingPsu: failing }) => {
    const headers = { ...authorisations.consents.psuHeaders(), 'PSU-ID': failing };
    const { sca } = await authorisations.consents.createAuthorised({
      body: consentRequest({ recurringIndicator: false, frequencyPerDay: 1 }),
      headers,
      sca: { headers },
    });
    expect(sca.scaStatus, because('the SCA of the PSU named sca.failingPsuId must end failed')).toBe('failed');
  },
);

test(
  'against a sandbox, a decoupled SCA ends on its own within the profile bound',
  req('authorisations.sandbox.finalises-within'),
  async ({ authorisations, target }) => {
    const bound = target.profile.sca?.finaliseWithinMs;
    test.skip(!bound, 'the profile states no sandbox bound (sca.finaliseWithinMs): not a sandbox target');
    const { sca } = await authorisations.consents.createAuthorised({
      body: consentRequest({ recurringIndicator: false, frequencyPerDay: 1 }),
      sca: { intervalMs: 500 },
    });
    const first = sca.polls.find((p) => ['finalised', 'failed', 'exempted'].includes(p.status));
    // The end is seen at the first terminal poll: the observed time is at most one poll interval late.
    const observed = (first?.answeredAt ?? sca.endedAt) - sca.startedAt;
    test.info().annotations.push({
      type: 'observed',
      description: `decoupled SCA ended (${sca.scaStatus}) ${observed} ms after start (bound ${bound} ms; polled every 500 ms)`,
    });
    expect(
      observed,
      because(`the sandbox SCA must end within ${bound} ms of its start; it ended after ${observed} ms`),
    ).toBeLessThanOrEqual(bound!);
  },
);
