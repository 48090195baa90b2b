// The certification package: what a conformant, whole run leaves for a certifier, signed.
//
// A package is one .tar.gz named after target, profile and date. It holds the run's reports
// (conformance.json, conformance.md, junit.xml), the Allure report as one self-contained HTML
// file, the profile used, the redacted evidence of every exchange, the suite's identity
// (suite.json), the certifier's public key or certificate (signature/), and a manifest (path,
// size and SHA-256 of every other file) signed as a compact JWS (manifest.jws).
import { createHash, createPrivateKey, createPublicKey, type KeyObject } from 'node:crypto';
import {
  copyFileSync,
  existsSync,
  mkdirSync,
  mkdtempSync,
  readdirSync,
  readFileSync,
  rmSync,
  statSync,
  writeFileSync,
} from 'node:fs';
import { tmpdir } from 'node:os';
import { basename, join, relative, sep } from 'node:path';
import { CompactSign, compactVerify, calculateJwkThumbprint, decodeProtectedHeader, exportJWK } from 'jose';
import * as tar from 'tar';
import { loadProfile, profileFile } from '../config/profile.js';
import { redactText } from '../evidence/redact.js';
import type { ConformanceReport } from './report.js';
import { writeSpecificationMap } from './specification-html.js';
import { offlinePage } from './offline-html.mjs';

export const MANIFEST = 'manifest.json';
export const SIGNATURE = 'manifest.jws';
export const PUBLIC_KEY = 'signature/public-key.pem';
export const CERTIFICATE = 'signature/certificate.pem';
export const ALLURE_HTML = 'allure-report.html';
/** The specification map of the run, its test links pointing into ALLURE_HTML. */
export const SPECIFICATION_MAP = 'specification.html';
export const MANIFEST_FORMAT = 'obg-conformance-certification/1';

export interface ManifestFile {
  path: string;
  size: number;
  sha256: string;
}

export interface Manifest {
  format: typeof MANIFEST_FORMAT;
  target: { baseUrl: string; profile: string; embedded: boolean };
  /** The day the run ended (YYYY-MM-DD, UTC), and its start and end. */
  date: string;
  startedAt: string;
  finishedAt: string;
  suite: ConformanceReport['suite'];
  verdict: ConformanceReport['verdict'];
  totals: ConformanceReport['totals'];
  createdAt: string;
  files: ManifestFile[];
}

/**
 * Why a run may not be certified: one sentence per condition that fails, none when it qualifies.
 * A run qualifies when it is whole (not narrowed by a grep, a file, a shard or --project), its
 * profile is valid and reviewed (not init's draft), its verdict is conformant and nothing is
 * untested, blocked or broken.
 */
export function disqualifications(report: ConformanceReport): string[] {
  const out: string[] = [];
  const scope = report.scope;
  if (!scope)
    out.push('the report does not record the scope of its run, so a whole run cannot be told from a narrowed one');
  else {
    if (scope.narrowed)
      out.push(
        'the run was narrowed (a grep, a test file, a shard or --last-failed): certification needs the whole suite',
      );
    if (scope.shard)
      out.push(
        `the run is shard ${scope.shard.current} of ${scope.shard.total}: merge the shards (npm run merge) and certify the merged reports`,
      );
    if (scope.projects.length)
      out.push(`the run chose areas with --project (${scope.projects.join(', ')}): certification needs every area`);
  }
  try {
    loadProfile(report.target.profile);
  } catch (err) {
    out.push(`the profile "${report.target.profile}" is not valid: ${(err as Error).message}`);
  }
  if (report.target.draft)
    out.push(
      `the profile "${report.target.profile}" is init's unreviewed draft ("draft": true): review its claims and remove "draft"`,
    );
  for (const e of report.errors ?? []) out.push(`the run had an error: ${e.split('\n')[0]}`);
  if (report.verdict !== 'conformant') out.push(`the verdict is ${report.verdict}, not conformant`);
  const t = report.totals;
  if (t.failed) out.push(`${t.failed} requirement(s) failed`);
  for (const k of ['untested', 'blocked', 'broken'] as const)
    if (t[k]) out.push(`${t[k]} requirement(s) ${k}: ${idsWith(report, k)}`);
  return out;
}

const idsWith = (r: ConformanceReport, verdict: string) => {
  const ids = r.requirements.filter((q) => q.verdict === verdict).map((q) => q.id);
  return ids.slice(0, 8).join(', ') + (ids.length > 8 ? `, … (${ids.length} in all)` : '');
};

const sha256 = (data: Buffer | string) => createHash('sha256').update(data).digest('hex');
const slug = (s: string, max = 60) =>
  s
    .replace(/[^\w.-]+/g, '-')
    .replace(/^-+|-+$/g, '')
    .slice(0, max) || 'x';

/** The package's file name: target, profile and date. */
export function packageName(report: ConformanceReport): string {
  let host = report.target.baseUrl;
  try {
    const u = new URL(report.target.baseUrl);
    host = u.host + u.pathname;
  } catch {
    /* not a URL: keep it as it is */
  }
  return `certification_${slug(host)}_${slug(basename(report.target.profile).replace(/\.json$/, ''))}_${report.finishedAt.slice(0, 10)}.tar.gz`;
}

/** Every file under `dir`, as paths relative to it with forward slashes, sorted. */
export function listFiles(dir: string): string[] {
  const walk = (d: string): string[] =>
    readdirSync(d).flatMap((n) => {
      const f = join(d, n);
      return statSync(f).isDirectory() ? walk(f) : [relative(dir, f).split(sep).join('/')];
    });
  return walk(dir).sort();
}

interface AllureAttachment {
  name: string;
  source: string;
  type?: string;
}
interface AllureStep {
  attachments?: AllureAttachment[];
  steps?: AllureStep[];
}
interface AllureResult extends AllureStep {
  uuid: string;
  fullName?: string;
  name: string;
  status?: string;
  labels?: { name: string; value: string }[];
}

/** An exchange attachment is named "NN METHOD /path → status" (harness/evidence/format.ts). */
const EXCHANGE = /^\d+ [A-Z]+ \S* → /;

/**
 * Writes the evidence of every exchange (the suite's redacted attachments in allure-results) to
 * `out/evidence/`: one text file per test result holding its exchanges in order, and index.json
 * naming each file's test, status, requirements and exchanges. Every text passes through the
 * redaction once more.
 */
export function writeEvidence(allureResults: string, out: string): number {
  const index: { file: string; test: string; status: string; requirements: string[]; exchanges: string[] }[] = [];
  mkdirSync(join(out, 'evidence'), { recursive: true });
  const results = existsSync(allureResults)
    ? readdirSync(allureResults)
        .filter((n) => n.endsWith('-result.json'))
        .map((n) => JSON.parse(readFileSync(join(allureResults, n), 'utf8')) as AllureResult)
        .sort((a, b) => (a.fullName ?? a.name).localeCompare(b.fullName ?? b.name) || a.uuid.localeCompare(b.uuid))
    : [];
  let count = 0;
  for (const r of results) {
    const all: AllureAttachment[] = [];
    const collect = (s: AllureStep) => {
      all.push(...(s.attachments ?? []));
      (s.steps ?? []).forEach(collect);
    };
    collect(r);
    const exchanges = all.filter((a) => EXCHANGE.test(a.name) && existsSync(join(allureResults, a.source)));
    if (!exchanges.length) continue;
    const test = r.fullName ?? r.name;
    const requirements = (r.labels ?? []).filter((l) => l.name === 'story').map((l) => l.value);
    const file = `evidence/${String(index.length + 1).padStart(4, '0')}-${slug(r.name, 60)}.txt`;
    const text = [
      `test: ${test}`,
      `status: ${r.status ?? 'unknown'}`,
      `requirements: ${requirements.join(', ')}`,
      ...exchanges.flatMap((a) => ['', `════════ ${a.name}`, readFileSync(join(allureResults, a.source), 'utf8')]),
      '',
    ].join('\n');
    writeFileSync(join(out, file), redactText(text));
    count += exchanges.length;
    index.push({ file, test, status: r.status ?? 'unknown', requirements, exchanges: exchanges.map((a) => a.name) });
  }
  writeFileSync(join(out, 'evidence', 'index.json'), redactText(JSON.stringify(index, null, 2)));
  return count;
}

/** The JWS algorithm for a private key: ES256/ES384/ES512 for EC, EdDSA for Ed25519, PS256 for RSA. */
export function algorithmOf(key: KeyObject): string {
  const type = key.asymmetricKeyType;
  if (type === 'ed25519') return 'EdDSA';
  if (type === 'rsa' || type === 'rsa-pss') return 'PS256';
  if (type === 'ec') {
    const curve = key.asymmetricKeyDetails?.namedCurve;
    const alg = { prime256v1: 'ES256', 'P-256': 'ES256', secp384r1: 'ES384', 'P-384': 'ES384', secp521r1: 'ES512' }[
      curve ?? ''
    ];
    if (alg) return alg;
  }
  throw new Error(`the signing key's type (${type}) is not one of EC P-256/384/521, Ed25519 or RSA`);
}

/** SHA-256 JWK thumbprint (RFC 7638) of a public key: how the printed key is named. */
export async function keyThumbprint(publicKey: KeyObject): Promise<string> {
  return calculateJwkThumbprint(await exportJWK(publicKey), 'sha256');
}

export interface BuildOptions {
  /** The run's reports folder: conformance.json, conformance.md, junit.xml, allure-results/. */
  reportsDir: string;
  /** The Allure report as one HTML file (built by the caller). */
  allureHtml: string;
  /** PEM file of the certifier's private key (PKCS#8, or any form Node reads). */
  keyFile: string;
  /** Optional PEM certificate of that key, carried instead of the bare public key. */
  certificateFile?: string;
  /** Folder the package is written to. */
  outDir: string;
}

/** Builds and signs the package of a qualifying run; returns its path. The caller checks `disqualifications` first. */
export async function buildPackage(o: BuildOptions): Promise<{ file: string; manifest: Manifest; thumbprint: string }> {
  const report = JSON.parse(readFileSync(join(o.reportsDir, 'conformance.json'), 'utf8')) as ConformanceReport;
  const stage = mkdtempSync(join(tmpdir(), 'obg-certify-'));
  try {
    for (const name of ['conformance.json', 'conformance.md', 'junit.xml']) {
      const from = join(o.reportsDir, name);
      if (!existsSync(from)) throw new Error(`${name} is missing from ${o.reportsDir}`);
      writeFileSync(join(stage, name), redactText(readFileSync(from, 'utf8')));
    }
    // The one-file Allure report with no analytics and no outside address (offline-html.mjs).
    writeFileSync(join(stage, ALLURE_HTML), offlinePage(readFileSync(o.allureHtml, 'utf8')));
    writeSpecificationMap(report, join(stage, SPECIFICATION_MAP), {
      allureResults: join(o.reportsDir, 'allure-results'),
      allureReport: ALLURE_HTML,
    });
    mkdirSync(join(stage, 'profile'), { recursive: true });
    copyFileSync(
      profileFile(report.target.profile),
      join(stage, 'profile', basename(profileFile(report.target.profile))),
    );
    writeEvidence(join(o.reportsDir, 'allure-results'), stage);
    writeFileSync(join(stage, 'suite.json'), JSON.stringify(report.suite, null, 2));

    const privateKey = createPrivateKey(readFileSync(o.keyFile));
    const publicKey = createPublicKey(privateKey);
    const alg = algorithmOf(privateKey);
    mkdirSync(join(stage, 'signature'), { recursive: true });
    writeFileSync(join(stage, PUBLIC_KEY), publicKey.export({ type: 'spki', format: 'pem' }));
    if (o.certificateFile) copyFileSync(o.certificateFile, join(stage, CERTIFICATE));

    const files = listFiles(stage).map((path) => {
      const data = readFileSync(join(stage, path));
      return { path, size: data.length, sha256: sha256(data) };
    });
    const manifest: Manifest = {
      format: MANIFEST_FORMAT,
      target: report.target,
      date: report.finishedAt.slice(0, 10),
      startedAt: report.startedAt,
      finishedAt: report.finishedAt,
      suite: report.suite,
      verdict: report.verdict,
      totals: report.totals,
      createdAt: new Date().toISOString(),
      files,
    };
    const manifestBytes = Buffer.from(JSON.stringify(manifest, null, 2));
    writeFileSync(join(stage, MANIFEST), manifestBytes);
    const thumbprint = await keyThumbprint(publicKey);
    const jws = await new CompactSign(manifestBytes)
      .setProtectedHeader({ alg, typ: 'obg-manifest+jws', kid: thumbprint })
      .sign(privateKey);
    writeFileSync(join(stage, SIGNATURE), jws);

    mkdirSync(o.outDir, { recursive: true });
    const file = join(o.outDir, packageName(report));
    await tar.create({ gzip: true, file, cwd: stage, portable: true }, listFiles(stage));
    return { file, manifest, thumbprint };
  } finally {
    rmSync(stage, { recursive: true, force: true });
  }
}

export interface Verification {
  ok: boolean;
  problems: string[];
  manifest?: Manifest;
  /** Thumbprint of the key that signed the manifest. */
  thumbprint?: string;
}

/** A package's files as verification reads them: from a folder, or from a package file read into memory. */
interface PackageFiles {
  /** Every file's path (with "/"), sorted. */
  list(): string[];
  read(path: string): Buffer | undefined;
  /** Entries that are not regular files (a link, a device): never part of a package. */
  odd: string[];
}

const folderFiles = (dir: string): PackageFiles => ({
  list: () => listFiles(dir),
  read: (p) => (existsSync(join(dir, p)) ? readFileSync(join(dir, p)) : undefined),
  odd: [],
});

/**
 * A package file's entries read into memory (a package is some tens of megabytes unpacked): no
 * copy on disk to write and remove, which cost more than the reading and hashing.
 */
async function packedFiles(file: string): Promise<PackageFiles> {
  const files = new Map<string, Buffer>();
  const odd: string[] = [];
  await tar.t({
    file,
    onReadEntry: (e) => {
      const path = e.path.replace(/^(\.\/)+/, '');
      if (e.type !== 'File' && e.type !== 'OldFile' && e.type !== 'ContiguousFile') {
        if (e.type !== 'Directory') odd.push(path);
        e.resume();
        return;
      }
      const chunks: Buffer[] = [];
      e.on('data', (c: Buffer) => chunks.push(c));
      e.on('end', () => files.set(path, Buffer.concat(chunks)));
    },
  });
  // A file that is no tar (or an empty one) reads as no entry at all, not as an error.
  if (!files.size && !odd.length) throw new Error('no entry could be read: not a tar file');
  return { list: () => [...files.keys()].sort(), read: (p) => files.get(p), odd };
}

/**
 * Checks an unpacked package: the signature over the manifest (by the key in the package, or by
 * `trustKeyFile` when given: then only that key's signature is accepted), then every file
 * against the manifest: none changed, none removed, none added.
 */
export async function verifyFolder(dir: string, trustKeyFile?: string): Promise<Verification> {
  return verifyFiles(folderFiles(dir), trustKeyFile);
}

async function verifyFiles(files: PackageFiles, trustKeyFile?: string): Promise<Verification> {
  const problems: string[] = files.odd.map((p) => `${p}: not a regular file`);
  const need = (p: string) => {
    if (files.read(p)) return true;
    problems.push(`${p} is missing: the package cannot be verified`);
    return false;
  };
  if (!need(MANIFEST) || !need(SIGNATURE)) return { ok: false, problems };
  const manifestBytes = files.read(MANIFEST)!;
  let key: KeyObject;
  if (trustKeyFile) {
    const pem = readFileSync(trustKeyFile, 'utf8');
    key = pem.includes('PRIVATE KEY') ? createPublicKey(createPrivateKey(pem)) : createPublicKey(pem);
  } else {
    if (!need(PUBLIC_KEY)) return { ok: false, problems };
    try {
      key = createPublicKey(files.read(PUBLIC_KEY)!);
    } catch (err) {
      problems.push(`${PUBLIC_KEY} is not a public key: ${(err as Error).message}`);
      return { ok: false, problems };
    }
  }
  const thumbprint = await keyThumbprint(key);
  const jws = files.read(SIGNATURE)!.toString('utf8').trim();
  let signer: string | undefined;
  try {
    signer = decodeProtectedHeader(jws).kid;
  } catch {
    problems.push(`${SIGNATURE} is not a compact JWS`);
    return { ok: false, problems, thumbprint };
  }
  try {
    if (trustKeyFile && signer !== thumbprint)
      throw new Error(`the manifest names key ${signer ?? '(none)'} as its signer`);
    const { payload } = await compactVerify(jws, key);
    if (!Buffer.from(payload).equals(manifestBytes))
      problems.push(`${MANIFEST} is not the manifest that was signed: it was changed after signing`);
  } catch (err) {
    problems.push(
      trustKeyFile
        ? `the manifest is not signed by the trusted key ${thumbprint}: ${(err as Error).message}`
        : `the signature does not verify with the package's own public key: ${(err as Error).message}`,
    );
  }
  let manifest: Manifest | undefined;
  try {
    manifest = JSON.parse(manifestBytes.toString('utf8')) as Manifest;
  } catch {
    problems.push(`${MANIFEST} is not JSON`);
    return { ok: false, problems, thumbprint };
  }
  const listed = new Map(manifest.files.map((f) => [f.path, f]));
  const present = files.list().filter((p) => p !== MANIFEST && p !== SIGNATURE);
  for (const p of present) {
    const entry = listed.get(p);
    if (!entry) {
      problems.push(`${p}: added (not in the manifest)`);
      continue;
    }
    const data = files.read(p)!;
    if (data.length !== entry.size || sha256(data) !== entry.sha256)
      problems.push(
        `${p}: changed (SHA-256 ${sha256(data).slice(0, 16)}…, the manifest says ${entry.sha256.slice(0, 16)}…)`,
      );
  }
  const have = new Set(present);
  for (const p of listed.keys())
    if (!have.has(p)) problems.push(`${p}: removed (listed in the manifest, not in the package)`);
  if (!trustKeyFile && files.read(PUBLIC_KEY) && !listed.has(PUBLIC_KEY))
    problems.push(`${PUBLIC_KEY} is not covered by the manifest`);
  return { ok: problems.length === 0, problems, manifest, thumbprint };
}

/** Verifies a package file (read into memory) or a package already unpacked into a folder. */
export async function verifyPackage(file: string, trustKeyFile?: string): Promise<Verification> {
  if (!existsSync(file)) return { ok: false, problems: [`${file}: no such package`] };
  if (statSync(file).isDirectory()) return verifyFolder(file, trustKeyFile);
  let files: PackageFiles;
  try {
    files = await packedFiles(file);
  } catch (err) {
    return { ok: false, problems: [`${file}: not a readable package (${(err as Error).message})`] };
  }
  return verifyFiles(files, trustKeyFile);
}
