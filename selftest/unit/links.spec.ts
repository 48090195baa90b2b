import { expect } from '@playwright/test';
import { test } from '../support/test.js';
import { loadProfile } from '../../harness/config/profile.js';
import { resolveLink } from '../../harness/http/links.js';

const profile = loadProfile('reference');
const target = { baseUrl: 'https://api.bank.example', profile };

test('short /v1 links map onto the profile path whose tail they match', () => {
  expect(resolveLink(target, '/v1/accounts/abc/balances')).toBe(
    'https://api.bank.example/psd2/accountinformation/v1/accounts/abc/balances',
  );
  expect(resolveLink(target, '/v1/consents/c1/status')).toBe(
    'https://api.bank.example/psd2/consent/v1/consents/c1/status',
  );
  expect(resolveLink(target, '/v1/signing-baskets/b1')).toBe(
    'https://api.bank.example/psd2/paymentinitiation/v1/signing-baskets/b1',
  );
  expect(resolveLink(target, '/v1/payments/sepa-credit-transfers/p1')).toBe(
    'https://api.bank.example/psd2/paymentinitiation/v1/payments/sepa-credit-transfers/p1',
  );
});

test('long links, relative paths and absolute URLs resolve against the base', () => {
  expect(resolveLink(target, '/psd2/consent/v1/consents/c1')).toBe(
    'https://api.bank.example/psd2/consent/v1/consents/c1',
  );
  expect(resolveLink(target, 'psd2/consent/v1/consents/c1')).toBe(
    'https://api.bank.example/psd2/consent/v1/consents/c1',
  );
  expect(resolveLink(target, 'https://other.example/x')).toBe('https://other.example/x');
  expect(resolveLink(target, '/iso/payments/p9')).toBe('https://api.bank.example/iso/payments/p9');
});

test('a base URL with a path prefix is kept, and not doubled', () => {
  const prefixed = { baseUrl: 'https://gw.example/api', profile };
  expect(resolveLink(prefixed, '/v1/accounts')).toBe('https://gw.example/api/psd2/accountinformation/v1/accounts');
  expect(resolveLink(prefixed, '/api/psd2/consent/v1/consents')).toBe(
    'https://gw.example/api/psd2/consent/v1/consents',
  );
});
