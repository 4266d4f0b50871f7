import { SEALED, SealSpec } from '../../foundation/ledger/seals';

/**
 * How every table and column of the database is proven (issue 34): an auditor's map, and what
 * test/e2e/integrity/proof.spec.ts holds the catalog to. A table the map does not name, or a column of a
 * rebuilt table it does not name, fails that test: a new column cannot slip outside the proof.
 *
 * - `sealed`: every column is in the row's keyed seal (src/foundation/ledger/seals.ts), but the ones listed:
 *   `omit` (never meaningful) and `running` (an open shoe's counters, rebuilt from its coups).
 * - `rebuilt`: each column is rebuilt from the keyed audit entry that wrote the row and compared
 *   (src/integrity/audit/ledger-checks.ts); the text says from what.
 * - `derived`: figures computed from proven records, recomputed by the reconciliation.
 * - `chain`: the audit log itself, keyed entry by entry, its heads pinned by signed checkpoints.
 * - `keyed`: the service's working state that decides what people see (a retry's answer, how far
 *   surveillance and the event stream got, surveillance's working copies), keyed under the audit key
 *   and held to what the audit log records of it (issue 49; the reason says how); `omit`: columns no
 *   one reads a meaning from.
 * - `operational`: no record of the casino's, and nothing anyone sees changes with it unseen (the reason says why).
 */
export type Proof =
  | { readonly by: 'sealed'; readonly omit?: Readonly<Record<string, string>>; readonly running?: Readonly<Record<string, string>> }
  | { readonly by: 'rebuilt'; readonly columns: Readonly<Record<string, string>> }
  | { readonly by: 'keyed'; readonly why: string; readonly omit?: Readonly<Record<string, string>> }
  | { readonly by: 'derived' | 'chain' | 'operational'; readonly why: string };

const sealed = (relation: keyof typeof SEALED, extra: Omit<Extract<Proof, { by: 'sealed' }>, 'by'> = {}): Proof => {
  const spec: SealSpec = SEALED[relation];
  for (const c of spec.omit ?? []) if (!extra.omit?.[c]) throw new Error(`proof: ${relation}.${c} is left out of the seal without a reason`);
  for (const c of spec.volatile ?? []) if (!extra.running?.[c]) throw new Error(`proof: ${relation}.${c} is left out of an open row's seal without a rebuild`);
  return { by: 'sealed', ...extra };
};

const SETTLE = 'the coup.settle entry';
const ROLLUP =
  'Sums of the settled wagers and coups, voids taken out: the reconciliation (GET /v1/reports/reconciliation) rebuilds every figure and names any that differ';

const OPEN_SEALED =
  'while open or withdrawn (placed on a coup taking bets, withdrawn, returned), the seal; a sealed bet leaves its seal only by being settled after it was placed (a withdrawn one never does)';
const CARRIED = 'a tie bet still waiting: the bet it was carried from, and the coup.settle entry that carried it';

export const PROOF: Readonly<Record<string, Proof>> = {
  coups: {
    by: 'rebuilt',
    columns: {
      id: `${SETTLE}'s subject; a coup taking bets: its seal (coup.open)`,
      shoe_id: `${SETTLE}'s shoeId`,
      table_id: `${SETTLE}'s stream`,
      number: `${SETTLE}'s number`,
      status: `SETTLED exactly when ${SETTLE} exists`,
      player_cards: `${SETTLE}'s cards`,
      banker_cards: `${SETTLE}'s cards`,
      winner: `${SETTLE}'s winner`,
      player_total: `${SETTLE}'s totals`,
      banker_total: `${SETTLE}'s totals`,
      card_count: 'the number of its cards',
      natural: 'four cards, and a two-card total of 8 or 9',
      opened_at: "the coup.open entry's openedAt, else (a whole coup) its settledAt",
      settled_at: `${SETTLE}'s settledAt`,
      gaming_day: `${SETTLE}'s gamingDay`,
      limits_id: `${SETTLE}'s limitsId (none: the table's opening limits), which must be the change of the latest table.limits entry of its table's stream before the coup; a coup taking bets: its seal (coup.open)`,
      property_id: "its shoe's property (ledger check: property)",
      recorded_offline_at: `${SETTLE}'s recordedOfflineAt (none: sent when recorded)`,
    },
  },
  wagers: {
    by: 'rebuilt',
    columns: {
      id: `${SETTLE}'s wagers; ${OPEN_SEALED}; ${CARRIED}`,
      coup_id: `${SETTLE}'s subject; a waiting tie bet: the coup taking bets that took it up`,
      shoe_id: `${SETTLE}'s shoeId`,
      seat: `${SETTLE}'s wagers`,
      bet_type: `${SETTLE}'s wagers`,
      amount: `${SETTLE}'s wagers`,
      dead_chips: `${SETTLE}'s wagers (dead: true; none: cash chips); ${OPEN_SEALED}; ${CARRIED}`,
      patron_id: `${SETTLE}'s wagers`,
      status: `SETTLED exactly when ${SETTLE} lists it; ${OPEN_SEALED}`,
      result: `${SETTLE}'s wagers`,
      payout: `${SETTLE}'s wagers`,
      commission: `${SETTLE}'s wagers`,
      net: `${SETTLE}'s wagers`,
      carried_from_id: `${SETTLE}'s wagers; ${CARRIED}`,
      placed_at: "the coup.open or coup.wagers entry that placed it, else the settling time of the coup it was carried from, else its own coup's",
      settled_at: `${SETTLE}'s settledAt`,
      seating_id: `${SETTLE}'s wagers`,
      gaming_day: `${SETTLE}'s gamingDay`,
      property_id: "its shoe's property (ledger check: property)",
    },
  },
  commission_entries: {
    by: 'rebuilt',
    columns: {
      id: `an accrual: its wager's id (${SETTLE}); a collection or a void's reversal: its seal`,
      shoe_id: `${SETTLE}'s shoeId`,
      table_id: `${SETTLE}'s stream`,
      seat: "the accruing wager's seat",
      patron_id: "the accruing wager's patron",
      kind: `ACCRUAL exactly for each wager ${SETTLE} says owes commission`,
      amount: "the wager's commission",
      coup_id: `${SETTLE}'s subject`,
      wager_id: `${SETTLE}'s wagers`,
      created_by_key_id: `${SETTLE}'s key`,
      created_at: `${SETTLE}'s settledAt`,
      gaming_day: 'none for an accrual; a collection: its seal',
      property_id: "its shoe's property (ledger check: property)",
    },
  },
  properties: sealed('properties'),
  casino_tables: sealed('casino_tables'),
  table_limits: sealed('table_limits'),
  shoes: sealed('shoes', {
    omit: { version: 'a concurrency token moved by every write to the shoe; it records nothing' },
    running: {
      remaining: "while open, rebuilt from the shoe's decks, burns and its coups not voided (ledger check 'shoes')",
      cards_dealt: 'while open, rebuilt likewise',
      coup_count: 'while open, rebuilt likewise',
      open_coup_id: 'while open, the coup of the shoe taking bets',
      last_coup_number: "while open, the highest number of the shoe's coups",
    },
  }),
  api_keys: sealed('api_keys'),
  staff: sealed('staff'),
  staff_changes: sealed('staff_changes'),
  key_revocations: sealed('key_revocations'),
  patrons: sealed('patrons'),
  seatings: sealed('seatings'),
  dealer_shifts: sealed('dealer_shifts'),
  exchange_rates: sealed('exchange_rates'),
  pace_targets: sealed('pace_targets'),
  buy_ins: sealed('buy_ins'),
  buy_in_voids: sealed('buy_in_voids'),
  markers: sealed('markers'),
  marker_payments: sealed('marker_payments'),
  cash_transactions: sealed('cash_transactions'),
  chip_exchanges: sealed('chip_exchanges'),
  rolling_programmes: sealed('rolling_programmes'),
  junket_operators: sealed('junket_operators'),
  junket_agents: sealed('junket_agents'),
  junket_memberships: sealed('junket_memberships'),
  junket_account_entries: sealed('junket_account_entries'),
  junket_player_credit: sealed('junket_player_credit'),
  junket_statements: sealed('junket_statements'),
  credit_requests: sealed('credit_requests'),
  credit_decisions: sealed('credit_decisions'),
  credit_lines: sealed('credit_lines'),
  marker_write_offs: sealed('marker_write_offs'),
  marker_deposits: sealed('marker_deposits'),
  credit_policies: sealed('credit_policies'),
  table_sessions: sealed('table_sessions'),
  table_slips: sealed('table_slips'),
  slip_voids: sealed('slip_voids'),
  coup_voids: sealed('coup_voids'),
  banks: sealed('banks'),
  bank_coups: sealed('bank_coups'),
  bank_coup_voids: sealed('bank_coup_voids'),
  void_requests: sealed('void_requests'),
  surveillance_alerts: sealed('surveillance_alerts'),
  surveillance_alert_steps: sealed('surveillance_alert_steps'),
  device_holds: sealed('device_holds'),
  device_reports: {
    by: 'operational',
    why: "what a table's devices reported, kept as evidence (migration 20261229100000_table_devices): no figure is read from it; a coup the reports gave is proven by its coup.settle entry (its cards and wagers) and a hold by its seal, so a report changed afterwards changes no record and no figure",
  },
  device_readings: {
    by: 'operational',
    why: "the device judge's working memory of each table, rebuilt by replaying the table's reports; it decides only whether the next coup is settled or held, and each of those is proven by its own entry",
  },
  wager_rollups: { by: 'derived', why: ROLLUP },
  month_rollups: { by: 'derived', why: ROLLUP },
  table_day_rollups: { by: 'derived', why: ROLLUP },
  patron_rollups: { by: 'derived', why: ROLLUP },
  patron_coup_rollups: { by: 'derived', why: ROLLUP },
  limit_rollups: { by: 'derived', why: ROLLUP },
  audit_log: { by: 'chain', why: "each entry's payload and stream under its MAC; order and completeness by the hash chain and the signed heads" },
  audit_heads: { by: 'chain', why: 'recomputed from the entries and compared; pinned by each signed checkpoint' },
  audit_unkeyed: { by: 'chain', why: 'where each stream began to be keyed (migration 20261123110000_audit_keyed); a later entry without a MAC is a finding' },
  audit_checkpoints: {
    by: 'chain',
    why: "each stored checkpoint's Ed25519 signature and its chain to the one before are checked; the auditor keeps copies outside",
  },
  row_seals: { by: 'chain', why: 'each seal is keyed and bound to the entry that wrote it, which names the row: checked both ways' },
  seal_baseline: { by: 'chain', why: 'rows recorded before the seals, listed once by their migration; the database refuses any change to the list' },
  ledger_archive_steps: { by: 'chain', why: 'each month detached or attached with its figures, checked against the coup.settle entries of that month' },
  idempotency_records: {
    by: 'keyed',
    why: "each answer's MAC under the audit key over its id, API key, Idempotency-Key, request, status and answer (never replayed without it; a coup's answer is checked against the ledger too); every entry written with an answer names it (\"answer\"), so one deleted is found; a computation's answer, named by no entry, recomputes the same if deleted",
    omit: {
      created_at: 'when the record was written: nothing reads it since no claim waits to go stale',
      completed_at: 'when the answer was stored: the MAC, not this time, says it was answered',
    },
  },
  event_relay_cursors: {
    by: 'keyed',
    why: "each cursor's MAC under the audit key (written only by the relay, after JetStream acknowledged); never behind what the relay recorded publishing (relay.progress, at most a minute apart, less than JetStream's duplicate window)",
    omit: { published_at: 'when the relay last moved it: nothing reads it' },
  },
  surveillance_cursors: {
    by: 'keyed',
    why: "each cursor's MAC under the audit key; where each of the surveyor's passes read from and to (survey.pass): the passes follow one another without a gap, and end where the cursor stands",
    omit: { updated_at: 'when the surveyor last moved it: nothing reads it' },
  },
  coup_surveillance: {
    by: 'keyed',
    why: 'per shoe, how many rows the surveyor wrote and a keyed digest of their images, recorded by each pass (survey.pass): a row changed, added or deleted no longer adds up',
  },
  shoe_runs: { by: 'keyed', why: 'per shoe, how many windows the surveyor indexed and a keyed digest of them, recorded by each pass (survey.pass)' },
  _prisma_migrations: {
    by: 'operational',
    why: "which migrations ran, no record of play: a row rewritten makes the next start refuse (its checksum differs); one deleted has its migration applied again at the next start, which fails on what it made (or, a function's text, makes it once more as it was)",
  },
};

/** The monthly partitions and archived months of the partitioned ledgers: the ledger's own proof covers them. */
export const PARTITION_OF = /^(coups|wagers)_(\d{4}_\d{2}|open)$/;
