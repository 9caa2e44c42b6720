import nx from '@nx/eslint-plugin';
import tsParser from '@typescript-eslint/parser';

/**
 * Module boundaries: an app may import libs only; a lib may import libs only; `scope:testing`
 * libs are for tests. Project tags live in each project's project.json.
 */
const boundaries = (forTests) => [
  'error',
  {
    enforceBuildableLibDependency: false,
    // Tests may drive the workspace's own tools (e.g. the contract generator).
    allow: forTests ? ['../../../tools/**', '../../tools/**'] : [],
    depConstraints: [
      { sourceTag: 'type:app', onlyDependOnLibsWithTags: ['type:lib'] },
      { sourceTag: 'type:lib', onlyDependOnLibsWithTags: ['type:lib'] },
      ...(forTests ? [] : [{ sourceTag: 'scope:shared', notDependOnLibsWithTags: ['scope:testing'] }]),
    ],
  },
];

const testFiles = ['**/*.test.ts', '**/test/**/*.ts', '**/src/**/test-*.ts'];

export default [
  ...nx.configs['flat/base'],
  // dist/ is the bundle `npm start` builds (its npm packages' own eslint comments included): output, not source.
  { ignores: ['**/node_modules/**', 'libs/contracts/src/gen/**', '.nx/**', 'test-output/**', 'bench/results/**', 'dist/**'] },
  {
    files: ['**/*.ts', '**/*.mts'],
    languageOptions: { parser: tsParser, parserOptions: { ecmaVersion: 'latest', sourceType: 'module' } },
    rules: {
      '@nx/enforce-module-boundaries': boundaries(false),
      'no-debugger': 'error',
      'no-empty': ['error', { allowEmptyCatch: false }],
    },
  },
  { files: testFiles, rules: { '@nx/enforce-module-boundaries': boundaries(true) } },
];
