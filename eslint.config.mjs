// ESLint (typescript-eslint, type-aware) for src/, bench/, test/ and the screens (app/src/): the rules that find real bugs
// (floating promises, misused promises, unsafe comparisons…); formatting is Prettier's job.
import tseslint from 'typescript-eslint';
import prettier from 'eslint-config-prettier';

export default tseslint.config(
  { ignores: ['dist/**', 'app/dist/**', 'app/src/generated/**', 'app/vite.config.mts', 'src/generated/**', 'test/client/generated/**', 'node_modules/**', 'data/**', 'scripts/**', '*.js', '*.mjs'] },
  ...tseslint.configs.recommendedTypeChecked,
  {
    languageOptions: { parserOptions: { projectService: true, tsconfigRootDir: import.meta.dirname } },
    rules: {
      // A leading underscore names what is deliberately left unused (a destructured field set aside).
      '@typescript-eslint/no-unused-vars': ['error', { argsIgnorePattern: '^_', varsIgnorePattern: '^_', destructuredArrayIgnorePattern: '^_', ignoreRestSiblings: true }],
    },
  },
  {
    // Tests read HTTP answers, which are JSON of no static type: the no-unsafe-* family would flag
    // every assertion on a response body. Everything else applies to tests as to the code.
    files: ['test/**/*.ts'],
    rules: {
      '@typescript-eslint/no-unsafe-member-access': 'off',
      '@typescript-eslint/no-unsafe-assignment': 'off',
      '@typescript-eslint/no-unsafe-argument': 'off',
      '@typescript-eslint/no-unsafe-call': 'off',
      '@typescript-eslint/no-unsafe-return': 'off',
      '@typescript-eslint/no-explicit-any': 'off',
    },
  },
  prettier,
);
