// ESLint for the web app: typescript-eslint (type-aware), React's hook rules, and the
// import boundaries of the bulletproof-react layout.
//
// Rule of thumb for the boundaries: a feature (src/features/<name>) is one screen-sized
// domain and imports no other feature. What several features (or the room) need moves
// DOWN: presentational UI to src/components/<domain>/ (cms, product, cart, account,
// order), shared API calls, stores and rules to src/lib/ (lib/shop, lib/api).
// src/components and src/lib import no feature. Features meet only in src/app, which
// composes them (routes, layouts, the CMS element table).
import { readdirSync } from 'node:fs';
import js from '@eslint/js';
import { createTypeScriptImportResolver } from 'eslint-import-resolver-typescript';
import { importX } from 'eslint-plugin-import-x';
import reactHooks from 'eslint-plugin-react-hooks';
import globals from 'globals';
import tseslint from 'typescript-eslint';

const root = import.meta.dirname;
const features = readdirSync(new URL('./src/features', import.meta.url), { withFileTypes: true })
  .filter((entry) => entry.isDirectory())
  .map((entry) => entry.name);

/** The zones of import-x/no-restricted-paths (it resolves `@/` and relative paths alike). */
export const boundaryZones = [
  ...features.map((name) => ({
    target: `./src/features/${name}`,
    from: './src/features',
    except: [`./${name}`],
    message: 'A feature imports no other feature: move the shared piece down to src/components or src/lib, or compose in src/app.',
  })),
  {
    target: ['./src/components', './src/lib'],
    from: './src/features',
    message: 'src/components and src/lib import no feature.',
  },
];

const room = './src/features/room';
const inRoom = (...parts) => parts.map((part) => `${room}/${part}`);

/**
 * The zones inside the room (a feature big enough for its own): the parts both sides share
 * import no side, a side imports not the other, and the shared parts are layered
 * (utils → api → realtime → session → components, engagement), each importing only below
 * itself: no back-up arrow.
 */
export const roomZones = [
  {
    target: inRoom('utils', 'api', 'realtime', 'session', 'components', 'engagement'),
    from: inRoom('guide', 'attendee', 'report'),
    message: "The room's shared parts (realtime, session, api, components, engagement, utils) import no side: what a side needs of them is passed in or defined here.",
  },
  {
    target: inRoom('guide', 'report'),
    from: inRoom('attendee'),
    message: "The guide's side (and its report) imports nothing of the attendee's: move the shared piece down to the room's shared parts.",
  },
  { target: inRoom('attendee'), from: inRoom('guide'), message: "The attendee's side imports nothing of the guide's: move the shared piece down to the room's shared parts." },
  { target: inRoom('utils'), from: inRoom('api', 'realtime', 'session', 'components', 'engagement'), message: "The room's utils import no other part of the room." },
  { target: inRoom('api'), from: inRoom('realtime', 'session', 'components', 'engagement'), message: "The room's REST calls (api) import only utils: no back-up arrow." },
  { target: inRoom('realtime'), from: inRoom('session', 'components', 'engagement'), message: 'The realtime client imports only api and utils: no back-up arrow.' },
  { target: inRoom('session'), from: inRoom('components', 'engagement'), message: 'The session imports only realtime, api and utils: no back-up arrow.' },
  {
    target: inRoom('guide/api', 'guide/stores', 'attendee/api', 'attendee/stores', 'attendee/utils'),
    from: inRoom('components', 'engagement', 'session', 'guide/components', 'guide/session', 'attendee/components', 'attendee/session'),
    message: "A side's REST calls and stores import no UI and no session: no back-up arrow.",
  },
];

export default tseslint.config(
  // Build output, test reports, copied vendor files; the protocol types are generated (make protocol-ts).
  { ignores: ['dist/', 'test-results/', 'playwright-report/', 'public/', 'src/protocol/generated.ts'] },
  js.configs.recommended,
  tseslint.configs.recommendedTypeChecked,
  {
    languageOptions: {
      parserOptions: { projectService: { allowDefaultProject: ['eslint.config.js', 'scripts/*.js', 'scripts/*.mjs'] }, tsconfigRootDir: root },
      globals: { ...globals.browser },
    },
  },
  {
    files: ['src/**/*.{ts,tsx}'],
    plugins: { 'import-x': importX, 'react-hooks': reactHooks },
    settings: {
      'import-x/resolver-next': [createTypeScriptImportResolver({ project: `${root}/tsconfig.app.json` })],
      // The files import-x reads to follow imports (no-cycle); its default is JavaScript only.
      'import-x/extensions': ['.ts', '.tsx', '.js', '.jsx'],
      'import-x/parsers': { '@typescript-eslint/parser': ['.ts', '.tsx'] },
    },
    rules: {
      ...reactHooks.configs.flat.recommended.rules,
      'import-x/no-restricted-paths': ['error', { basePath: root, zones: [...boundaryZones, ...roomZones] }],
      // No circle anywhere in src: a module and what it imports form a tree (a circle is a layer that is not one).
      'import-x/no-cycle': ['error', { ignoreExternal: true }],
    },
  },
  {
    // Every CSV the product writes escapes formula-leading cells (issue 29): through src/lib/csv.ts.
    files: ['src/**/*.{ts,tsx}'],
    ignores: ['src/lib/csv.ts', 'src/**/*.test.{ts,tsx}'],
    rules: {
      'no-restricted-syntax': [
        'error',
        { selector: "MemberExpression[property.name='unparse']", message: 'Write CSV with csvOf (src/lib/csv.ts): it escapes cells a spreadsheet would run as formulas.' },
      ],
    },
  },
  {
    // Node-side code: configs, the e2e and conformance suites, scripts.
    files: ['*.{js,ts}', 'e2e/**', 'conformance/**', 'scripts/**'],
    languageOptions: { globals: { ...globals.node } },
  },
  {
    // Fakes of async APIs in tests are async functions without await: `async` is what turns
    // their `throw` into a rejected promise, as the real API does.
    // `expect(fake.method).toHaveBeenCalled…` hands Vitest a method reference it never
    // calls, which unbound-method cannot tell from a real unbound call.
    files: ['**/*.test.{ts,tsx}', 'e2e/**', 'conformance/**'],
    rules: { '@typescript-eslint/require-await': 'off', '@typescript-eslint/unbound-method': 'off' },
  },
  {
    files: ['**/*.js', '**/*.mjs'],
    extends: [tseslint.configs.disableTypeChecked],
  },
);
