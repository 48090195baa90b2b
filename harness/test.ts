import { test as base } from '@playwright/test';
import { BROWSERLESS } from './playwright-internals/browserless.js';
import { keepWorker } from './playwright-internals/kept-worker.js';
import { loadCatalogue } from './catalogue/catalogue.js';
import { firstClaimed, type Combination } from './areas/payment-combinations.js';
import { withOptionFeatures, type Profile, type ProfileClaims } from './config/profile.js';
import { resolveTarget, secretsOf, type Target } from './config/target.js';
import { exchangeTitle, formatExchange } from './evidence/format.js';
import { registerSecret } from './evidence/redact.js';
import { ApiClient } from './http/client.js';
import type { Exchange } from './http/response.js';
import { perProofEntry, proofEntryOf, type TestProofEntry } from './proof.js';
import { dependsOnControl, useRefusalLedger } from './expect.js';
import { acceptedKind, requestKind } from './operations/controls.js';
import {
  ACCEPTED_ANNOTATION,
  CONTROL_ANNOTATION,
  REFUSED_KIND_ANNOTATION,
  REQUIREMENT_ANNOTATION,
} from './catalogue/req.js';
import { asSecondTpp, NO_SECOND_TPP } from './auth/second-tpp.js';
import { oneTokenUnjudged, SCOPE_CHECKS, TokenCache } from './auth/tokens.js';
import { internal } from './config/user-settings.mjs';

export { because, dependsOnControl, expect } from './expect.js';
export { req } from './catalogue/req.js';
export { mergeTests } from './proof.js';

export interface BaseWorkerFixtures {
  /** The target as the settings and the profile give it, once per worker. */
  _workerTarget: Target;
  tokenCache: TokenCache;
}

export interface BaseTestFixtures {
  /** The target; its profile with the running proof case's claims over it, if any. */
  target: Target;
  /** Every exchange of the running test, in order (attached, redacted, when it ends). */
  exchanges: Exchange[];
  /** A client with no defaults: areas derive theirs with `api.with({...})`. */
  api: ApiClient;
  /**
   * The self-proof's entry this test was declared for (harness/proof.ts; none outside the
   * self-proof): its header goes on every call (the self-proof's front picks the entry's sandbox by
   * it), its claims over the profile, and its `expectFailing`, the requirements whose checks must
   * fail here (the fault matrix names those its fault breaks). Their tests are marked `test.fail()`:
   * the verdicts do not change, but an expected failure keeps the worker, where Playwright starts a
   * new one after every unexpected failure.
   */
  proofEntry: TestProofEntry | undefined;
  /**
   * The test as the second TPP application of the settings: `secondTpp(api)` is `api` calling with
   * that application's tokens. A test that asks for it is skipped before its body, saying why,
   * when the settings name no second application.
   */
  secondTpp: (api: ApiClient) => ApiClient;
  /** The PSU whose SCA fails (the profile's sca.failingPsuId); without one the test is skipped before its body. */
  failingPsu: string;
  /**
   * The payment kind of a check that needs one payment of any kind: the first service × product
   * the profile claims. Without one the test is skipped before its body, as not claimed.
   */
  claimedPayment: Combination;
  _keepWorker: void;
  _evidence: void;
  _claims: void;
  _controls: void;
}

/**
 * A fixture that makes no step of its own (Playwright's `box: 'self'`). A fixture's step costs
 * its worker a stack trace and two messages at setup and two at teardown, and the run a node in
 * every report, for each fixture of each test: most of a test's CPU in the harness. What the
 * fixture does (its calls, the evidence) still shows, under the test's Before and After Hooks.
 */
export const boxed = <T>(fixture: T): [T, { box: 'self' }] => [fixture, { box: 'self' }];

/** Why a check that drives a failing SCA is skipped when the profile names no failing PSU. */
export const FAILING_PSU_MISSING =
  'not claimed: the profile names no failing PSU (sca.failingPsuId) to drive a failing SCA';

/** Why a check that needs a payment of any kind is skipped when the profile claims no service × product. */
export const noClaimedPayment = (profileName: string) =>
  `not claimed: the profile "${profileName}" claims no payment service and product`;

/** Checks of a token's scope or PSU context, which ACCESS_TOKEN (one token for every scope) cannot show without per-scope tokens. */
export const ONE_TOKEN_UNJUDGED = Object.keys(SCOPE_CHECKS);

/**
 * The base of every area's fixtures: the target, tokens, the recording client, the evidence
 * attached to each test, and the skip of requirements the profile does not claim.
 */
export const test = perProofEntry(
  base.extend<BaseTestFixtures, BaseWorkerFixtures>({
    _workerTarget: [
      async ({}, use) => {
        const target = resolveTarget();
        for (const s of secretsOf(target)) registerSecret(s);
        await use(target);
      },
      { scope: 'worker', box: 'self' },
    ],
    tokenCache: [
      async ({ _workerTarget }, use) => {
        await use(new TokenCache(_workerTarget));
      },
      { scope: 'worker', box: 'self' },
    ],
    // Every fixture of the harness is boxed (see `boxed` above) but `_claims` (outside the self-proof's
    // runs, which have no Allure reporter): its step stays, so that
    // the Before and After Hooks of every test hold a step, as Allure's reporter needs (a hook
    // without one that ends in an error, such as the skip of a claim not made, becomes a global
    // error of the run).
    // First of the automatic fixtures, so torn down last: it sees every error of the test.
    _keepWorker: [
      async ({}, use, testInfo) => {
        await use();
        // A failure keeps its worker; the run's first reporter makes it a failure again
        // (harness/playwright-internals/kept-worker.ts).
        keepWorker(testInfo);
      },
      { auto: true, box: 'self' },
    ],
    // Playwright's two automatic browser fixtures, replaced (harness/playwright-internals/browserless.ts): the suite
    // opens no page through them (the browser agent launches its own Chromium).
    ...({
      ...BROWSERLESS,
      // The one option the suite's client reads (the configs set it), without a step.
      extraHTTPHeaders: [undefined, { option: true, box: 'self' }],
    } as object),
    proofEntry: boxed(async ({}, use, testInfo) => {
      await use(proofEntryOf(testInfo.annotations));
    }),
    target: boxed(async ({ _workerTarget, proofEntry }, use) => {
      const profileClaims = proofEntry?.entry.claims as ProfileClaims | undefined;
      if (!profileClaims) return use(_workerTarget);
      const profile: Record<string, unknown> = { ..._workerTarget.profile };
      for (const [key, value] of Object.entries(profileClaims)) {
        const mine = profile[key];
        // Features add to the target's; an options section merges over the target's; anything else replaces.
        profile[key] =
          key === 'features' && Array.isArray(value) && Array.isArray(mine)
            ? [...new Set([...(mine as string[]), ...(value as string[])])]
            : value && typeof value === 'object' && !Array.isArray(value) && mine && typeof mine === 'object'
              ? { ...mine, ...value }
              : value;
      }
      await use({ ..._workerTarget, profile: withOptionFeatures(profile as Profile) });
    }),
    exchanges: boxed(async ({}, use) => {
      await use([]);
    }),
    api: boxed(async ({ target, exchanges, tokenCache, extraHTTPHeaders, proofEntry }, use) => {
      const record = (e: Exchange) => {
        e.seq = exchanges.length + 1;
        exchanges.push(e);
      };
      // Playwright's `extraHTTPHeaders` option goes on every call of the suite's own client too.
      // The self-proof's entry header beside it: the front routes by it (harness/proof.ts).
      const headers = proofEntry ? { ...extraHTTPHeaders, [proofEntry.header]: proofEntry.entry.id } : extraHTTPHeaders;
      await use(new ApiClient(target, record, (scope) => tokenCache.get(scope, record), { headers }));
    }),
    _evidence: [
      async ({ exchanges }, use, testInfo) => {
        await use();
        // The self-proof judges verdicts only: it records no evidence (formatting and redacting
        // every exchange is most of a test's CPU there).
        if (internal('evidence') === 'off') return;
        // Attached to the test itself (pushed, not `attach`ed): an `attach` makes a step with its
        // stack trace and two more messages for each exchange; the attachment is the same.
        for (const e of exchanges) {
          testInfo.attachments.push({
            name: exchangeTitle(e),
            body: Buffer.from(formatExchange(e)),
            contentType: 'text/plain',
          });
        }
      },
      { auto: true, box: 'self' },
    ],
    // The positive controls of the test's refusals (harness/expect.ts, RefusalLedger), and the kinds of
    // request the test saw accepted, which control the refusals of every test of the run.
    _controls: [
      async ({ target, exchanges }, use, testInfo) => {
        const refused = new Map<Exchange, boolean>();
        useRefusalLedger({ refused });
        try {
          await use();
        } finally {
          useRefusalLedger(undefined);
        }
        // The kinds of request the test saw accepted: its refused requests aside (one accepted is no control of itself).
        const accepted = new Set(
          exchanges.filter((e) => !refused.has(e)).flatMap((e) => acceptedKind(target, e) ?? []),
        );
        for (const key of accepted) testInfo.annotations.push({ type: ACCEPTED_ANNOTATION, description: key });
        if (refused.size === 0) return;
        // A test that names its own control (controlledBy, dependsOnControl) depends on that one only.
        if (testInfo.annotations.some((a) => a.type === CONTROL_ANNOTATION)) return;
        // A test that failed on something else than its refusals (more failures than refusals that did
        // not hold): that failure is the test's own, and no control takes it away.
        const failedRefusals = [...refused.values()].filter((held) => !held).length;
        if (testInfo.errors.length > failedRefusals) return;
        const named = testInfo.annotations.filter((a) => a.type === REQUIREMENT_ANNOTATION).map((a) => a.description);
        const needed = new Set<string>();
        // A test that failed is failed by its refusals that did not hold: those alone need their control
        // (a counterexample on one operation stands, whatever a refusal that held elsewhere proves).
        const judging = testInfo.errors.length ? [...refused].filter(([, held]) => !held) : [...refused];
        for (const [e] of judging) {
          const kind = requestKind(target, e);
          // Accepted in this very test: no other control needed.
          if (!kind || accepted.has(kind.key)) continue;
          // Else a call of its kind accepted anywhere in the run controls it (the fold looks), or its control's verdict.
          if (!needed.has(kind.key))
            testInfo.annotations.push({ type: REFUSED_KIND_ANNOTATION, description: kind.key });
          needed.add(kind.key);
          // The test judges the valid call itself: that control is its own verdict.
          for (const control of kind.controls.filter((c) => !named.includes(c))) dependsOnControl(control);
        }
      },
      { auto: true, box: 'self' },
    ],
    secondTpp: boxed(async ({ target }, use, testInfo) => {
      testInfo.skip(!target.secondClient, NO_SECOND_TPP);
      await use((api: ApiClient) => asSecondTpp(api)!);
    }),
    failingPsu: boxed(async ({ target }, use, testInfo) => {
      const id = target.profile.sca?.failingPsuId;
      testInfo.skip(!id, FAILING_PSU_MISSING);
      await use(id!);
    }),
    claimedPayment: boxed(async ({ target }, use, testInfo) => {
      const c = firstClaimed(target);
      testInfo.skip(!c, noClaimedPayment(target.profileName));
      await use(c!);
    }),
    _claims: [
      async ({ target, proofEntry }, use, testInfo) => {
        const catalogue = loadCatalogue();
        const named = testInfo.annotations
          .filter((a) => a.type === REQUIREMENT_ANNOTATION)
          .map((a) => a.description ?? '');
        const failing = named.filter((id) => proofEntry?.entry.expectFailing.includes(id));
        testInfo.fail(failing.length > 0, `expected to fail here: ${failing.join(', ')}`);
        // Not claimed first: a check of an area the profile does not claim reads "not claimed",
        // whatever else would keep it from being judged.
        const claimed = new Set(target.profile.features);
        const missing = named.flatMap((id) => catalogue.byId.get(id)?.features ?? []).filter((f) => !claimed.has(f));
        testInfo.skip(
          missing.length > 0,
          `not claimed: the profile "${target.profileName}" does not claim ${[...new Set(missing)].join(', ')}${
            missing.includes('authentication') ? ' (authentication "none": the bank takes no authentication)' : ''
          }`,
        );
        // ACCESS_TOKEN alone: the same token for every scope and context, so a check that a token
        // of one scope or context is refused elsewhere cannot be judged, unless each scope it
        // sends has a token of its own (ACCESS_TOKEN_<API SCOPE>_<CONTEXT>).
        const oneToken = oneTokenUnjudged(target, named);
        testInfo.skip(
          oneToken.ids.length > 0,
          `not judged: one token for every scope (ACCESS_TOKEN): ${oneToken.ids.join(', ')}; to judge, give ${oneToken.keys.join(', ')}`,
        );
        await use();
      },
      // Its step only where Allure's reporter reads the hooks: the self-proof's runs (no evidence)
      // have no Allure reporter, and the step cost each of their tests two more captured stacks
      // and four more messages to the runner.
      { auto: true, ...(internal('evidence') === 'off' ? { box: 'self' as const } : {}) },
    ],
  }),
);

/**
 * Nothing passes on nothing. A check whose set turned out empty (no SCA method offered, no entry,
 * an answer with no body to read) ends here: skipped as "not judged", with the reason, never
 * passed. A return from a test body that judged nothing before it is refused by the lint
 * (selftest/unit/vacuous.spec.ts).
 */
export function notJudged(why: string): never {
  base.skip(true, `not judged: ${why}`);
  // base.skip(true, …) throws; this line is never reached.
  throw new Error(`not judged: ${why}`);
}
