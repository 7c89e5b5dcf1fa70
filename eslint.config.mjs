// Lint: strict promise handling, exhaustive switches over the closed status unions, and the
// purity boundary of libs/domain (house style 2, 3, 12).
import * as path from 'node:path';
import js from '@eslint/js';
import tseslint from 'typescript-eslint';

// Apps and libs meet only through `@svc/*` aliases (architecture › Shape): a relative import may
// not reach into another app, out of an app into a lib, or out of a lib. Resolved against the
// importing file, so it catches every spelling of the path (what a pattern list cannot).
const ROOT = import.meta.dirname;
const boundaries = {
  meta: {
    type: 'problem',
    messages: {
      otherApp: "'{{spec}}' reaches into apps/{{target}}: apps meet only through @svc/* libraries.",
      leavesApp: "'{{spec}}' leaves apps/{{own}}: import libraries through their @svc/* alias.",
      leavesLib: "'{{spec}}' leaves libs/{{own}}: import other libraries through their @svc/* alias.",
    },
    schema: [],
  },
  create(context) {
    const [top, own] = path.relative(ROOT, context.filename).split(path.sep);
    const check = (node) => {
      const spec = node?.value;
      if (typeof spec !== 'string' || !spec.startsWith('.')) return;
      const [targetTop, target] = path
        .relative(ROOT, path.resolve(path.dirname(context.filename), spec))
        .split(path.sep);
      if (top === 'libs' && !(targetTop === 'libs' && target === own)) {
        context.report({ node, messageId: 'leavesLib', data: { spec, own } });
      } else if (top === 'apps' && targetTop === 'apps' && target !== own) {
        context.report({ node, messageId: 'otherApp', data: { spec, target } });
      } else if (top === 'apps' && targetTop !== 'apps') {
        context.report({ node, messageId: 'leavesApp', data: { spec, own } });
      }
    };
    return {
      ImportDeclaration: (n) => check(n.source),
      ExportNamedDeclaration: (n) => check(n.source),
      ExportAllDeclaration: (n) => check(n.source),
      ImportExpression: (n) => check(n.source),
    };
  },
};

export default tseslint.config(
  {
    ignores: [
      'dist/**',
      'node_modules/**',
      'apps/pay/.next/**',
      'apps/pay/.next-e2e/**',
      'apps/pay/next-env.d.ts',
      'coverage/**',
      '**/*.js',
      '**/*.mjs',
    ],
  },
  js.configs.recommended,
  ...tseslint.configs.recommended,
  {
    files: ['**/*.ts', 'apps/pay/**/*.tsx'],
    languageOptions: { parserOptions: { projectService: true, tsconfigRootDir: import.meta.dirname } },
    rules: {
      '@typescript-eslint/no-floating-promises': 'error',
      '@typescript-eslint/no-misused-promises': 'error',
      '@typescript-eslint/switch-exhaustiveness-check': ['error', { considerDefaultExhaustiveForUnions: true }],
      eqeqeq: ['error', 'always'],
      '@typescript-eslint/no-unused-vars': ['error', { argsIgnorePattern: '^_', varsIgnorePattern: '^_' }],
      '@typescript-eslint/no-explicit-any': 'off',
      '@typescript-eslint/no-unsafe-function-type': 'off',
      'no-console': 'off',
    },
  },
  {
    files: ['apps/**/*.ts', 'apps/**/*.tsx', 'libs/**/*.ts'],
    plugins: { svc: { rules: { boundaries } } },
    rules: { 'svc/boundaries': 'error' },
  },
  {
    // Statements name their columns (SqlService.columns): a migration that adds one does not change
    // what processes still running the old code read.
    files: ['apps/api/**/*.ts', 'apps/cli/**/*.ts', 'libs/**/*.ts'],
    ignores: ['**/*.spec.ts'],
    rules: {
      'no-restricted-syntax': [
        'error',
        {
          selector: 'Literal[value=/\\b(SELECT|RETURNING)\\s+\\*/i]',
          message: 'Name the columns (SqlService.columns(Entity)), not *.',
        },
        {
          selector: 'TemplateElement[value.raw=/\\b(SELECT|RETURNING)\\s+\\*/i]',
          message: 'Name the columns (SqlService.columns(Entity)), not *.',
        },
      ],
    },
  },
  {
    // IsOptional lets `null` through unvalidated; DTOs say what null means (README › Null in request bodies).
    files: ['apps/api/**/*.ts'],
    rules: {
      'no-restricted-imports': [
        'error',
        {
          paths: [
            {
              name: 'class-validator',
              importNames: ['IsOptional'],
              message: 'Use Optional, OptionalNotNull or NullClears from apps/api/src/common/optional.ts.',
            },
          ],
        },
      ],
    },
  },
  {
    // libs/domain is pure: no framework, no database, no chain client, no clock.
    files: ['libs/domain/**/*.ts'],
    ignores: ['libs/domain/**/*.spec.ts'],
    rules: {
      'no-restricted-imports': [
        'error',
        {
          patterns: [
            {
              group: ['@nestjs/*', 'typeorm', 'typeorm/*', 'bull', 'ioredis', 'ethers', '@mysten/*', 'pg'],
              message: 'libs/domain is pure (house style 2).',
            },
            { group: ['node:fs', 'node:net', 'node:http', 'fs', 'net', 'http'], message: 'libs/domain does no I/O.' },
          ],
        },
      ],
      'no-restricted-syntax': [
        'error',
        {
          selector: "NewExpression[callee.name='Date'][arguments.length=0]",
          message: 'libs/domain takes time as an argument: no new Date().',
        },
        {
          selector: "CallExpression[callee.object.name='Date'][callee.property.name='now']",
          message: 'libs/domain takes time as an argument: no Date.now().',
        },
      ],
    },
  },
);
