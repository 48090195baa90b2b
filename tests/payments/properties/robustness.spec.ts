import { forEachCombination } from '../../../harness/areas/payments.js';
import { test } from '../../../harness/properties/headers.js';
import { textFields } from '../../../harness/properties/payments-cases.js';
import { claimedSubjects, robustProperty, type Subject } from '../../../harness/properties/robustness.js';
import { runProperty } from '../../../harness/properties/run.js';
import { req } from '../../../harness/test.js';
import type { Json } from '../../../harness/values/json.js';

const PSU_DATA = {
  sample: { psuData: { password: 'sandbox' } },
  fixed: true,
  whole: true,
  response: 'authorisations/update-psu-data-decoupled',
} satisfies Partial<Subject>;

// Generated robustness: any input outside what the specification defines, sent to initiate payment
// of each claimed service × product (texts outside the minimum set in its free texts, near misses
// of its other strings, null, other types, unknown properties, duplicate and oversized lists;
// malformed JSON and other content types; header values outside their forms) and to read payment,
// its status, its authorisations and its cancellation (malformed and unknown ids), and to update PSU
// data of its authorisation and its cancellation's (a psuData body changed the same ways): never a 5xx; a refusal carries the error shape and no
// paymentId; an acceptance answers its schema and its texts read back as sent (or as the profile's
// texts.normalisation declares). Each class of text is tried first in every free text at once.
forEachCombination((c) => {
  test(
    'generated robustness: any input to initiate, read, status, authorisations and cancel is refused with the error shape or taken and read back, never a 5xx',
    req('payments.robustness.any-input'),
    async ({ operations, payments, target, depth, exchanges }) => {
      const sample = payments.body(c) as Json;
      const subjects = claimedSubjects(target.profile, [
        {
          operation: 'payments.initiate',
          combination: c,
          sample,
          texts: textFields(c, target.profile, sample).map((f) => f.path),
          whole: true,
          headers: true,
          // FX-Quote-Id, "used for international-tp payments": values outside the configured quote.
          ...(c.product === 'international-tp' ? { extraHeaders: ['FX-Quote-Id'] } : {}),
          readBack: (res) =>
            payments.read(payments.basePath(c, String((res.body as { paymentId?: unknown }).paymentId))),
        },
        { operation: 'payments.read', combination: c, id: true },
        { operation: 'payments.status', combination: c, id: true },
        { operation: 'payments.authorisations.list', combination: c, id: true },
        // The start's psuData (the operations table's reading of its body): a refused start creates no authorisation.
        {
          operation: 'payments.authorisations.start',
          combination: c,
          sample: { psuData: { password: 'sandbox' } },
          fixed: true,
          whole: true,
        },
        // Update PSU data with a psuData body (no method) on a received authorisation, of the payment
        // and of its cancellation: taken, it is the decoupled answer (section F; "empty-object body
        // shown; decoupled response"); refused, the authorisation's scaStatus is as it was.
        ...(['payments.authorisations.update', 'payments.cancellation-authorisations.update'] as const).map(
          (operation): Subject => ({ operation, combination: c, ...PSU_DATA }),
        ),
        // A refused cancellation of another id leaves the payment's status as it was.
        { operation: 'payments.cancel', combination: c, id: true },
      ] satisfies Subject[]);
      await runProperty({
        name: `any input to ${c.service}/${c.product} is refused with the error shape or taken and read back, never a 5xx`,
        requirement: 'payments.robustness.any-input',
        ...robustProperty(operations, target.profile, subjects, depth.perCombination),
        exchanges,
        depth,
      });
    },
  );
});
