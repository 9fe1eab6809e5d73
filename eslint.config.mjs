// `npm run lint`: the layer rule (lint/layers.mjs), the circle rule (lint/circles.mjs) and a few import
// rules over the service, its hosts and the webview.
import tsParser from '@typescript-eslint/parser';
import tsPlugin from '@typescript-eslint/eslint-plugin';
import { layersPlugin } from './lint/layers.mjs';
import { circlesPlugin } from './lint/circles.mjs';

export default [
  { ignores: ['dist/**', 'node_modules/**', '.cache/**', 'test-output/**', 'media/**', 'examples/**'] },
  {
    files: ['server/**/*.ts', 'extension/**/*.ts'],
    languageOptions: { parser: tsParser, ecmaVersion: 2022, sourceType: 'module' },
    plugins: { layers: layersPlugin, '@typescript-eslint': tsPlugin },
    linterOptions: { reportUnusedDisableDirectives: 'error' },
    rules: {
      'layers/imports-look-down': 'error',
      // require() hides a dependency from the types and the bundler's splitting; each use says why.
      '@typescript-eslint/no-require-imports': 'error',
      '@typescript-eslint/consistent-type-imports': ['error', { fixStyle: 'inline-type-imports' }],
    },
  },
  {
    files: ['server/**/*.ts', 'extension/**/*.ts', 'webview/**/*.ts', 'webview/**/*.tsx'],
    languageOptions: {
      parser: tsParser,
      ecmaVersion: 2022,
      sourceType: 'module',
      parserOptions: { ecmaFeatures: { jsx: true } },
    },
    plugins: { circles: circlesPlugin },
    rules: { 'circles/no-import-circles': 'error' },
  },
];
