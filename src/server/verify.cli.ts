/**
 * npm run audit:verify -- --checkpoint FILE [--checkpoint FILE …] [--pin FINGERPRINT]
 *
 * The auditor's check, run from outside the service with checkpoints the auditor kept: reads
 * DATABASE_URL in one read-only, repeatable-read transaction and reports whatever shows that the
 * records were rewritten since the checkpoints were signed. With AUDIT_KEYS (or AUDIT_KEYS_FILE)
 * it also checks every entry's MAC. Exit 0: nothing found; 1: findings; 2: it could not check.
 */
import fs from 'node:fs';
import { Client } from 'pg';
import { bodyDigest, checkSignature, SignedCheckpoint } from '../integrity/audit/checkpoint';
import { AuditKeyring, auditKeyringFromFile, parseAuditKeys } from '../platform/config/keyring';
import { checkRecords } from '../integrity/audit/records';
import { compareWithCheckpoint, Finding, ledgerCounts, walkChains } from '../integrity/audit/verification';
import { BreakGlassEvent, breakGlassEvents } from '../integrity/audit/break-glass';

function usage(problem: string): never {
  console.error(`${problem}\nUsage: DATABASE_URL=postgres://… npm run audit:verify -- --checkpoint FILE [--checkpoint FILE …] [--pin KEY_FINGERPRINT]`);
  process.exit(2);
}

function parseArgs(argv: string[]): { files: string[]; pin: string | null } {
  const files: string[] = [];
  let pin: string | null = null;
  for (let i = 0; i < argv.length; i++) {
    if (argv[i] === '--checkpoint' && argv[i + 1]) files.push(argv[++i]);
    else if (argv[i] === '--pin' && argv[i + 1]) pin = argv[++i];
    else usage(`Unknown argument: ${argv[i]}`);
  }
  if (files.length === 0) usage('Give at least one --checkpoint FILE');
  return { files, pin };
}

export async function verifyAgainstCheckpoints(
  databaseUrl: string,
  checkpoints: SignedCheckpoint[],
  pin: string | null,
  keyring: AuditKeyring | null,
): Promise<{ findings: Finding[]; entries: number; macsChecked: boolean; breakGlass: BreakGlassEvent[] }> {
  const findings: Finding[] = [];
  const fingerprints = new Set(checkpoints.map((c) => c.keyFingerprint));
  for (const c of checkpoints) {
    const problem = checkSignature(c, pin);
    if (problem) findings.push({ stream: null, seq: null, id: null, reason: `checkpoint of ${c.body?.at}: ${problem}` });
  }
  if (pin === null && fingerprints.size > 1)
    findings.push({
      stream: null,
      seq: null,
      id: null,
      reason: `the checkpoints were signed by ${fingerprints.size} different keys: pin the service's with --pin`,
    });
  // Kept checkpoints chain: each names the digest of the one before it.
  const sorted = [...checkpoints].sort((a, b) => a.body.at.localeCompare(b.body.at));
  for (let i = 1; i < sorted.length; i++) {
    if (sorted[i].body.previous === bodyDigest(sorted[i - 1].body)) continue;
    if (sorted[i].body.previous === null)
      findings.push({
        stream: null,
        seq: null,
        id: null,
        reason: `the checkpoint of ${sorted[i].body.at} starts a new chain after the one of ${sorted[i - 1].body.at}: the checkpoint history was restarted`,
      });
  }
  const db = new Client({ connectionString: databaseUrl });
  await db.connect();
  try {
    await db.query('BEGIN ISOLATION LEVEL REPEATABLE READ READ ONLY');
    const walk = await walkChains(
      db,
      keyring,
      checkpoints.flatMap((c) => c.body.streams),
    );
    findings.push(...walk.findings, ...(await checkRecords(db, keyring)));
    const ledgers = await ledgerCounts(db);
    for (const c of sorted) findings.push(...compareWithCheckpoint(walk, c.body, ledgers));
    // The service keeps its own copy of every checkpoint it signed: one missing was removed.
    const stored = new Set((await db.query<{ digest: string }>('SELECT digest FROM audit_checkpoints')).rows.map((r) => r.digest));
    for (const c of sorted) {
      if (!stored.has(bodyDigest(c.body)))
        findings.push({
          stream: null,
          seq: null,
          id: null,
          reason: `the service's own copy of the checkpoint of ${c.body.at} is missing from the database: removed`,
        });
    }
    const breakGlass = await breakGlassEvents(db);
    await db.query('ROLLBACK');
    return { findings, entries: walk.entries, macsChecked: walk.macsChecked, breakGlass };
  } finally {
    await db.end();
  }
}

async function main(): Promise<void> {
  const { files, pin } = parseArgs(process.argv.slice(2));
  const databaseUrl = process.env.DATABASE_URL;
  if (!databaseUrl) usage('Set DATABASE_URL to the database to check (a read-only role is enough)');
  const checkpoints = files.map((f) => {
    try {
      return JSON.parse(fs.readFileSync(f, 'utf8')) as SignedCheckpoint;
    } catch (e) {
      return usage(`${f}: ${(e as Error).message}`);
    }
  });
  const keyring = process.env.AUDIT_KEYS
    ? parseAuditKeys(process.env.AUDIT_KEYS)
    : process.env.AUDIT_KEYS_FILE
      ? auditKeyringFromFile(process.env.AUDIT_KEYS_FILE, false)
      : null;
  const { findings, entries, macsChecked, breakGlass } = await verifyAgainstCheckpoints(databaseUrl, checkpoints, pin, keyring);
  console.log(
    `Checked ${entries} audit entries against ${checkpoints.length} checkpoint(s) signed by ${[...new Set(checkpoints.map((c) => c.keyFingerprint))].join(', ')}`,
  );
  if (!macsChecked) console.log('MACs not checked: give AUDIT_KEYS or AUDIT_KEYS_FILE to check them too');
  // Not a problem (keyed, sealed), but never silent: each administrator made outside the API.
  for (const b of breakGlass)
    console.log(
      `BREAK-GLASS at ${b.at} (stream ${b.stream} entry ${b.seq}): ${b.staffId} made an administrator with the database and the audit key; reason: ${b.reason}; present: ${b.present.join('; ')}${b.lost.length ? `; keys revoked as lost: ${b.lost.join(', ')}` : ''}`,
    );
  if (findings.length === 0) {
    console.log('OK: the records pass through every checkpoint; nothing was found rewritten or removed');
    return;
  }
  console.log(`FOUND ${findings.length} problem(s):`);
  for (const f of findings) console.log(`- ${f.stream ? `stream ${f.stream}${f.seq ? ` entry ${f.seq}` : ''}: ` : ''}${f.reason}`);
  process.exit(1);
}

if (require.main === module) {
  main().catch((e: Error) => {
    console.error(`audit:verify could not check: ${e.message}`);
    process.exit(2);
  });
}
