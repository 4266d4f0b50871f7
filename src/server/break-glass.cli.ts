/**
 * npm run break-glass -- --staff E-10442 [--name "Mei Ling Chan"] --reason "…" --present "…" --present "…" [--lost E-… …]
 *
 * The day fewer than two administrators hold a usable key of their own (both left, their keys
 * lost), nothing can change the staff register through the API. Run with the database
 * (DATABASE_URL: the service's role is enough) and the service's audit key (AUDIT_KEYS, or
 * AUDIT_KEYS_FILE), in front of the people named with --present: makes one person an active
 * administrator and mints their key (printed once), after revoking every key of the persons named
 * with --lost, recorded under the audit key by a `staff.breakGlass` entry that the verification
 * lists (docs/operations.md, "Break-glass"). Run it once per administrator, until two hold keys.
 * Exit 0: done; 1: refused or failed, nothing written; 2: wrong arguments or environment.
 */
import { Client } from 'pg';
import { auditKeyringFromFile, parseAuditKeys } from '../platform/config/keyring';
import { breakGlass, BreakGlassRefused, BreakGlassRequest } from '../integrity/staff/break-glass';

const USAGE =
  'Usage: DATABASE_URL=postgres://… AUDIT_KEYS=… npm run break-glass -- --staff STAFF_ID [--name "NAME"] --reason "WHY" --present "WHO" --present "WHO" [--lost STAFF_ID …]';

function usage(problem: string): never {
  console.error(`${problem}\n${USAGE}`);
  process.exit(2);
}

const STAFF_ID = /^[A-Za-z0-9._-]{1,64}$/;

function parseArgs(argv: string[]): BreakGlassRequest {
  let staffId: string | null = null;
  let name: string | null = null;
  let reason: string | null = null;
  const present: string[] = [];
  const lost: string[] = [];
  for (let i = 0; i < argv.length; i++) {
    const value = argv[i + 1];
    if (value === undefined || value.startsWith('--')) usage(`${argv[i]} needs a value`);
    if (argv[i] === '--staff') staffId = value;
    else if (argv[i] === '--name') name = value;
    else if (argv[i] === '--reason') reason = value;
    else if (argv[i] === '--present') present.push(value);
    else if (argv[i] === '--lost') lost.push(value);
    else usage(`Unknown argument: ${argv[i]}`);
    i++;
  }
  if (!staffId || !STAFF_ID.test(staffId)) usage('Give the staff number of the person to make an administrator (--staff)');
  for (const s of lost) if (!STAFF_ID.test(s)) usage(`--lost ${s} is not a staff number`);
  if (!reason || reason.trim().length < 3) usage('Say why (--reason): the incident, the ticket');
  if (name !== null && name.trim() === '') usage('--name is empty');
  return { staffId, name: name?.trim() ?? null, reason: reason.trim(), present: present.map((p) => p.trim()), lost };
}

async function main(): Promise<void> {
  const request = parseArgs(process.argv.slice(2));
  const databaseUrl = process.env.DATABASE_URL;
  if (!databaseUrl) usage('Set DATABASE_URL to the database (the service’s role is enough)');
  let keyring;
  try {
    keyring = process.env.AUDIT_KEYS
      ? parseAuditKeys(process.env.AUDIT_KEYS)
      : process.env.AUDIT_KEYS_FILE
        ? auditKeyringFromFile(process.env.AUDIT_KEYS_FILE, false)
        : usage('Set AUDIT_KEYS (or AUDIT_KEYS_FILE) to the service’s audit key: break-glass is recorded under it');
  } catch (e) {
    return usage(`The audit key: ${(e as Error).message}`);
  }
  const db = new Client({ connectionString: databaseUrl });
  await db.connect();
  try {
    const done = await breakGlass(db, keyring, request);
    console.log(
      `Break-glass recorded (admin stream, entry ${done.seq}, staff.breakGlass): ${done.staffId} is an active administrator` +
        (done.revokedKeys.length ? `; ${done.revokedKeys.length} lost key(s) revoked` : '') +
        '.',
    );
    console.log(`Their key, shown this once (they claim it now, in front of you: POST /v1/api-keys/claim):`);
    console.log(done.key);
  } finally {
    await db.end();
  }
}

if (require.main === module) {
  main().catch((e: Error) => {
    console.error(e instanceof BreakGlassRefused ? `Refused, nothing was written: ${e.message}` : `break-glass failed, nothing was written: ${e.message}`);
    process.exit(1);
  });
}
