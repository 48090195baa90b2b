import { test as consentsTest } from '../../harness/areas/consents.js';
import { test as directoryTest } from '../../harness/areas/directory.js';
import { because, expect, firstClaimed, label, req, test as paymentsTest } from '../../harness/areas/payments.js';
import { block, requireSuccess } from '../../harness/http/broken.js';
import type { ApiResponse } from '../../harness/http/response.js';
import { mergeTests } from '../../harness/test.js';
import { declinedBy, describeDecline, MAY_DECLINE } from '../../harness/areas/value-spaces.js';

// X-AffiliatedASPSP-ID (Common request headers: "ID of an affiliated bank related to X-BicFi; on
// create consent and initiate payment"): the id of a bank the directory lists as affiliated to the
// target's own bank is taken on both operations.

const test = mergeTests(paymentsTest, consentsTest, directoryTest);

/** The ids of the banks the directory lists as affiliated to X-BicFi's bank (ASPSP detail, affiliatedAspsps). */
async function affiliatedIds(directory: { bank(bicFi: string): Promise<ApiResponse> }, bicFi: string) {
  const res = await directory.bank(bicFi);
  // A directory that lists other banks than X-BicFi's names no bank affiliated to it: nothing to judge.
  test.skip(
    res.status === 404,
    `not judged: the directory lists no bank ${bicFi} (X-BicFi), so no bank affiliated to it`,
  );
  requireSuccess(res, 'directory.aspsp.detail-shape', `read the bank ${bicFi} in the directory`);
  const list = res.json<{ affiliatedAspsps?: { id?: unknown }[] }>().affiliatedAspsps ?? [];
  return list.map((a) => a.id).filter((id): id is string => typeof id === 'string' && id.length > 0);
}

/**
 * The answer to `send` with the affiliated bank's id must be a success; when it is not, the same
 * request without the header (its control) says whether the header is the cause: a control that
 * fails too blocks the check, naming the requirement of the plain request.
 */
async function judgeAccepted(
  what: string,
  send: (headers: Record<string, string>) => Promise<ApiResponse>,
  id: string,
  control: string,
  member: string,
): Promise<void> {
  const res = await send({ 'X-AffiliatedASPSP-ID': id });
  if (res.status >= 200 && res.status < 300) return;
  const plain = await send({});
  if (plain.status < 200 || plain.status >= 300)
    block(control, `${what} without X-AffiliatedASPSP-ID (the control)`, `expected a 2xx; got ${plain.describe()}`);
  // The header names an affiliate; the affiliate need not hold X-BicFi's PSU or debtor account: a
  // refusal of those (RESOURCE_UNKNOWN, PSU_CREDENTIALS_INVALID), not naming the header, is declined.
  const declined = declinedBy(res, [MAY_DECLINE.affiliatePsu], member);
  if (declined && !JSON.stringify(res.body ?? '').includes('AffiliatedASPSP')) {
    test.info().annotations.push({ type: 'declined', description: describeDecline(declined) });
    return;
  }
  expect
    .soft(
      res,
      because(
        `${what} with X-AffiliatedASPSP-ID ${id}, an affiliated bank of X-BicFi, is accepted as it is without the header`,
      ),
    )
    .toSucceed();
}

test(
  'create consent and initiate payment take X-AffiliatedASPSP-ID naming a bank affiliated to X-BicFi',
  req('headers.affiliated-aspsp-id.accepted'),
  async ({ consents, payments, directory, target }) => {
    test.skip(
      !target.profile.features.includes('directory'),
      'not judged: the profile claims no directory, where the banks affiliated to X-BicFi are listed',
    );
    const ids = await affiliatedIds(directory, target.bicFi);
    test.skip(!ids.length, `not judged: the directory lists no bank affiliated to ${target.bicFi} (affiliatedAspsps)`);
    const [id] = ids;
    await judgeAccepted(
      'create consent',
      (headers) => consents.create({ headers }),
      id,
      'consents.create.response',
      'consentId',
    );
    const c = firstClaimed(target);
    if (c)
      await judgeAccepted(
        `initiate a ${label(c)} payment`,
        (headers) => payments.initiate(c, { headers }),
        id,
        'payments.initiate.response',
        'paymentId',
      );
  },
);
