import { defineConfig } from 'prisma/config';

// No `env('DATABASE_URL')` here: it throws even for `prisma generate` when the variable is unset.
export default defineConfig({
  schema: 'prisma/schema.prisma',
  migrations: { path: 'prisma/migrations' },
  datasource: { url: process.env.DATABASE_URL ?? '' },
});
