#!/usr/bin/env node
// Checks an OpenAPI document two ways: swagger-parser validates it against the OpenAPI 3 schema
// (every $ref resolved), and Redocly's engine lints it with its `recommended` rules, the same
// rules as `redocly lint --extends=recommended`. Prints every problem (`--json`: one JSON object).
// Exit 1 when the document is invalid or any lint problem is an error.
// Used by `npm run openapi:lint` and by test/e2e/openapi.spec.ts.
import SwaggerParser from '@apidevtools/swagger-parser';
import { createConfig, lint } from '@redocly/openapi-core';
import fs from 'node:fs';

const file = process.argv[2] ?? 'openapi.json';
let invalid = null;
try {
  await SwaggerParser.validate(JSON.parse(fs.readFileSync(file, 'utf8')));
} catch (e) {
  invalid = e.message;
}
const problems = await lint({ ref: file, config: await createConfig({ extends: ['recommended'] }) });
const rows = problems.map((p) => ({ severity: p.severity, rule: p.ruleId, message: p.message, at: p.location?.[0]?.pointer ?? '' }));
if (process.argv.includes('--json')) {
  console.log(JSON.stringify({ invalid, problems: rows }));
} else {
  console.log(invalid ? `${file} is not valid OpenAPI: ${invalid}` : `${file} is valid OpenAPI`);
  for (const r of rows) console.log(`${r.severity} ${r.rule}: ${r.message} (${r.at})`);
  console.log(`${file}: ${rows.filter((r) => r.severity === 'error').length} errors, ${rows.filter((r) => r.severity === 'warn').length} warnings`);
}
process.exit(invalid || rows.some((r) => r.severity === 'error') ? 1 : 0);
