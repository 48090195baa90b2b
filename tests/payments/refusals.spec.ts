import {
  AUTHORISED_SCA,
  ACCEPTED,
  because,
  expect,
  label,
  req,
  settleMs,
  test,
  type Combination,
  type PaymentsClient,
} from '../../harness/areas/payments.js';
import type { Json } from '../../harness/values/json.js';
import { NOT_JUDGED_ANNOTATION } from '../../harness/catalogue/req.js';

/** The object of a payment body that holds the creditor (the first payment of a bulk). */
const creditorOf = (body: Json): Json => (Array.isArray(body.payments) ? (body.payments[0] as Json) : body);

/** A copy of the combination's valid body with `edit` applied. */
function bodyWith(payments: PaymentsClient, c: Combination, edit: (b: Json) => void): Json {
  const body = structuredClone(payments.body(c));
  edit(body);
  return body;
}

/** An IBAN whose check digits are wrong: the same IBAN with its check digits changed. */
const badCheckDigits = (iban: string) =>
  `${iban.slice(0, 2)}${String((Number(iban.slice(2, 4)) + 1) % 100).padStart(2, '0')}${iban.slice(4)}`;

test(
  'a payment with an empty or invalid debtor or creditor IBAN is refused',
  req('payments.initiate.iban'),
  async ({ payments, claimedPayment: c }) => {
    const debtor = (payments.body(c).debtorAccount as Json).iban as string;
    const setDebtor = (v: string) => (b: Json) => ((b.debtorAccount as Json).iban = v);
    const cases: [string, Json][] = [
      ['an empty debtorAccount.iban', bodyWith(payments, c, setDebtor(''))],
      ['a debtorAccount.iban failing its check digits', bodyWith(payments, c, setDebtor(badCheckDigits(debtor)))],
    ];
    const creditor = creditorOf(payments.body(c)).creditorAccount as Json | undefined;
    if (creditor && typeof creditor.iban === 'string') {
      const iban = creditor.iban;
      const set = (v: string) => (b: Json) => ((creditorOf(b).creditorAccount as Json).iban = v);
      cases.push(['an empty creditorAccount.iban', bodyWith(payments, c, set(''))]);
      cases.push([`a creditorAccount.iban failing its check digits`, bodyWith(payments, c, set(badCheckDigits(iban)))]);
    }
    for (const [what, body] of cases) {
      const res = await payments.initiate(c, { body });
      await expect(res, because(`initiate a ${label(c)} payment with ${what}`)).toBeRefused();
    }
  },
);

test(
  'a payment with an empty creditorName is refused',
  req('payments.initiate.creditor-name-empty'),
  async ({ payments, claimedPayment: c }) => {
    const body = bodyWith(payments, c, (b) => (creditorOf(b).creditorName = ''));
    const res = await payments.initiate(c, { body });
    await expect(res, because(`initiate a ${label(c)} payment with creditorName ""`)).toBeRefused();
  },
);

test(
  'initiate payment without Content-Type, or as text/plain, is refused',
  req('payments.initiate.content-type'),
  async ({ payments, claimedPayment: c }) => {
    const raw = JSON.stringify(payments.body(c));
    for (const [what, type] of [
      ['no Content-Type', null],
      ['Content-Type text/plain', 'text/plain'],
    ] as const) {
      const res = await payments.api.post(payments.path(c), {
        raw,
        headers: { ...payments.psuHeaders(), ...payments.productHeaders(c), 'Content-Type': type },
      });
      const id = res.status >= 200 && res.status < 300 ? (res.body as { paymentId?: string })?.paymentId : undefined;
      if (id) payments.created.push(payments.basePath(c, id));
      await expect(res, because(`initiate a ${label(c)} payment (a JSON body) with ${what}`)).toBeRefused();
    }
  },
);

test(
  'initiate payment with a TPP-Redirect-URI that is not a URI is refused',
  req('payments.initiate.redirect-uri-format'),
  async ({ payments, claimedPayment: c }) => {
    const res = await payments.initiate(c, { headers: { 'TPP-Redirect-URI': 'not a uri at all' } });
    await expect(res, because(`initiate a ${label(c)} payment with TPP-Redirect-URI "not a uri at all"`)).toBeRefused();
  },
);

test(
  'another TPP can neither read, cancel nor authorise a payment, and sees none of it',
  req('payments.ownership.other-tpp'),
  async ({ payments, secondTpp, claimedPayment: c }) => {
    const other = secondTpp(payments.api);
    const { basePath } = await payments.initiated(c);
    const before = await payments.transactionStatus(basePath);
    const headers = payments.psuHeaders();
    for (const [what, res] of [
      ['read', await other.get(basePath, { headers })],
      ['status', await other.get(`${basePath}/status`, { headers })],
      ['create authorisation', await other.post(`${basePath}/authorisations`, { headers })],
      ['list authorisations', await other.get(`${basePath}/authorisations`, { headers })],
      ['cancel', await other.delete(basePath, { headers })],
    ] as const) {
      await expect(res, because(`another TPP's ${what} of the ${label(c)} payment`)).toBeRefused();
    }
    expect(
      await payments.transactionStatus(basePath),
      because("the payment after another TPP's calls on it: unchanged"),
    ).toBe(before);
  },
);

test(
  'create authorisation on a rejected or an already accepted payment is refused',
  req('payments.authorisations.final-resource'),
  async ({ payments, claimedPayment: c }) => {
    const settle = { intervals: [500], timeout: settleMs(payments.target.timeouts.scaMs) };
    const accepted = await payments.initiateAuthorised(c);
    expect(accepted.sca.scaStatus, because('the SCA of the reference PSU finalises, or none is needed')).toMatch(
      AUTHORISED_SCA,
    );
    await expect
      .poll(() => payments.transactionStatus(accepted.basePath), {
        ...settle,
        message: because(`the ${label(c)} payment is accepted after its SCA`),
      })
      .toMatch(new RegExp(`^(${ACCEPTED.join('|')})$`));
    const again = await payments.sca.create(accepted.basePath, 'authorisations', payments.psuHeaders());
    await expect(again, because('create authorisation on a payment already accepted')).toBeRefused();

    const failing = payments.profile.sca?.failingPsuId;
    if (!failing) return;
    const psu = { 'PSU-ID': failing };
    const initiated = await payments.initiated(c, { headers: psu });
    // A bank that runs the SCA as it creates the payment has rejected it already (RJCT at once): no
    // SCA to drive. One that needed no SCA for it either (accepted at once) has no failed SCA to
    // show: that half is not judged; the accepted payment's is.
    const told = initiated.res.json<{ transactionStatus?: string }>().transactionStatus;
    const atOnce =
      told === 'RJCT' || ACCEPTED.includes(String(told)) ? await payments.transactionStatus(initiated.basePath) : '';
    if (ACCEPTED.includes(atOnce)) {
      test.info().annotations.push({
        type: NOT_JUDGED_ANNOTATION,
        description: `a rejected payment: the ${label(c)} payment of PSU ${failing} needed no SCA (it reads ${atOnce} at once)`,
      });
      return;
    }
    const rejected = initiated;
    if (atOnce !== 'RJCT') {
      const sca = await payments.authorise(initiated.basePath, { headers: psu });
      expect(sca.scaStatus, because(`the SCA of PSU ${failing} fails`)).toBe('failed');
      await expect
        .poll(() => payments.transactionStatus(rejected.basePath), {
          ...settle,
          message: because(`the ${label(c)} payment is RJCT after a failed SCA`),
        })
        .toBe('RJCT');
    }
    const onRejected = await payments.sca.create(rejected.basePath, 'authorisations', {
      ...payments.psuHeaders(),
      ...psu,
    });
    await expect(onRejected, because('create authorisation on a rejected payment')).toBeRefused();
  },
);

test(
  "another TPP's read, status and cancel of a payment answer 403 or 404 RESOURCE_UNKNOWN",
  req('payments.ownership.other-tpp-code'),
  async ({ payments, secondTpp, claimedPayment: c }) => {
    const other = secondTpp(payments.api);
    const { basePath } = await payments.initiated(c);
    const headers = payments.psuHeaders();
    for (const [what, res] of [
      ['read', await other.get(basePath, { headers })],
      ['status', await other.get(`${basePath}/status`, { headers })],
      ['cancel', await other.delete(basePath, { headers })],
    ] as const) {
      await expect(res, because(`another TPP's ${what} of the ${label(c)} payment`)).toBeTppError(
        [403, 404],
        'RESOURCE_UNKNOWN',
      );
    }
  },
);
