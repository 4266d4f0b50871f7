#!/usr/bin/env node
// Generates the Prisma client into src/generated/prisma.
// The Prisma CLI wants to download a native schema engine that these machines cannot reach;
// `generate` never uses it, so point PRISMA_SCHEMA_ENGINE_BINARY at an existing file to skip
// the download (docs/decisions.md, 'Migrations'). Where a real engine is configured, it is kept.
const { execFileSync } = require('node:child_process');
const path = require('node:path');

const env = { ...process.env };
if (!env.PRISMA_SCHEMA_ENGINE_BINARY) env.PRISMA_SCHEMA_ENGINE_BINARY = process.execPath;
env.PRISMA_HIDE_UPDATE_MESSAGE = '1';
env.CHECKPOINT_DISABLE = '1';
const cli = path.join(__dirname, '..', 'node_modules', 'prisma', 'build', 'index.js');
execFileSync(process.execPath, [cli, 'generate'], { stdio: 'inherit', env, cwd: path.join(__dirname, '..') });
