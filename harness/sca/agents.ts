import type { ApiClient } from '../http/client.js';
import { BrowserAgent } from './browser-agent.js';
import { ManualAgent } from './manual-agent.js';
import { PsuAgent, type RedirectAgent } from './psu-agent.js';

/**
 * The PSU agent the profile chooses (sca.psuAgent): 'form' (default) over HTTP with `browserApi`
 * (a client that sends no Authorization header), 'browser' in Chromium, 'manual' by a person.
 */
export function psuAgentFor(browserApi: ApiClient): RedirectAgent {
  switch (browserApi.target.profile.sca?.psuAgent) {
    case 'browser':
      return new BrowserAgent(browserApi.target);
    case 'manual':
      return new ManualAgent(browserApi.target);
    default:
      return new PsuAgent(browserApi);
  }
}
