// @ts-check
// typescript-eslint's recommended rules over the suite, the sandbox, the harness and the self-tests.
import js from '@eslint/js';
import tseslint from 'typescript-eslint';
import { ENV_NAME_EXCEPTIONS } from './harness/config/env-names.mjs';

export default tseslint.config(
  { ignores: ['node_modules/', 'reports/', 'selftest/.runs/', '**/*.d.ts'] },
  js.configs.recommended,
  ...tseslint.configs.recommended,
  {
    languageOptions: { globals: { process: 'readonly', console: 'readonly', URL: 'readonly' } },
    rules: {
      // Playwright fixtures take their dependencies by destructuring, often of none: `async ({}, use) => …`.
      'no-empty-pattern': 'off',
      '@typescript-eslint/no-unused-vars': [
        'error',
        { argsIgnorePattern: '^_', varsIgnorePattern: '^_', caughtErrors: 'none' },
      ],
    },
  },
  {
    // A function of more than 80 lines is split into named ones. Not in the test files (tests/,
    // selftest's *.spec.ts and *.setup.ts): there the callback of a describe or of
    // forEachCombination declares its tests, and would count as one long function.
    files: ['harness/**', 'sandbox/**', 'scripts/**', 'bin/**', 'selftest/**'],
    ignores: ['selftest/**/*.spec.ts', 'selftest/**/*.setup.ts'],
    rules: { 'max-lines-per-function': ['error', { max: 80, skipBlankLines: true, skipComments: true }] },
  },
  {
    // A fault (and the hooks faults and variants share) edits the sandbox's JSON answers wherever a
    // rule sits: its bodies are loosely typed on purpose.
    files: ['sandbox/faults/**', 'sandbox/hooks.ts'],
    rules: { '@typescript-eslint/no-explicit-any': 'off' },
  },
  {
    // A merged test keeps the self-proof's declaration per entry only through the suite's mergeTests.
    files: ['tests/**'],
    rules: {
      'no-restricted-imports': [
        'error',
        {
          paths: [
            {
              name: '@playwright/test',
              importNames: ['mergeTests'],
              message: "Use mergeTests from harness/test.ts: it keeps the self-proof's declaration per entry.",
            },
          ],
        },
      ],
    },
  },
  {
    // The suite's own environment variables are named once, in harness/config/env-names.mjs: a
    // writer takes the name from ENV there (`passOn({ [ENV.workers]: n })`), never as text.
    ignores: ['harness/config/env-names.mjs', ...ENV_NAME_EXCEPTIONS],
    rules: {
      'no-restricted-syntax': [
        'error',
        ...['MemberExpression[property.name=/^OBG_/]', 'Property[key.name=/^OBG_/]', 'Literal[value=/^OBG_/]'].map(
          (selector) => ({
            selector,
            message:
              'An OBG_* environment variable is named in harness/config/env-names.mjs: use ENV.<key> from there.',
          }),
        ),
      ],
    },
  },
);
