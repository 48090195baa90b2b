import { readdirSync, readFileSync } from 'node:fs';
import { basename } from 'node:path';
import { parse } from 'yaml';
import { validatorOf } from './config/ajv.js';
import { fromRoot } from './config/paths.js';

export type Level = 'MUST' | 'SHOULD' | 'MAY';

export interface Requirement {
  id: string;
  level: Level;
  section: string;
  features: string[];
  text: string;
  source?: 'spec' | 'bg' | 'vendor' | 'issue';
  noFault?: string;
  /** The catalogue file the entry comes from (requirements/<area>.yaml). */
  area: string;
}

export interface Catalogue {
  all: Requirement[];
  byId: Map<string, Requirement>;
  /** Problems found while loading: a malformed file or entry, an id declared twice. */
  problems: string[];
}

let cached: Catalogue | undefined;

/** Reads every requirements/*.yaml, validating each against requirement.schema.json. */
export function loadCatalogue(dir = fromRoot('requirements')): Catalogue {
  if (cached && dir === fromRoot('requirements')) return cached;
  const validate = validatorOf(fromRoot('requirements', 'requirement.schema.json'));
  const all: Requirement[] = [];
  const byId = new Map<string, Requirement>();
  const problems: string[] = [];
  for (const file of readdirSync(dir)
    .filter((f) => f.endsWith('.yaml'))
    .sort()) {
    const area = basename(file, '.yaml');
    let data: unknown;
    try {
      data = parse(readFileSync(`${dir}/${file}`, 'utf8'));
    } catch (err) {
      problems.push(`${file}: not valid YAML: ${(err as Error).message}`);
      continue;
    }
    if (!validate(data)) {
      for (const e of validate.errors ?? []) problems.push(`${file}${e.instancePath}: ${e.message}`);
      continue;
    }
    for (const entry of data as Omit<Requirement, 'area'>[]) {
      if (byId.has(entry.id)) {
        problems.push(`${file}: ${entry.id} is declared twice (also in ${byId.get(entry.id)!.area}.yaml)`);
        continue;
      }
      const req: Requirement = { ...entry, area };
      all.push(req);
      byId.set(req.id, req);
    }
  }
  const catalogue = { all, byId, problems };
  if (dir === fromRoot('requirements')) cached = catalogue;
  return catalogue;
}
