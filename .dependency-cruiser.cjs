/**
 * Dependency rules, checked in `npm test` (npm run lint): what keeps the house standing rather than
 * discipline. Type-only imports count too (tsPreCompilationDeps): a cycle of types is still a knot.
 * test/unit/architecture.spec.ts holds the SQL files' `-- include:` lines to these same rules, which
 * dependency-cruiser cannot see.
 *
 * src/ is the casino (docs/architecture.md): each folder at its top is a floor, and the departments'
 * wings stand side by side on one floor. Rules are written per floor and per wing, never per room:
 * a new room inside a wing needs no edit here.
 *   server      the application: bootstrap, the app module, the command-line tools
 *   <wing>/<room>  the departments (table-games, patrons-and-cage, finance, integrity, operations):
 *               a room never imports another room, in its wing or another
 *   foundation/<room>  what every department stands on, side by side: access (who is calling), pit
 *               (tables and shoes as a write reads them), ledger (audit appends, rollups, commission)
 *   platform    config (the environment), common (errors, validation, the wire model, context),
 *               database (the client, transactions, migrations, named SQL), idempotency
 *   domain      the engine: the game's rules, money, patrons, finance and integrity formulas, pure
 */
const WINGS = '(table-games|patrons-and-cage|finance|integrity|operations)';
const FLOORS = `(server|${WINGS.slice(1, -1)}|foundation|platform|domain|generated)`;
const UNDER_FOUNDATION = ['^src/platform/', '^src/domain/', '^src/generated/'];

module.exports = {
  forbidden: [
    { name: 'no-circular', severity: 'error', comment: 'No import circles.', from: {}, to: { circular: true } },
    {
      name: 'every-file-has-a-floor',
      severity: 'error',
      comment: `src/ holds its floors and nothing else (${FLOORS}); a file of a wing or the foundation lives in a room of it.`,
      from: { path: '^src/', pathNot: [`^src/${FLOORS}/`] },
      to: {},
    },
    {
      name: 'rooms-in-rooms',
      severity: 'error',
      comment: 'A department wing, the foundation and the platform hold rooms (folders), not loose files.',
      from: { path: `^src/(${WINGS.slice(1, -1)}|foundation|platform)/[^/]+$` },
      to: {},
    },
    {
      name: 'domain-is-pure',
      severity: 'error',
      comment: 'The engine (rules, settlement, odds, accounting) imports nothing but itself: no framework, no database, no validation.',
      from: { path: '^src/domain/' },
      to: { pathNot: ['^src/domain/'] },
    },
    {
      name: 'platform-below-the-casino',
      severity: 'error',
      comment: 'The platform knows nothing of the foundation, the departments or the application.',
      from: { path: '^src/platform/' },
      to: { path: '^src/', pathNot: UNDER_FOUNDATION },
    },
    {
      name: 'config-stands-alone',
      severity: 'error',
      comment: 'The configuration reads the environment and imports nothing of the service but the engine.',
      from: { path: '^src/platform/config/' },
      to: { path: '^src/', pathNot: ['^src/platform/config/', '^src/domain/'] },
    },
    {
      name: 'common-on-the-ground',
      severity: 'error',
      comment: 'common imports only the engine and the configuration (the database and what stands on it use common).',
      from: { path: '^src/platform/common/' },
      to: { path: '^src/', pathNot: ['^src/platform/(common|config)/', '^src/domain/', '^src/generated/'] },
    },
    {
      name: 'foundation-side-by-side',
      severity: 'error',
      comment: 'The foundation stands on the platform and the engine, its rooms never on each other.',
      from: { path: '^src/foundation/([^/]+)/' },
      to: { path: '^src/', pathNot: ['^src/foundation/$1/', ...UNDER_FOUNDATION] },
    },
    {
      name: 'rooms-side-by-side',
      severity: 'error',
      comment:
        "A department's room stands on the foundation and below; it never imports another room, of its own wing or another (what two rooms share belongs to the foundation, the ledger or the engine).",
      from: { path: `^src/${WINGS}/([^/]+)/` },
      to: { path: '^src/', pathNot: ['^src/$1/$2/', '^src/foundation/', ...UNDER_FOUNDATION] },
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
