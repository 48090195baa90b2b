import { expect } from '@playwright/test';
import { TERMINAL_SCA, type PollRecord, type ScaDriver } from './driver.js';
import type { HeaderSpec } from '../http/client.js';

/** The animated QR token is valid for one second (Limits: QR code validity). */
export const QR_VALIDITY_MS = 1000;
/**
 * A token's lifetime is measured as a lower bound: from the answer that first showed it to the
 * sending of the last request that still showed it. Network latency can only shorten that
 * bound, never lengthen it, so no latency allowance is needed; the margin only absorbs the
 * client's timer granularity.
 */
export const QR_MARGIN_MS = 50;

export interface TokenSpan {
  token: string;
  firstPoll: number;
  lastPoll: number;
  /** Lower bound of how long the target served it: sentAt(last sighting) − answeredAt(first sighting). */
  livedAtLeastMs: number;
}

export interface QrTimeline {
  polls: PollRecord[];
  status: string;
  ended: boolean;
  spans: TokenSpan[];
  /** Spans that outlived the token's second. */
  stale: TokenSpan[];
}

const short = (token: string | undefined) => (token ? `…${token.slice(-8)}` : '(none)');

/** Groups consecutive polls that showed the same token. */
export function tokenSpans(polls: PollRecord[]): TokenSpan[] {
  const spans: TokenSpan[] = [];
  polls.forEach((p, i) => {
    if (!p.token) return;
    const last = spans[spans.length - 1];
    if (last && last.token === p.token && last.lastPoll === i - 1) {
      last.lastPoll = i;
      last.livedAtLeastMs = p.sentAt - polls[last.firstPoll].answeredAt;
    } else {
      spans.push({ token: p.token, firstPoll: i, lastPoll: i, livedAtLeastMs: 0 });
    }
  });
  return spans;
}

/** The timeline as text, for failure messages. */
export function timelineText(polls: PollRecord[]): string {
  const t0 = polls[0]?.sentAt ?? 0;
  return polls
    .map(
      (p, i) =>
        `  #${i + 1} sent +${p.sentAt - t0} ms, answered +${p.answeredAt - t0} ms, scaStatus ${p.status}, token ${short(p.token)}`,
    )
    .join('\n');
}

/** An SVG picture of the poll timeline: one bar per request (sent → answered), coloured by token. */
export function timelineSvg(timeline: QrTimeline, title: string): string {
  const { polls } = timeline;
  const t0 = polls[0]?.sentAt ?? 0;
  const end = Math.max(1000, ...polls.map((p) => p.answeredAt - t0));
  const width = 900;
  const left = 60;
  const scale = (width - left - 20) / end;
  const rowH = 22;
  const top = 50;
  const height = top + polls.length * rowH + 50;
  const tokens = [...new Set(polls.map((p) => p.token ?? ''))];
  const colour = (t: string | undefined) => (t ? `hsl(${(tokens.indexOf(t) * 67) % 360} 65% 50%)` : '#999');
  const stale = new Set(
    timeline.stale.flatMap((s) => Array.from({ length: s.lastPoll - s.firstPoll + 1 }, (_, k) => s.firstPoll + k)),
  );
  const esc = (s: string) =>
    s.replace(/[&<>"]/g, (c) => ({ '&': '&amp;', '<': '&lt;', '>': '&gt;', '"': '&quot;' })[c]!);
  const ticks: string[] = [];
  for (let ms = 0; ms <= end; ms += 1000) {
    const x = left + ms * scale;
    ticks.push(
      `<line x1="${x}" y1="${top - 10}" x2="${x}" y2="${height - 40}" stroke="#ddd"/><text x="${x}" y="${height - 25}" font-size="11" text-anchor="middle">${ms / 1000} s</text>`,
    );
  }
  const rows = polls.map((p, i) => {
    const y = top + i * rowH;
    const x = left + (p.sentAt - t0) * scale;
    const w = Math.max(2, (p.answeredAt - p.sentAt) * scale);
    return `<text x="${left - 6}" y="${y + 14}" font-size="11" text-anchor="end">#${i + 1}</text>
<rect x="${x}" y="${y + 3}" width="${w}" height="${rowH - 8}" fill="${colour(p.token)}"${stale.has(i) ? ' stroke="#d00" stroke-width="2"' : ''}/>
<text x="${x + w + 6}" y="${y + 14}" font-size="11">${esc(`${p.status} ${short(p.token)}`)}</text>`;
  });
  return `<svg xmlns="http://www.w3.org/2000/svg" width="${width}" height="${height}" viewBox="0 0 ${width} ${height}" font-family="sans-serif">
<rect width="100%" height="100%" fill="#fff"/>
<text x="10" y="20" font-size="14" font-weight="bold">${esc(title)}</text>
<text x="10" y="38" font-size="11">Each bar: one SCA status request, from sent to answered; colour = the QR token it carried; red outline = a token seen for more than ${QR_VALIDITY_MS} ms.</text>
${ticks.join('\n')}
${rows.join('\n')}
</svg>`;
}

/**
 * Polls an animated-QR SCA status every `intervalMs` (500 to 1000 ms between a request's answer
 * and the next one; one request outstanding) until it ends, recording the timeline. Never throws
 * on a timeout: the caller judges the timeline.
 */
export async function pollQrTimeline(
  driver: ScaDriver,
  href: string,
  o: { intervalMs?: number; timeoutMs: number; headers?: HeaderSpec },
): Promise<QrTimeline> {
  const polls: PollRecord[] = [];
  let status = '';
  try {
    await expect
      .poll(
        async () => {
          status = await driver.pollOnce(href, polls, o.headers);
          return status;
        },
        { intervals: [o.intervalMs ?? 600], timeout: o.timeoutMs },
      )
      .toMatch(new RegExp(`^(${TERMINAL_SCA.join('|')})$`));
  } catch {
    /* judged from the timeline */
  }
  const spans = tokenSpans(polls);
  return {
    polls,
    status,
    ended: TERMINAL_SCA.includes(status),
    spans,
    stale: spans.filter((s) => s.livedAtLeastMs > QR_VALIDITY_MS + QR_MARGIN_MS),
  };
}
