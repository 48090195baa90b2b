import { createReadStream, existsSync, mkdirSync, readFileSync, renameSync, rmSync, writeFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { pipeline } from 'node:stream/promises';
import { brotliDecompressSync, createBrotliDecompress } from 'node:zlib';
import { x as untar } from 'tar';
import { ConfigError } from './errors.js';
import { ambient, environment, SETTINGS_SCHEMA } from './user-settings.mjs';

/** Debian's chromium package (CHROMIUM_PATH's default): the browser when CHROMIUM_PATH is not set and it is installed. */
export const SYSTEM_CHROMIUM: string = SETTINGS_SCHEMA.properties.CHROMIUM_PATH.default;

/** The npm package that carries a Chromium build inside its tarball (Linux x64), brotli-compressed. */
export const NPM_CHROMIUM = '@sparticuz/chromium';

/** Where the browser comes from: the configured path, Debian's package, or the npm package. */
export type ChromiumSource = 'configured' | 'system' | 'npm';

export interface FoundChromium {
  source: ChromiumSource;
  /** The browser's executable; for the npm package, where it is (or will be) unpacked. */
  executablePath: string;
  /** One line for a person: which browser, and why that one. */
  describe: string;
  /** What `chromium.launch()` takes: the executable (unpacked on first use) and, for the npm build, its libraries. */
  launchOptions(): Promise<{ executablePath: string; env?: Record<string, string> }>;
}

export interface FindChromiumOptions {
  /** The npm package's folder; `false` looks for no npm package (default: resolved from here). */
  npmPackage?: string | false;
  /** Debian's chromium (default /usr/bin/chromium). */
  systemPath?: string;
}

/**
 * The one lookup of the browser, for the browser PSU agent, `init` and the self-tests that open a
 * report in a browser: `configured` (CHROMIUM_PATH) when it exists; unset, Debian's chromium when
 * installed; else (a configured path that is missing included) the build the npm package
 * `@sparticuz/chromium` carries, unpacked once into the system's temporary folder. No browser is
 * ever downloaded. Neither: a ConfigError naming CHROMIUM_PATH and the ways to get one.
 */
export function findChromium(configured = '', o: FindChromiumOptions = {}): FoundChromium {
  const path = (source: ChromiumSource, executablePath: string, describe: string): FoundChromium => ({
    source,
    executablePath,
    describe,
    launchOptions: () => Promise.resolve({ executablePath }),
  });
  const system = o.systemPath ?? SYSTEM_CHROMIUM;
  // CHROMIUM_PATH's default (harness/config/settings.ts chromiumPath) is Debian's: as if unset.
  if (configured === system) configured = '';
  if (configured && existsSync(configured)) return path('configured', configured, `CHROMIUM_PATH (${configured})`);
  if (!configured && existsSync(system)) return path('system', system, `Debian's chromium (${system})`);
  const pkg = o.npmPackage === false ? undefined : (o.npmPackage ?? npmPackageDir());
  const missing = configured || system;
  if (pkg && existsSync(join(pkg, 'bin', 'chromium.br')) && process.platform === 'linux' && process.arch === 'x64') {
    const version = (JSON.parse(readFileSync(join(pkg, 'package.json'), 'utf8')) as { version: string }).version;
    const dir = join(tmpdir(), `obg-conformance-chromium-${version}`);
    return {
      source: 'npm',
      executablePath: join(dir, 'chromium'),
      describe: `${NPM_CHROMIUM} ${version}'s Chromium (unpacked in ${dir}; no browser at ${missing})`,
      launchOptions: async () => {
        await unpack(pkg, dir);
        const libs = [join(dir, 'lib'), ambient('LD_LIBRARY_PATH')].filter(Boolean).join(':');
        return { executablePath: join(dir, 'chromium'), env: { ...environment(), LD_LIBRARY_PATH: libs } };
      },
    };
  }
  throw new ConfigError(
    `CHROMIUM_PATH: no browser at ${missing}, and no ${NPM_CHROMIUM} package to fall back to (install Debian's chromium package, set CHROMIUM_PATH, or npm install ${NPM_CHROMIUM} on Linux x64).`,
  );
}

/**
 * The npm package's folder, or undefined when it is not installed: resolved from the suite, else
 * from the working folder (an installed suite runs from a staged copy whose links were made
 * before the package may have been installed beside it).
 */
function npmPackageDir(): string | undefined {
  for (const from of [import.meta.url, join(process.cwd(), 'package.json')])
    try {
      const entry = createRequire(from).resolve(NPM_CHROMIUM);
      return entry.slice(0, entry.lastIndexOf(NPM_CHROMIUM) + NPM_CHROMIUM.length);
    } catch {
      /* not there: the next place */
    }
  return undefined;
}

/**
 * Unpacks the package's Chromium and the libraries it links (NSS, NSPR, expat: `al2023.tar.br`,
 * for a machine without them) into `dir`, once: into a folder of this process first, then renamed,
 * so that workers unpacking at the same time never run a half-written browser.
 */
async function unpack(pkg: string, dir: string): Promise<void> {
  if (existsSync(join(dir, 'chromium'))) return;
  const partial = `${dir}.${process.pid}.partial`;
  rmSync(partial, { recursive: true, force: true });
  mkdirSync(join(partial, 'lib'), { recursive: true });
  writeFileSync(join(partial, 'chromium'), brotliDecompressSync(readFileSync(join(pkg, 'bin', 'chromium.br'))), {
    mode: 0o755,
  });
  await pipeline(
    createReadStream(join(pkg, 'bin', 'al2023.tar.br')),
    createBrotliDecompress(),
    untar({ cwd: partial }),
  );
  try {
    renameSync(partial, dir);
  } catch (e) {
    // Another process unpacked it first: its copy is as good.
    rmSync(partial, { recursive: true, force: true });
    if (!existsSync(join(dir, 'chromium'))) throw e;
  }
}
