import { ConsentsClient, consentRequest } from '../../harness/areas/consents.js';
import { commonOperation, expect, req, test, type Bound, type OperationWorld } from '../../harness/operations.js';
import { PaymentsClient } from '../../harness/areas/payments.js';
import type { ApiClient } from '../../harness/http/client.js';
import { digestOf, testIdentity, withForeignKey, type SignOptions } from '../../harness/http/signing.js';

// Signed calls, judged in full (Authentication 6; reference facts "Certificates and request signing").
test.describe('request signing', () => {
  const consentsOf = (api: ApiClient) => new ConsentsClient(api.with({ scope: 'accountinformation', bicFi: true }));

  /** Creates a consent signed as `sign` says; a consent it created anyway is deleted again. */
  const createSigned = async (consents: ConsentsClient, sign: SignOptions, json: unknown = consentRequest()) => {
    const res = await consents.api.post(consents.path, { json, headers: consents.psuHeaders(), sign });
    const id = res.status < 300 ? (res.body as { consentId?: string } | undefined)?.consentId : undefined;
    if (id) await consents.delete(id).catch(() => undefined);
    return res;
  };
  /**
   * A call without a body the profile claims (List banks, else a consent's, a payment's, a
   * basket's or a direct debit's status: commonOperation), bound to its prerequisites; the test is
   * skipped when the profile claims none.
   */
  const bodyless = async (operations: OperationWorld, target: ApiClient['target']): Promise<Bound> => {
    const o = commonOperation(target);
    test.skip(!o, `not claimed: the profile "${target.profileName}" claims no operation without a body to sign`);
    return test.step(`prerequisites of ${o!.name}`, () => operations.bind(o!));
  };
  const pki = (api: ApiClient) => {
    const dir = api.target.testPkiDir;
    if (!dir) throw new Error('TPP_TEST_PKI_DIR is not set: the certificates of the test CA are needed here');
    return dir;
  };

  test(
    'a correctly signed call is accepted',
    req('headers.signing.signed-accepted'),
    async ({ directory, operations }) => {
      const consents = consentsOf(directory.api);
      const read = await bodyless(operations, directory.api.target);
      await expect(await read.call({ sign: true }), `${read.label}, signed`).toSucceed();
      const res = await createSigned(consents, {});
      await expect(res, 'signed create consent').toSucceed();
    },
  );

  test(
    "a Digest that is not the body's is refused",
    req('headers.signing.digest-mismatch'),
    async ({ directory, operations }) => {
      const read = await bodyless(operations, directory.api.target);
      const res = await read.call({ sign: { digest: digestOf('not the body of this call') } });
      await expect(res, `${read.label}, signed with the Digest of another body`).toBeTppError(401, 'SIGNATURE_INVALID');
    },
  );

  test(
    'a body changed after signing is refused and creates nothing',
    req('headers.signing.tampered-body'),
    async ({ directory }) => {
      const sent = consentRequest();
      const signed = JSON.stringify({ ...sent, frequencyPerDay: 1, recurringIndicator: false });
      const res = await createSigned(consentsOf(directory.api), { bodySigned: signed }, sent);
      await expect(res, 'create consent whose body differs from the one signed').toBeTppError(401, 'SIGNATURE_INVALID');
    },
  );

  test(
    'a signature by another key is refused and creates nothing',
    req('headers.signing.other-key'),
    async ({ directory }) => {
      const own = directory.api.target.signing!;
      const res = await createSigned(consentsOf(directory.api), { as: await withForeignKey(own) });
      await expect(res, "create consent signed by a key that is not the certificate's").toBeTppError(
        401,
        'SIGNATURE_INVALID',
      );
    },
  );

  test(
    'an expired certificate is refused and creates nothing',
    req('headers.signing.expired-certificate'),
    async ({ directory }) => {
      const res = await createSigned(consentsOf(directory.api), {
        as: testIdentity(pki(directory.api), 'tpp-expired'),
      });
      await expect(res, 'create consent signed with an expired certificate').toBeTppError(401, 'CERTIFICATE_EXPIRED');
    },
  );

  test(
    'a certificate without PSP_AI cannot create a consent',
    req('headers.signing.role-missing'),
    async ({ directory }) => {
      const res = await createSigned(consentsOf(directory.api), { as: testIdentity(pki(directory.api), 'tpp-norole') });
      await expect(res, 'create consent signed with a certificate without PSP_AI').toBeTppError(
        401,
        'CERTIFICATE_INVALID',
      );
    },
  );

  test(
    'an account-information-only certificate cannot initiate a payment',
    req('headers.signing.ais-only-payment'),
    async ({ directory, claimedPayment: c }) => {
      const payments = new PaymentsClient(directory.api.with({ scope: 'paymentinitiation', bicFi: true }));
      const res = await payments.api.post(payments.path(c), {
        json: payments.body(c),
        headers: { ...payments.psuHeaders(), ...payments.productHeaders(c) },
        sign: { as: testIdentity(pki(directory.api), 'tpp-ais') },
      });
      const id = res.status < 300 ? (res.body as { paymentId?: string } | undefined)?.paymentId : undefined;
      if (id) await payments.cancel(payments.basePath(c, id)).catch(() => undefined);
      await expect(res, `${c.service}/${c.product} initiated with a PSP_AI-only certificate`).toBeTppError(
        401,
        'CERTIFICATE_INVALID',
      );
    },
  );
});
