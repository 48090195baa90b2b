// @ts-check
// Writes .env.example from the settings schema (harness/config/settings.schema.json).
import { writeFileSync } from 'node:fs';
import { dirname, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import { envExample } from '../harness/config/settings-text.mjs';

writeFileSync(resolve(dirname(fileURLToPath(import.meta.url)), '..', '.env.example'), envExample());
