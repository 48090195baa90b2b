import { test } from '../../../harness/properties/headers.js';
import { textRules } from '../../../harness/properties/direct-debit-cases.js';
import { CONSENT_OPERATIONS_FROM } from '../../../harness/properties/headers.js';
import { claimedSubjects, robustProperty, type Subject } from '../../../harness/properties/robustness.js';
import { runProperty } from '../../../harness/properties/run.js';
import { req } from '../../../harness/test.js';
import type { Json } from '../../../harness/values/json.js';

// Generated robustness: any input outside what the specification defines, sent to create payment
// (direct debit: texts outside the minimum set in its free texts, near misses of its codes, BICs,
// IBANs and dates, null, other types, unknown properties, duplicate and oversized remittance
// lines; malformed JSON and other content types; header values outside their forms), to get
// payment (malformed and unknown ids) and, from a depth of 100 cases (an SCA of the direct debit
// consent per test), to confirm payment: never a 5xx; a refusal carries the error shape and no
// paymentId; an acceptance answers its schema and its texts read back as sent (or as the profile's
// texts.normalisation declares).
test(
  'generated robustness: any input to create, get and confirm payment (direct debit) is refused with the error shape or taken and read back, never a 5xx',
  req('direct-debit.robustness.any-input'),
  async ({ operations, directDebit, target, depth, exchanges }) => {
    const sample = directDebit.body() as unknown as Json;
    const texts = textRules()
      .map((r) => r.path)
      .filter((p) => typeof p === 'string' && !p.includes('['));
    const subjects = claimedSubjects(target.profile, [
      {
        operation: 'direct-debit.create',
        sample,
        texts,
        whole: true,
        headers: true,
        readBack: (res) => directDebit.get(String((res.body as { paymentId?: unknown }).paymentId)),
      },
      { operation: 'direct-debit.get', id: true },
      ...(depth.cases >= CONSENT_OPERATIONS_FROM
        ? [{ operation: 'direct-debit.confirm', sample: { paymentIds: ['a-payment'] }, sweep: true, whole: true }]
        : []),
    ] satisfies Subject[]);
    await runProperty({
      name: 'any input to create, get and confirm payment (direct debit) is refused with the error shape or taken and read back, never a 5xx',
      requirement: 'direct-debit.robustness.any-input',
      ...robustProperty(operations, target.profile, subjects, depth.cases),
      exchanges,
      depth,
    });
  },
);
