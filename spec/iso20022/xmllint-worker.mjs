// @ts-check
// xmllint (xmllint-wasm's build of libxml2) in one long-lived worker thread: the WebAssembly module
// is compiled once per process and each validation runs a fresh instance of it (its own memory,
// its own file system), so V8's optimised code for the module serves every call after the first.
// xmllint-wasm's own validateXML starts a worker thread and compiles the module on every call:
// 250 to 430 ms of CPU a file, against 10 to 30 ms here. Used by ./pain008.ts.
import { readFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import { dirname, join } from 'node:path';
import { parentPort } from 'node:worker_threads';

// The WebAssembly API (the project's types name no DOM or WebAssembly library): used untyped.
/** @type {any} */
const WebAssembly = /** @type {any} */ (globalThis).WebAssembly;
const require = createRequire(import.meta.url);
const home = dirname(require.resolve('xmllint-wasm'));
// The emscripten factory of xmllint-wasm's worker script (CommonJS). Loading it also registers that
// script's own listener, which answers only messages tagged 'xmllint-wasm' (none are sent here).
const xmllint = require(join(home, 'xmllint-node.js'));
const { memoryPages } = require('xmllint-wasm');
/** @type {unknown} */
let compiled;
if (!parentPort) throw new Error('xmllint-worker.mjs runs as a worker thread (./pain008.ts starts it)');
const port = parentPort;

port.on('message', async (m) => {
  if (!m || m.kind !== 'obg-xmllint') return;
  let stdout = '';
  let stderr = '';
  let answered = false;
  /**
   * @param {number} exitCode
   * @param {string} [err]
   */
  const answer = (exitCode, err = stderr) => {
    if (answered) return;
    answered = true;
    port.postMessage({ kind: 'obg-xmllint', id: m.id, exitCode, stdout, stderr: err });
  };
  try {
    compiled ??= await WebAssembly.compile(readFileSync(join(home, 'xmllint.wasm')));
    const run = xmllint({
      inputFiles: m.inputFiles,
      arguments: m.args,
      print: (/** @type {string} */ text) => (stdout += `${text}\n`),
      printErr: (/** @type {string} */ text) => (stderr += `${text}\n`),
      onExit: (/** @type {number} */ code) => answer(code),
      onAbort: (/** @type {unknown} */ reason) => answer(-1, `WASM Abort: ${reason}`),
      // xmllint-wasm's own defaults (16 MiB at first, 32 MiB at most).
      wasmMemory: new WebAssembly.Memory({
        initial: memoryPages.defaultInitialMemoryPages,
        maximum: memoryPages.defaultMaxMemoryPages,
      }),
      /**
       * @param {unknown} imports
       * @param {(instance: unknown, module: unknown) => void} receive
       */
      instantiateWasm(imports, receive) {
        WebAssembly.instantiate(compiled, imports).then(
          (/** @type {unknown} */ instance) => receive(instance, compiled),
          (/** @type {Error | undefined} */ e) => answer(-1, `WASM instantiate: ${e && e.message}`),
        );
        return {};
      },
    });
    // The module's own promise rejects on an abort (answered above): not an unhandled rejection.
    Promise.resolve(run).catch((/** @type {Error | undefined} */ e) => answer(-1, String((e && e.message) || e)));
  } catch (e) {
    answer(-1, String((e instanceof Error && e.stack) || e));
  }
});
