import type SCHEMA_JSON from './settings.schema.json';

/** The settings schema (settings.schema.json). */
export const SETTINGS_SCHEMA: typeof SCHEMA_JSON;
/** A setting the schema names (its properties). */
export type SettingKey = keyof (typeof SCHEMA_JSON)['properties'];
/** A documented setting: a property, one of the suite's own OBG_* settings, or a family. */
export interface DocumentedSetting {
  name: string;
  spec: {
    type: string;
    group: string;
    kind: string;
    summary: string;
    description: string;
    readers: string[];
    default?: string;
    examples?: string[];
  };
}
export function envFileOf(cwd?: string): string;
export function envFileValues(file?: string): Record<string, string>;
export function userEnv(env?: NodeJS.ProcessEnv, file?: string): Record<string, string>;
/** The suite's own OBG_* settings a user sets, by their registry key. */
export type OwnSettingKey = keyof (typeof SCHEMA_JSON)['registry'];
/** The process's settings, the schema applied (loadSettings). */
export type Settings = Readonly<Record<SettingKey, string>> & {
  readonly own: Readonly<Record<OwnSettingKey, string>>;
  readonly named: Readonly<Record<string, string>>;
  readonly envFile: string;
};
export function loadSettings(env?: NodeJS.ProcessEnv, envFile?: string): Settings;
export function handedDown(settings?: Settings, env?: NodeJS.ProcessEnv): Record<string, string>;
export function whereFrom(file?: string): string;
export function switchValue(raw: string | undefined): boolean | undefined;
export function reportsDirOf(env?: NodeJS.ProcessEnv, cwd?: string): string;
export function documentedSettings(): DocumentedSetting[];
