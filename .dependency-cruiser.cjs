/**
 * Dependency rules, checked in `npm test` (npm run lint): what keeps the house standing rather than
 * discipline. Type-only imports count too (tsPreCompilationDeps): a cycle of types is still a knot.
 *
 * The house has six floors, each importing only from the floors below it (ARCHITECTURE in the README):
 *   6  the application: src/*.ts (app, app.module, main, CLIs)
 *   5  features, side by side, never importing each other
 *   4  the foundation every feature stands on, side by side: access (who is calling), pit (tables and
 *      shoes as a write reads them), ledger (audit appends, rollups, the commission ledger)
 *   3  database (the client, transactions, migrations, named SQL helpers)
 *   2  common (errors, validation, the wire model, context, logging)
 *   1  domain (the engine, pure) and config (the environment, checked at boot)
 */
const FOUNDATION = '(access|pit|ledger)';
const FEATURES = '(api-keys|audit|banks|cash|commissions|coups|dealers|display|events|exchange-rates|group|health|idempotency|metrics|odds|patrons|properties|junkets|reports|rolling|shoes|staff|surveillance|table-accounting|tables|void-requests)';
const BELOW_DATABASE = ['^src/(domain|config|common)/', '^src/generated/'];

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
    {
      name: 'config-stands-alone',
      severity: 'error',
      comment: 'Floor 1: the configuration reads the environment and imports nothing of the service but the engine.',
      from: { path: '^src/config/' },
      to: { path: '^src/', pathNot: ['^src/(config|domain)/'] },
    },
    {
      name: 'common-on-the-ground',
      severity: 'error',
      comment: 'Floor 2: common imports only the engine and the configuration.',
      from: { path: '^src/common/' },
      to: { path: '^src/', pathNot: ['^src/(common|config|domain)/', '^src/generated/'] },
    },
    {
      name: 'database-below-features',
      severity: 'error',
      comment: 'Floor 3: the database layer knows nothing of the foundation, the features or the application.',
      from: { path: '^src/database/' },
      to: { path: '^src/', pathNot: ['^src/database/', ...BELOW_DATABASE] },
    },
    {
      name: 'foundation-side-by-side',
      severity: 'error',
      comment: 'Floor 4: access, pit and ledger stand on the database and below, and never on each other.',
      from: { path: `^src/${FOUNDATION}/` },
      to: { path: '^src/', pathNot: ['^src/$1/', '^src/database/', ...BELOW_DATABASE] },
    },
    {
      name: 'features-side-by-side',
      severity: 'error',
      comment:
        "Floor 5: a feature stands on the foundation and below; it never imports another feature (what two features share belongs to the foundation, the ledger or the engine).",
      from: { path: `^src/${FEATURES}/` },
      to: { path: '^src/', pathNot: ['^src/$1/', `^src/${FOUNDATION}/`, '^src/database/', ...BELOW_DATABASE] },
    },
    {
      name: 'every-room-has-a-floor',
      severity: 'error',
      comment: 'A new folder under src/ gets its floor here before it is used.',
      from: { path: '^src/[^/]+/', pathNot: [`^src/(${'domain|config|common|database|generated'}|${FOUNDATION.slice(1, -1)}|${FEATURES.slice(1, -1)})/`] },
      to: {},
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
