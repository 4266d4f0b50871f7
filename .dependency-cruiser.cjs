/**
 * Dependency rules, checked in `npm test` (npm run lint): what keeps the house standing rather than
 * discipline. Type-only imports count too (tsPreCompilationDeps): a cycle of types is still a knot.
 */
module.exports = {
  forbidden: [
    { name: 'no-circular', severity: 'error', comment: 'No import circles.', from: {}, to: { circular: true } },
    {
      name: 'domain-is-pure',
      severity: 'error',
      comment: 'The engine (rules, settlement, odds, accounting) imports nothing but itself: no framework, no database, no validation.',
      from: { path: '^src/domain/' },
      to: { pathNot: ['^src/domain/'] },
    },
    { name: 'src-not-from-tests', severity: 'error', comment: 'The service never imports tests or benchmarks.', from: { path: '^src/' }, to: { path: '^(test|bench)/' } },
  ],
  options: {
    tsPreCompilationDeps: true,
    tsConfig: { fileName: 'tsconfig.build.json' },
    exclude: { path: '^src/generated/' },
    doNotFollow: { path: 'node_modules' },
  },
};
