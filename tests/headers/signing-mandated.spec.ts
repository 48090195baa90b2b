import { ConsentsClient, consentRequest } from '../../harness/areas/consents.js';
import { commonOperation, expect, req, test } from '../../harness/operations.js';

// A bank that mandates signing (Common request headers, Signature: "a bank may mandate it"; the
// profile says so with signatures.mandated) refuses what comes unsigned. Under a profile that
// does not say so the check is not claimed: an unsigned call is then the ordinary call.

test.describe('signing mandated', () => {
  for (const [requirement, title, status, code] of [
    ['headers.signing.unsigned-refused', 'is refused and creates nothing', undefined, undefined],
    ['headers.signing.unsigned-refused-code', 'is answered 401 SIGNATURE_MISSING', 401, 'SIGNATURE_MISSING'],
  ] as const) {
    test(
      `where the bank mandates signing, an unsigned call ${title}`,
      req(requirement),
      async ({ directory, operations }) => {
        const { profile, profileName } = directory.api.target;
        // The feature signing.mandated claims it (harness/test.ts skips otherwise); the option says it.
        if (profile.signatures?.mandated !== true)
          throw new Error('the profile claims signing.mandated but not signatures.mandated: true');
        const consents = new ConsentsClient(directory.api.with({ scope: 'accountinformation', bicFi: true }));
        // A call without a body the profile claims: List banks, else a resource's status.
        const o = commonOperation(directory.api.target);
        test.skip(!o, `not claimed: the profile "${profileName}" claims no operation without a body to call`);
        const read = await test.step(`prerequisites of ${o!.name}`, () => operations.bind(o!));
        const list = await read.call({ sign: false });
        const created = await consents.api.post(consents.path, {
          json: consentRequest(),
          headers: consents.psuHeaders(),
          sign: false,
        });
        const id = created.status < 300 ? (created.body as { consentId?: string } | undefined)?.consentId : undefined;
        if (id) await consents.delete(id).catch(() => undefined);
        for (const [res, what] of [
          [list, `${read.label}, unsigned`],
          [created, 'create consent, unsigned'],
        ] as const) {
          if (code) await expect.soft(res, what).toBeTppError(status!, code);
          else await expect.soft(res, what).toBeRefused();
        }
      },
    );
  }
});
