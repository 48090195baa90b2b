import { test } from '../../../harness/properties/headers.js';
import { claimedSubjects, robustProperty, type Subject } from '../../../harness/properties/robustness.js';
import { runProperty } from '../../../harness/properties/run.js';
import { req } from '../../../harness/test.js';

// Generated robustness: the directory's lists with their filters outside their forms
// (isoCountryCodes, cityIds and an unknown one: a text outside the set, a near miss of a valid
// value, a value of another parameter's form, a parameter repeated) and its details with
// malformed and unknown BICs, city ids and country codes: never a 5xx; a refusal carries the error
// shape; an acceptance answers its schema. Each filter of each list is tried first alone with a
// value outside its form.
const CITY = '8f0c5d1e-3b7a-4c2e-9d6f-1a2b3c4d5e6f';

test(
  'generated robustness: any filter and id of the directory is refused with the error shape or taken, never a 5xx',
  req('directory.robustness.any-input'),
  async ({ operations, target, depth, exchanges }) => {
    const subjects = claimedSubjects(target.profile, [
      { operation: 'directory.list-banks', query: { isoCountryCodes: 'SE', cityIds: CITY } },
      { operation: 'directory.bank', id: true },
      { operation: 'directory.list-cities', query: { isoCountryCodes: 'SE', cityIds: CITY } },
      { operation: 'directory.city', id: true },
      { operation: 'directory.list-countries', query: { isoCountryCodes: 'SE' } },
      { operation: 'directory.country', id: true },
    ] satisfies Subject[]);
    await runProperty({
      name: 'any filter and id of the directory is refused with the error shape or taken, never a 5xx',
      requirement: 'directory.robustness.any-input',
      ...robustProperty(operations, target.profile, subjects, depth.cases),
      exchanges,
      depth,
    });
  },
);
