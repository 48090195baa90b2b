import { readFileSync } from 'node:fs';
import { dirname, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import { Worker } from 'node:worker_threads';

const here = dirname(fileURLToPath(import.meta.url));

/** The ISO 20022 schema of a SEPA customer direct debit initiation (reference-facts > ISO 20022 pain.008). */
const PAIN008_XSD = resolve(here, 'pain.008.001.02.xsd');

let xsd: string | undefined;

interface Answer {
  kind: 'obg-xmllint';
  id: number;
  exitCode: number;
  stdout: string;
  stderr: string;
}

/**
 * xmllint in one worker thread per process (./xmllint-worker.mjs), started at the first call. It
 * keeps the process alive only while a call waits on it; a worker that fails or exits fails the
 * calls waiting on it, and the next call starts another.
 */
let worker: Worker | undefined;
let lastId = 0;
const waiting = new Map<number, { resolve: (a: Answer) => void; reject: (e: Error) => void }>();

function xmllint(inputFiles: { fileName: string; contents: string }[], args: string[]): Promise<Answer> {
  if (!worker) {
    const w = new Worker(resolve(here, 'xmllint-worker.mjs'));
    const fail = (e: Error) => {
      if (worker === w) worker = undefined;
      for (const [, call] of waiting) call.reject(e);
      waiting.clear();
    };
    w.on('message', (a: Answer) => {
      if (a?.kind !== 'obg-xmllint') return;
      const call = waiting.get(a.id);
      waiting.delete(a.id);
      if (!waiting.size) w.unref();
      call?.resolve(a);
    });
    w.on('error', fail);
    w.on('exit', (code) => fail(new Error(`the xmllint worker exited (code ${code})`)));
    worker = w;
  }
  const id = ++lastId;
  worker.ref();
  return new Promise<Answer>((res, reject) => {
    waiting.set(id, { resolve: res, reject });
    worker!.postMessage({ kind: 'obg-xmllint', id, inputFiles, args });
  });
}

/**
 * xmllint's report of the files that failed, a problem per line, as xmllint-wasm reads it: the
 * last line ("<file> fails to validate") and the empty one after it dropped, "<file>:<line>:" cut
 * off the front, a "<file> validates" line left out.
 */
function problemsOf(stderr: string): string[] {
  return stderr
    .split('\n')
    .slice(0, -2)
    .map((line) => {
      const [fileName, lineNumber, ...rest] = line.split(':');
      return fileName && lineNumber && rest.length
        ? { raw: line, message: rest.join(':').trim(), located: true }
        : { raw: line, message: line, located: false };
    })
    .filter((e) => e.located || !e.raw.trim().endsWith(' validates'))
    .map((e) => e.message);
}

/** Validates a file against the pain.008.001.02 XSD (xmllint); returns the problems, none when valid. */
export async function validatePain008(xml: string): Promise<string[]> {
  xsd ??= readFileSync(PAIN008_XSD, 'utf8');
  const a = await xmllint(
    [
      { fileName: 'collection.xml', contents: xml },
      { fileName: 'pain.008.001.02.xsd', contents: xsd },
    ],
    ['--schema', 'pain.008.001.02.xsd', '--noout', 'collection.xml'],
  );
  if (a.exitCode === 0) return [];
  // 3 and 4: the file does not validate; anything else is xmllint failing.
  if (a.exitCode === 3 || a.exitCode === 4) return problemsOf(a.stderr);
  throw Object.assign(new Error(a.stderr || `xmllint exited with ${a.exitCode}`), { code: a.exitCode });
}
