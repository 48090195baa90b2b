import { chromium, test, type Browser, type Locator, type Request } from '@playwright/test';
import type { Target } from '../config/target.js';
import { agentValue, DEFAULT_CHROMIUM } from '../config/settings.js';
import { registerSecret } from '../evidence/redact.js';
import { ApiResponse } from '../http/response.js';
import { fromRedirect, isRedirectUri, type AgentResult, type RedirectAgent } from './psu-agent.js';

type Step = NonNullable<NonNullable<Target['profile']['sca']>['browser']>['approve'][number];

/** One browser per worker, started on first use (Debian's chromium; never a downloaded one). */
let browser: Promise<Browser> | undefined;
const launch = () =>
  (browser ??= chromium.launch({ executablePath: process.env.CHROMIUM_PATH || DEFAULT_CHROMIUM, headless: true }));

const describeStep = (s: Step) =>
  'fill' in s ? `fill ${s.fill} with ${s.from}` : 'click' in s ? `click ${s.click}` : 'wait for the redirect URI';

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
    const context = await (await launch()).newContext();
    try {
      let location: URL | undefined;
      let returned: Request | undefined;
      const redirectUri = this.target.redirectUri;
      // The TPP's page is never fetched: the bank's redirect is recorded and answered locally.
      await context.route(
        (u) => isRedirectUri(u.toString(), redirectUri),
        (route) => {
          location ??= new URL(route.request().url());
          returned ??= route.request();
          return route.fulfill({ status: 200, contentType: 'text/html', body: '<!doctype html><title>TPP</title>' });
        },
      );
      const page = await context.newPage();
      page.on('request', (r) => {
        if (!isRedirectUri(r.url(), redirectUri)) return;
        location ??= new URL(r.url());
        returned ??= r;
      });
      const opened = await page.goto(authorizeUrl);
      const result: AgentResult = {
        authorizeUrl,
        page: new ApiResponse(opened?.status() ?? 0, opened?.headers() ?? {}, (await opened?.text()) ?? '', {
          seq: 0,
          method: 'GET',
          url: authorizeUrl,
          requestHeaders: {},
          status: opened?.status(),
          durationMs: 0,
          startedAt: new Date().toISOString(),
        }),
      };
      const masked: Locator[] = [];
      const waitForRedirect = () =>
        test.expect
          .poll(() => location?.toString() ?? '', {
            timeout: this.target.timeouts.scaMs,
            message: `the bank did not send the browser to the redirect URI within ${this.target.timeouts.scaMs} ms`,
          })
          .not.toBe('');
      for (const [i, step] of (steps ?? []).entries()) {
        if ('fill' in step) {
          const value = agentValue(step.from);
          registerSecret(value);
          const field = page.locator(step.fill);
          masked.push(field);
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
        } else if ('click' in step) {
          await page.locator(step.click).click();
        } else {
          await waitForRedirect();
        }
        await test.info().attach(`PSU step ${i + 1}: ${describeStep(step)}`, {
          body: await page.screenshot({ mask: location ? [] : masked }),
          contentType: 'image/png',
        });
      }
      await waitForRedirect();
      // The bank's answer that sent the browser back (its request body, which holds the typed values, is left out).
      const from = returned?.redirectedFrom();
      const answer = await from?.response();
      if (from && answer)
        result.submitted = new ApiResponse(answer.status(), await answer.allHeaders(), '', {
          seq: 0,
          method: from.method(),
          url: from.url(),
          requestHeaders: {},
          status: answer.status(),
          durationMs: 0,
          startedAt: new Date().toISOString(),
        });
      return {
        ...result,
        ...fromRedirect(location!),
        returnedBy: from && answer ? String(answer.status()) : 'a navigation of the page (script, refresh or form)',
      };
    } finally {
      await context.close();
    }
  }
}
