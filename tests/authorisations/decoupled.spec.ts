import { PNG } from 'pngjs';
import { because, expect, req, test } from '../../harness/areas/authorisations.js';
import { prerequisite } from '../../harness/http/broken.js';
import type { ApiResponse } from '../../harness/http/response.js';
import { readQrImage } from '../../harness/sca/qr-image.js';
import {
  pollQrTimeline,
  QR_MARGIN_MS,
  QR_VALIDITY_MS,
  timelineSvg,
  timelineText,
  tokenSpans,
} from '../../harness/sca/qr-timeline.js';

const PNG_SIGNATURE = Buffer.from([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a]);

/** The auto-start token of a started same-device authorisation (challengeData.data[0]), judged non-empty. */
async function autoStartToken(b: { started: ApiResponse; method: string }, which: string): Promise<string> {
  await expect(b.started, because(`start ${which} with ${b.method}`)).toSucceed();
  const data = b.started.json<{ challengeData?: { data?: unknown } }>().challengeData?.data;
  const token = Array.isArray(data) ? data[0] : data;
  expect(
    typeof token === 'string' && token.trim().length > 0,
    because(`$.challengeData.data[0] of ${which} must be the auto-start token; got ${JSON.stringify(data)}`),
  ).toBe(true);
  return token as string;
}

test(
  'mbid_same_device gives a non-empty auto-start token as the first element of challengeData.data',
  req('authorisations.decoupled.autostart-token'),
  async ({ authorisations }) => {
    // The app link is the client's to build from the token; the suite's own URL encoding of it proves nothing of the bank.
    await autoStartToken(await authorisations.beginSameDevice(), 'the authorisation');
  },
);

test(
  "the auto-start token is the authorisation's own: different for two authorisations, and none of the exchange's ids",
  req('authorisations.decoupled.autostart-token-own'),
  async ({ authorisations }) => {
    // What the PSU's app needs of the token that starts the SCA the bank is waiting on: one per
    // authorisation (two started side by side never share it), and a token, not an id the TPP
    // already holds (the authorisationId, the consentId, the X-Request-ID of the start).
    const begun = [await authorisations.beginSameDevice(), await authorisations.beginSameDevice()];
    const tokens: string[] = [];
    for (const [i, b] of begun.entries()) {
      const token = await prerequisite(
        'authorisations.decoupled.autostart-token',
        `the auto-start token of authorisation ${i + 1}`,
        () => autoStartToken(b, `authorisation ${i + 1}`),
      );
      const ids = {
        authorisationId: b.authorisationId,
        consentId: b.consentId,
        'X-Request-ID of the start': Object.entries(b.started.exchange.requestHeaders).find(
          ([h]) => h.toLowerCase() === 'x-request-id',
        )?.[1],
      };
      const equal = Object.entries(ids)
        .filter(([, id]) => typeof id === 'string' && id !== '' && id === token)
        .map(([name]) => name);
      expect(
        equal,
        because(
          `the auto-start token of authorisation ${i + 1} (${JSON.stringify(token)}) is none of the exchange's ids ${JSON.stringify(ids)}`,
        ),
      ).toEqual([]);
      tokens.push(token);
    }
    expect(
      tokens[0] !== tokens[1],
      because(
        `two authorisations started side by side (${begun[0].authorisationId}, ${begun[1].authorisationId}) have different auto-start tokens; both got ${JSON.stringify(tokens[0])}`,
      ),
    ).toBe(true);
  },
);

test(
  'the animated QR token changes at least once a second until the SCA ends',
  req('authorisations.qr.token-rotates'),
  async ({ authorisations, target }, testInfo) => {
    const b = await authorisations.begin({ method: 'mbid_animated_qr_token' });
    await expect(b.started!).toSucceed();
    const timeline = await pollQrTimeline(authorisations.sca, b.href, {
      intervalMs: 600,
      timeoutMs: target.timeouts.scaMs,
      headers: authorisations.headers(),
    });
    await testInfo.attach('QR poll timeline', {
      body: timelineSvg(timeline, `Animated QR token: ${timeline.polls.length} polls, ended ${timeline.status}`),
      contentType: 'image/svg+xml',
    });
    await testInfo.attach('QR poll timeline (text)', { body: timelineText(timeline.polls), contentType: 'text/plain' });
    const running = timeline.polls.filter((p) => p.status === 'started');
    const text = `\npoll timeline (every 600 ms after the previous answer, one request outstanding):\n${timelineText(timeline.polls)}`;
    expect(
      running.every((p) => p.token),
      because(`every status answer while started must carry the token in challengeData.data${text}`),
    ).toBe(true);
    expect(
      timeline.stale.map(
        (s) =>
          `token ${s.token.slice(-8)} served for at least ${s.livedAtLeastMs} ms (polls #${s.firstPoll + 1} to #${s.lastPoll + 1})`,
      ),
      because(
        `no QR token may be served for more than ${QR_VALIDITY_MS} ms; lifetime measured from the answer that first showed it to the sending of the last request that still showed it (latency only shortens it), with ${QR_MARGIN_MS} ms for timer granularity${text}`,
      ),
    ).toEqual([]);
    expect(
      timeline.ended,
      because(`the animated QR SCA must end (finalised or failed) within ${target.timeouts.scaMs} ms${text}`),
    ).toBe(true);
  },
);

test(
  'mbid_animated_qr_image gives a real PNG data URI and a psuMessage',
  req('authorisations.qr.image'),
  async ({ authorisations }) => {
    const b = await authorisations.begin({ method: 'mbid_animated_qr_image' });
    await expect(b.started!).toSucceed();
    const body = b.started!.json();
    const image: unknown = body.challengeData?.image;
    expect(
      typeof image === 'string' && image.startsWith('data:image/png;base64,'),
      because(`challengeData.image must be a data:image/png;base64, URI; got ${String(image).slice(0, 60)}`),
    ).toBe(true);
    const bytes = Buffer.from((image as string).slice('data:image/png;base64,'.length), 'base64');
    expect(
      bytes.subarray(0, 8).equals(PNG_SIGNATURE),
      because(`the image bytes must start with the PNG signature; got ${bytes.subarray(0, 8).toString('hex')}`),
    ).toBe(true);
    expect(bytes.subarray(12, 16).toString('latin1'), because('the first PNG chunk must be IHDR')).toBe('IHDR');
    let decoded: { width: number; height: number } | undefined;
    try {
      decoded = PNG.sync.read(bytes);
    } catch (err) {
      expect.soft(String(err), because('the PNG must decode')).toBe('');
    }
    expect((decoded?.width ?? 0) > 0 && (decoded?.height ?? 0) > 0, because('the PNG has a width and a height')).toBe(
      true,
    );
    expect(
      typeof body.psuMessage === 'string' && body.psuMessage.length > 0,
      because(`the response carries psuMessage; got ${JSON.stringify(body.psuMessage)}`),
    ).toBe(true);
  },
);

test(
  'the animated QR image decodes as a QR code whose payload changes at least once a second',
  req('authorisations.qr.image-decodes'),
  async ({ authorisations, target }, testInfo) => {
    const b = await authorisations.begin({ method: 'mbid_animated_qr_image' });
    await expect(b.started!).toSucceed();
    const timeline = await pollQrTimeline(authorisations.sca, b.href, {
      intervalMs: 600,
      timeoutMs: target.timeouts.scaMs,
      headers: authorisations.headers(),
    });
    // Each image as an app's camera reads it; the timeline is then judged on the payloads.
    const readings = timeline.polls.map((p) => (p.token ? readQrImage(p.token) : undefined));
    const polls = timeline.polls.map((p, i) => ({ ...p, token: readings[i]?.payload }));
    await testInfo.attach('QR image payload timeline (text)', { body: timelineText(polls), contentType: 'text/plain' });
    const text = `\npoll timeline of the decoded payloads (every 600 ms after the previous answer):\n${timelineText(polls)}`;
    const unread = timeline.polls.flatMap((p, i) =>
      p.status === 'started' && !readings[i]?.payload
        ? [`poll #${i + 1}: ${readings[i] && 'error' in readings[i] ? readings[i].error : 'no challengeData.image'}`]
        : [],
    );
    expect(
      unread,
      because(`every challengeData.image while started must decode as a QR code (pngjs, then jsqr)${text}`),
    ).toEqual([]);
    const stale = tokenSpans(polls).filter((s) => s.livedAtLeastMs > QR_VALIDITY_MS + QR_MARGIN_MS);
    expect(
      stale.map(
        (s) =>
          `payload …${s.token.slice(-8)} shown for at least ${s.livedAtLeastMs} ms (polls #${s.firstPoll + 1} to #${s.lastPoll + 1})`,
      ),
      because(`the QR payload must rotate: none may be shown for more than ${QR_VALIDITY_MS} ms${text}`),
    ).toEqual([]);
  },
);

test(
  'scaMethods offer both animated QR ids together',
  req('authorisations.qr.both-ids'),
  async ({ authorisations }) => {
    const b = await authorisations.begin();
    const ids = b.methods.map((m) => m.authenticationMethodId);
    for (const id of ['mbid_animated_qr_token', 'mbid_animated_qr_image']) {
      expect(ids, because(`a bank with animated QR offers ${id}; scaMethods: ${ids.join(', ')}`)).toContain(id);
    }
  },
);
