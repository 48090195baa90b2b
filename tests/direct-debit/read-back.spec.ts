import { because, DUTCH_BANKS, expect, req, test, type DirectDebitAddress } from '../../harness/areas/direct-debit.js';

// Get payment "repeats these fields" (SEPA direct debit payment): the parties' addresses and agents
// come back with the values and the types they were sent with. One test per requirement, each a
// create and a read.

const typeOf = (v: unknown) => (v === null ? 'null' : Array.isArray(v) ? 'array' : typeof v);

/** Each field of the address sent, read back at `$.<name>.<field>` with the same value. */
function expectSameAddress(name: string, got: unknown, sent: DirectDebitAddress): void {
  expect(typeOf(got), because(`$.${name} read back as an object, as sent; got ${JSON.stringify(got)}`)).toBe('object');
  const read = got as Record<string, unknown>;
  for (const [field, value] of Object.entries(sent)) {
    expect.soft(read[field], because(`$.${name}.${field} read back as sent (${JSON.stringify(value)})`)).toBe(value);
  }
}

const collapse = (s: string) => s.replace(/\s+/g, ' ').trim().toLowerCase();

test(
  'creditorAddress is read back as an object with the values sent',
  req('direct-debit.read-back.creditor-address'),
  async ({ directDebit }) => {
    const { body, read } = await directDebit.createAndRead();
    expectSameAddress('creditorAddress', read.creditorAddress, body.creditorAddress as DirectDebitAddress);
  },
);

test(
  'creditorAgentName is read back as the string sent',
  req('direct-debit.read-back.creditor-agent-name'),
  async ({ directDebit }) => {
    const bank = DUTCH_BANKS.find((b) => b.bic === directDebit.creditor.bic);
    const sent = bank?.name ?? 'Creditor Bank N.V.';
    const { read } = await directDebit.createAndRead({ creditorAgentName: sent });
    expect(read.creditorAgentName, because(`$.creditorAgentName read back as the string sent`)).toBe(sent);
  },
);

test(
  'debtorAgent is read back as the BIC sent',
  req('direct-debit.read-back.debtor-agent'),
  async ({ directDebit }) => {
    const { body, read } = await directDebit.createAndRead();
    expect(read.debtorAgent, because(`$.debtorAgent read back as the BIC sent (${body.debtorAgent})`)).toBe(
      body.debtorAgent,
    );
  },
);

test(
  'debtorAgentName is read back as the string sent',
  req('direct-debit.read-back.debtor-agent-name'),
  async ({ directDebit }) => {
    const { body, read } = await directDebit.createAndRead();
    expect(read.debtorAgentName, because(`$.debtorAgentName read back as the string sent`)).toBe(body.debtorAgentName);
  },
);

test(
  'debtorAddress is read back as the object sent, or as one string carrying each of its values',
  req('direct-debit.read-back.debtor-address'),
  async ({ directDebit }) => {
    const { body, read } = await directDebit.createAndRead();
    const sent = body.debtorAddress as DirectDebitAddress;
    const got = read.debtorAddress;
    // The row allows both: "The field table types it as string, the example as object".
    if (typeof got === 'string') {
      expect(got.trim(), because('$.debtorAddress read back as a string (the field table) is not empty')).not.toBe('');
      for (const [field, value] of Object.entries(sent)) {
        expect
          .soft(
            collapse(got).includes(collapse(String(value))),
            because(
              `$.debtorAddress read back as a string carries ${field} ${JSON.stringify(value)}; got ${JSON.stringify(got)}`,
            ),
          )
          .toBe(true);
      }
    } else {
      expect(
        typeOf(got),
        because(
          `$.debtorAddress read back as an object (the example) or a string (the field table); got ${JSON.stringify(got)}`,
        ),
      ).toBe('object');
      expectSameAddress('debtorAddress', got, sent);
    }
  },
);
