import { Client } from 'pg';

/**
 * The frame of an operator's command-line tool on DATABASE_URL (npm run group, npm run ledger): one
 * connection for the command, closed after it. `run` answers false for a command it does not know;
 * then, or without DATABASE_URL, the usage is printed and the exit code is 2. A failure prints its
 * message and exits 1.
 */
export function databaseCli(usage: string, run: (db: Client, command: string | undefined, args: string[]) => Promise<boolean>): void {
  const fail = (problem: string, code: number) => {
    console.error(code === 2 ? `${problem}\nUsage: DATABASE_URL=postgres://… ${usage}` : problem);
    process.exit(code);
  };
  const [command, ...args] = process.argv.slice(2);
  const url = process.env.DATABASE_URL;
  if (!url) return fail('DATABASE_URL is not set', 2);
  const main = async () => {
    const db = new Client({ connectionString: url });
    await db.connect();
    try {
      if (!(await run(db, command, args))) fail(command ? `Unknown command or arguments: ${[command, ...args].join(' ')}` : 'Give a command', 2);
    } finally {
      await db.end();
    }
  };
  main().catch((e: Error) => fail(e.message, 1));
}
