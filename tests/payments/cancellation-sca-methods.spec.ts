import { test as authorisationsTest } from '../../harness/areas/authorisations.js';
import { claimedResources, makeOn } from '../../harness/areas/resource-authorisations.js';
import { because, expect, req, test as basketsTest } from '../../harness/areas/signing-baskets.js';
import { prerequisite } from '../../harness/http/broken.js';
import { mergeTests } from '../../harness/test.js';

// A cancellation authorisation created as every new authorisation is (States > Authorisation).

const test = mergeTests(basketsTest, authorisationsTest);

test(
  "a cancellation's new authorisation answers the list of SCA methods",
  req('payments.cancel.authorisation-sca-methods'),
  async ({ authorisations, baskets }) => {
    claimedResources({ authorisations, baskets }, ['cancellation']);
    const made = await makeOn({ authorisations, baskets }, 'cancellation');
    await prerequisite('payments.cancel.authorisations', `create the ${made.what}`, async () =>
      expect(made.created).toSucceed(),
    );
    const methods = made.created.json<{ scaMethods?: unknown }>().scaMethods;
    expect(
      Array.isArray(methods) &&
        methods.length > 0 &&
        methods.every((m) => typeof (m as { authenticationMethodId?: unknown })?.authenticationMethodId === 'string'),
      because(
        `${made.what}: "authorisationId and the list of SCA methods are returned" (States > Authorisation); scaMethods: ${JSON.stringify(methods)}`,
      ),
    ).toBe(true);
  },
);
