import { readFileSync } from 'node:fs';
import { dirname, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import { validateXML } from 'xmllint-wasm';

/** The ISO 20022 schema of a SEPA customer direct debit initiation (reference-facts > ISO 20022 pain.008). */
const PAIN008_XSD = resolve(dirname(fileURLToPath(import.meta.url)), 'pain.008.001.02.xsd');

let xsd: string | undefined;

/** Validates a file against the pain.008.001.02 XSD (xmllint); returns the problems, none when valid. */
export async function validatePain008(xml: string): Promise<string[]> {
  xsd ??= readFileSync(PAIN008_XSD, 'utf8');
  const result = await validateXML({
    xml: [{ fileName: 'collection.xml', contents: xml }],
    schema: [{ fileName: 'pain.008.001.02.xsd', contents: xsd }],
  });
  return result.valid ? [] : result.errors.map((e) => e.message);
}
