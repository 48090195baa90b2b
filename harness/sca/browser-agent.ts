import {
  chromium,
  test,
  type Browser,
  type BrowserContext,
  type Locator,
  type Page,
  type Request,
  type Response,
} from '@playwright/test';
import type { Target } from '../config/target.js';
import { findChromium } from '../config/chromium.js';
import { registerSecret } from '../evidence/redact.js';
import { ApiResponse } from '../http/response.js';
import { fromRedirect, isRedirectUri, type AgentResult, type RedirectAgent } from './psu-agent.js';

type Step = NonNullable<NonNullable<Target['profile']['sca']>['browser']>['approve'][number];

/**
 * One browser per worker, started on first use: the target's chromiumPath (CHROMIUM_PATH), else
 * Debian's chromium, else the npm package's build (config/chromium.ts); never a downloaded one.
 */
let browser: Promise<Browser> | undefined;
const launch = (chromiumPath: string) =>
  (browser ??= findChromium(chromiumPath)
    .launchOptions()
    .then((o) => chromium.launch({ ...o, headless: true })));

const describeStep = (s: Step) =>
  'fill' in s ? `fill ${s.fill} with ${s.from}` : 'click' in s ? `click ${s.click}` : 'wait for the redirect URI';

/** Where the bank sent the browser back to the TPP: the redirect URI's URL and the request that went there. */
interface Returned {
  location?: URL;
  request?: Request;
}

/**
 * A page of `context` whose first request to the redirect URI is recorded into `seen`; the TPP's
 * page is never fetched but answered locally.
 */
async function watchedPage(context: BrowserContext, redirectUri: string, seen: Returned): Promise<Page> {
  await context.route(
    (u) => isRedirectUri(u.toString(), redirectUri),
    (route) => {
      seen.location ??= new URL(route.request().url());
      seen.request ??= route.request();
      return route.fulfill({ status: 200, contentType: 'text/html', body: '<!doctype html><title>TPP</title>' });
    },
  );
  const page = await context.newPage();
  page.on('request', (r) => {
    if (!isRedirectUri(r.url(), redirectUri)) return;
    seen.location ??= new URL(r.url());
    seen.request ??= r;
  });
  return page;
}

/** A browser's answer as the suite's ApiResponse (a GET of `url`, or the request's method), with `text` as its body. */
const answerOf = (status: number, headers: Record<string, string>, text: string, method: string, url: string) =>
  new ApiResponse(status, headers, text, {
    seq: 0,
    method,
    url,
    requestHeaders: {},
    status,
    durationMs: 0,
    startedAt: new Date().toISOString(),
  });

/** The bank's answer that sent the browser back (its request body, which holds the typed values, is left out). */
async function submittedAnswer(returned: Request | undefined) {
  const from = returned?.redirectedFrom();
  const answer: Response | null | undefined = await from?.response();
  if (!from || !answer) return undefined;
  return answerOf(answer.status(), await answer.allHeaders(), '', from.method(), from.url());
}

/** Sets a field's value by the page's DOM (value setter, then input and change events), so no step title names it. */
async function typeSecretly(field: Locator, value: string): Promise<void> {
  await field.evaluate((el, v) => {
    // Runs in the page: the DOM's own input element.
    const input = el as unknown as {
      value: string;
      focus(): void;
      dispatchEvent(e: unknown): boolean;
    };
    input.focus();
    const setter = Object.getOwnPropertyDescriptor(Object.getPrototypeOf(input), 'value')?.set;
    if (setter) setter.call(input, v);
    else input.value = v;
    for (const type of ['input', 'change']) input.dispatchEvent(new Event(type, { bubbles: true }));
  }, value);
}

/**
 * The suite's PSU in a real browser ('browser' agent): opens the authorise URL in Chromium, runs
 * the profile's steps (sca.browser), and reads code, scope and state from the redirect to the
 * TPP's redirect URI, which the browser never leaves for (the TPP's page is answered locally).
 *
 * A typed value (an .env secret) is set in the field by the page's DOM (value setter, then input
 * and change events), not with `locator.fill`, whose step title would name the value; it is
 * registered as a secret and its field masked in every screenshot. One screenshot per step is
 * attached to the test.
 */
export class BrowserAgent implements RedirectAgent {
  constructor(private readonly target: Target) {}

  async decide(authorizeUrl: string, decision: 'approve' | 'deny'): Promise<AgentResult> {
    const steps = this.target.profile.sca?.browser?.[decision];
    test.skip(
      !steps,
      `not claimed: the profile "${this.target.profileName}" gives the browser agent no steps to ${decision} (sca.browser.${decision})`,
    );
    const context = await (await launch(this.target.chromiumPath)).newContext();
    try {
      const seen: Returned = {};
      const page = await watchedPage(context, this.target.redirectUri, seen);
      const opened = await page.goto(authorizeUrl);
      const result: AgentResult = {
        authorizeUrl,
        page: answerOf(
          opened?.status() ?? 0,
          opened?.headers() ?? {},
          (await opened?.text()) ?? '',
          'GET',
          authorizeUrl,
        ),
      };
      await this.runSteps(page, steps ?? [], seen);
      await this.waitForRedirect(seen);
      const submitted = await submittedAnswer(seen.request);
      if (submitted) result.submitted = submitted;
      return {
        ...result,
        ...fromRedirect(seen.location!),
        returnedBy: submitted ? String(submitted.status) : 'a navigation of the page (script, refresh or form)',
      };
    } finally {
      await context.close();
    }
  }

  /**
   * Waits until the bank sends the browser to the redirect URI, else fails naming the wait. A
   * loop, not `expect.poll`, whose message would title every passing wait's step as a failure.
   */
  private async waitForRedirect(seen: Returned): Promise<void> {
    const deadline = Date.now() + this.target.timeouts.scaMs;
    while (!seen.location) {
      if (Date.now() >= deadline)
        throw new Error(
          `the bank did not send the browser to the redirect URI within ${this.target.timeouts.scaMs} ms`,
        );
      await new Promise((resolve) => setTimeout(resolve, 50));
    }
  }

  /** The profile's steps, a screenshot attached after each (typed fields masked until the browser is back). */
  private async runSteps(page: Page, steps: Step[], seen: Returned): Promise<void> {
    const masked: Locator[] = [];
    for (const [i, step] of steps.entries()) {
      if ('fill' in step) {
        const value = this.target.agentValues[step.from];
        registerSecret(value);
        const field = page.locator(step.fill);
        masked.push(field);
        await typeSecretly(field, value);
      } else if ('click' in step) {
        await page.locator(step.click).click();
      } else {
        await this.waitForRedirect(seen);
      }
      // The screenshot is evidence, not the SCA: one Chromium cannot take (the page between two
      // documents after a click that submits, on a loaded machine) is said in its place. Once the
      // bank sent the browser to the TPP's redirect URI, the page is the TPP's (where a redirect is
      // not intercepted, Chromium's "This site can't be reached"): that is said, not pictured.
      const back = seen.location;
      const shot = back
        ? new Error(
            `the bank sent the browser to the TPP's redirect URI (${back.origin}${back.pathname}): the TPP's page, not the bank's`,
          )
        : await page.screenshot({ mask: masked }).catch((err: Error) => err);
      const evidence =
        shot instanceof Error
          ? { body: `no screenshot: ${shot.message.split('\n')[0]}`, contentType: 'text/plain' }
          : { body: shot, contentType: 'image/png' };
      await test.info().attach(`PSU step ${i + 1}: ${describeStep(step)}`, evidence);
    }
  }
}
