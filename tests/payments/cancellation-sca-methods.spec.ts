import { test as authorisationsTest } from '../../harness/areas/authorisations.js';
import { expectScaMethodsOn } from '../../harness/areas/resource-authorisations.js';
import { req, test as basketsTest } from '../../harness/areas/signing-baskets.js';
import { mergeTests } from '../../harness/test.js';

// A cancellation authorisation created as every new authorisation is (States > Authorisation).

const test = mergeTests(basketsTest, authorisationsTest);

test(
  "a cancellation's new authorisation answers the list of SCA methods",
  req('payments.cancel.authorisation-sca-methods'),
  async ({ authorisations, baskets }) => expectScaMethodsOn({ authorisations, baskets }, 'cancellation'),
);
