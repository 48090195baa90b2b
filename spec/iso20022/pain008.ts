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

type Call = { resolve: (a: Answer) => void; reject: (e: Error) => void };

/**
 * xmllint in a worker thread of its own (./xmllint-worker.mjs), started at the first call. The
 * thread keeps the process alive only while a call waits on it; a thread that fails or exits fails
 * the calls waiting on it, and the next call starts another (the calls of a thread are its own: a
 * late exit of an old thread touches none of the new one's).
 */
export class XmllintThread {
  private current?: { worker: Worker; waiting: Map<number, Call> };
  private lastId = 0;

  run(inputFiles: { fileName: string; contents: string }[], args: string[]): Promise<Answer> {
    const t = (this.current ??= this.start());
    const id = ++this.lastId;
    t.worker.ref();
    return new Promise<Answer>((resolve, reject) => {
      t.waiting.set(id, { resolve, reject });
      t.worker.postMessage({ kind: 'obg-xmllint', id, inputFiles, args });
    });
  }

  /** Ends the thread: the calls waiting on it fail, and the next call starts another. */
  async stop(): Promise<void> {
    await this.current?.worker.terminate();
  }

  private start(): { worker: Worker; waiting: Map<number, Call> } {
    const worker = new Worker(resolve(here, 'xmllint-worker.mjs'));
    const waiting = new Map<number, Call>();
    const t = { worker, waiting };
    const fail = (why: string) => {
      if (this.current === t) this.current = undefined;
      for (const call of waiting.values())
        call.reject(new Error(`xmllint (pain.008 XSD check): ${why}; the file was not checked`));
      waiting.clear();
    };
    worker.on('message', (a: Answer) => {
      if (a?.kind !== 'obg-xmllint') return;
      const call = waiting.get(a.id);
      waiting.delete(a.id);
      if (!waiting.size) worker.unref();
      call?.resolve(a);
    });
    worker.on('error', (e) => fail(`its thread failed: ${e.message}`));
    worker.on('exit', (code) => fail(`its thread ended (exit code ${code})`));
    return t;
  }
}

const thread = new XmllintThread();

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

/**
 * Validates a file against the pain.008.001.02 XSD (xmllint); returns the problems, none when valid.
 * The process's one xmllint thread serves every call unless `via` names another.
 */
export async function validatePain008(xml: string, via: XmllintThread = thread): Promise<string[]> {
  xsd ??= readFileSync(PAIN008_XSD, 'utf8');
  const a = await via.run(
    [
      { fileName: 'collection.xml', contents: xml },
      { fileName: 'pain.008.001.02.xsd', contents: xsd },
    ],
    ['--schema', 'pain.008.001.02.xsd', '--noout', 'collection.xml'],
  );
  if (a.exitCode === 0) return [];
  // 3 and 4: the file does not validate; anything else is xmllint failing.
  if (a.exitCode === 3 || a.exitCode === 4) return problemsOf(a.stderr);
  throw Object.assign(
    new Error(`xmllint (pain.008 XSD check) failed, exit code ${a.exitCode}: ${a.stderr || 'no message'}`),
    { code: a.exitCode },
  );
}
