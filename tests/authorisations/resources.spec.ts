import { PNG } from 'pngjs';
import { test as authorisationsTest } from '../../harness/areas/authorisations.js';
import {
  claimedResources,
  createdOn,
  methodOf,
  skipUnclaimedMethod,
  type Created,
} from '../../harness/areas/resource-authorisations.js';
import { because, expect, req, test as basketsTest } from '../../harness/areas/signing-baskets.js';
import { prerequisite } from '../../harness/http/broken.js';
import { pollQrTimeline, QR_MARGIN_MS, QR_VALIDITY_MS, timelineText } from '../../harness/sca/qr-timeline.js';
import { mergeTests } from '../../harness/test.js';

// The rules of the authorisation flows (endpoint section F: "The operations use
// {base_url}/<resourceBasePath> for consent, payment or basket") judged on every resource the
// profile claims beside the consent (tests/authorisations/ judges them there): a payment's, a
// cancellation's and a basket's authorisations.

const test = mergeTests(basketsTest, authorisationsTest);

const PNG_SIGNATURE = Buffer.from([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a]);
/** The order of the SCA statuses (States > Authorisation): received, then under way, then ended. */
const RANK: Record<string, number> = {
  received: 0,
  started: 1,
  psuIdentified: 1,
  psuAuthenticated: 1,
  scaMethodSelected: 1,
  finalised: 2,
  failed: 2,
};
const sameDevice = (methods: string[]) => ['mbid_same_device', 'mbid'].find((m) => methods.includes(m));

/** Starts `a` with `method` (a step judged by authorisations.start.decoupled); returns the start's answer. */
async function started(a: Created, method: string) {
  const res = await a.sca.start(a.href, method, a.headers);
  await prerequisite('authorisations.start.decoupled', `start the ${a.what} with ${method}`, async () =>
    expect(res).toSucceed(),
  );
  return res;
}

test(
  "mbid_same_device gives the auto-start token first in challengeData.data on a payment's, a cancellation's and a basket's authorisation",
  req('authorisations.decoupled.autostart-token'),
  async ({ authorisations, baskets }) => {
    for (const r of claimedResources({ authorisations, baskets }, ['payment', 'cancellation', 'basket'])) {
      const a = await createdOn({ authorisations, baskets }, r);
      const method = await methodOf(a, sameDevice, 'the decoupled flow on the same device (mbid_same_device or mbid)');
      const res = await started(a, method);
      const data = res.json<{ challengeData?: { data?: unknown } }>().challengeData?.data;
      const token = Array.isArray(data) ? data[0] : data;
      expect
        .soft(
          typeof token === 'string' && token.trim().length > 0,
          because(
            `$.challengeData.data[0] of the ${a.what} started with ${method} must be the auto-start token; got ${JSON.stringify(data)}`,
          ),
        )
        .toBe(true);
    }
  },
);

test(
  "mbid_animated_qr_image gives a PNG data URI and a psuMessage on a payment's, a cancellation's and a basket's authorisation",
  req('authorisations.qr.image'),
  async ({ authorisations, baskets, target }) => {
    skipUnclaimedMethod(target, 'mbid_animated_qr_image');
    for (const r of claimedResources({ authorisations, baskets }, ['payment', 'cancellation', 'basket'])) {
      const a = await createdOn({ authorisations, baskets }, r);
      const method = await methodOf(
        a,
        (m) => m.find((id) => id === 'mbid_animated_qr_image'),
        'the animated QR image',
        'authorisations.qr.both-ids',
      );
      const body = (await started(a, method)).json<{ challengeData?: { image?: unknown }; psuMessage?: unknown }>();
      const image = body.challengeData?.image;
      const bytes =
        typeof image === 'string' && image.startsWith('data:image/png;base64,')
          ? Buffer.from(image.slice('data:image/png;base64,'.length), 'base64')
          : Buffer.alloc(0);
      let size = 0;
      try {
        const png = PNG.sync.read(bytes);
        size = png.width * png.height;
      } catch {
        size = 0;
      }
      expect
        .soft(
          bytes.subarray(0, 8).equals(PNG_SIGNATURE) && size > 0,
          because(
            `${a.what}: challengeData.image must be a data:image/png;base64, URI of a PNG; got ${String(image).slice(0, 60)}`,
          ),
        )
        .toBe(true);
      expect
        .soft(
          typeof body.psuMessage === 'string' && body.psuMessage.length > 0,
          because(`${a.what}: the QR image start carries psuMessage; got ${JSON.stringify(body.psuMessage)}`),
        )
        .toBe(true);
    }
  },
);

test(
  "the animated QR token changes at least once a second until the SCA ends on a payment's, a cancellation's and a basket's authorisation",
  req('authorisations.qr.token-rotates'),
  async ({ authorisations, baskets, target }) => {
    skipUnclaimedMethod(target, 'mbid_animated_qr_token');
    for (const r of claimedResources({ authorisations, baskets }, ['payment', 'cancellation', 'basket'])) {
      const a = await createdOn({ authorisations, baskets }, r);
      const method = await methodOf(
        a,
        (m) => m.find((id) => id === 'mbid_animated_qr_token'),
        'the animated QR token',
        'authorisations.qr.both-ids',
      );
      await started(a, method);
      const timeline = await pollQrTimeline(a.sca, a.href, {
        intervalMs: 600,
        timeoutMs: target.timeouts.scaMs,
        headers: a.headers,
      });
      const text = `\n${a.what}, polled every 600 ms after the previous answer:\n${timelineText(timeline.polls)}`;
      expect
        .soft(
          timeline.polls.filter((p) => p.status === 'started').every((p) => p.token),
          because(`every status answer while started carries the token in challengeData.data${text}`),
        )
        .toBe(true);
      expect
        .soft(
          timeline.stale.map((s) => `token ${s.token.slice(-8)} served for at least ${s.livedAtLeastMs} ms`),
          because(`no QR token may be served for more than ${QR_VALIDITY_MS} ms (${QR_MARGIN_MS} ms margin)${text}`),
        )
        .toEqual([]);
      expect
        .soft(timeline.ended, because(`the animated QR SCA ends within ${target.timeouts.scaMs} ms${text}`))
        .toBe(true);
    }
  },
);

test(
  'no later read of an authorisation moves its SCA status back (started to received) on a consent, payment, cancellation or basket',
  req('authorisations.status.no-move-back'),
  async ({ authorisations, baskets }) => {
    for (const r of claimedResources({ authorisations, baskets })) {
      const a = await createdOn({ authorisations, baskets }, r);
      const method = await methodOf(a, sameDevice, 'the decoupled flow (mbid_same_device or mbid)');
      await started(a, method);
      const end = await a.sca.pollUntilEnd(a.href, 500, a.headers);
      const again = await a.sca.status(a.href, a.headers);
      const seen = [...end.polls.map((p) => p.status), String(again.json<{ scaStatus?: unknown }>().scaStatus)];
      const back = seen.flatMap((s, i) =>
        seen.slice(0, i).some((before) => (RANK[before] ?? -1) > (RANK[s] ?? 99)) ? [`read #${i + 1}: ${s}`] : [],
      );
      expect
        .soft(
          back,
          because(`${a.what} started with ${method}: SCA status reads ${seen.join(' → ')}; none may move back`),
        )
        .toEqual([]);
    }
  },
);
