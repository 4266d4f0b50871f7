#!/usr/bin/env node
// Writes app/src/generated/roles.ts from openapi.json: for each operation (reads, and the writes a
// screen offers, such as acknowledging an alert), the roles that may call it (its `x-roles`). The
// screens build their navigation from it, so a screen is offered to exactly the roles the service
// lets read it, and a button to exactly the roles the service lets press it.
import fs from 'node:fs';

const [from = 'openapi.json', to = 'app/src/generated/roles.ts'] = process.argv.slice(2);
const doc = JSON.parse(fs.readFileSync(from, 'utf8'));
const roles = {};
for (const ops of Object.values(doc.paths)) for (const [method, op] of Object.entries(ops)) if (op['x-roles']) roles[op.operationId] = op['x-roles'];
fs.mkdirSync(new URL('.', `file://${process.cwd()}/${to}`), { recursive: true });
fs.writeFileSync(
  to,
  `// Written by scripts/app-roles.mjs from openapi.json: do not edit.\nexport const ROLES_OF: Record<string, readonly string[]> = ${JSON.stringify(roles)};\n`,
);
