# Sabot service image: build with the full toolchain, run with production dependencies only.
# test/e2e/operations/image.spec.ts builds it without a Docker engine: exactly what the COPY lines below name,
# in a clean folder, through these RUN lines, then starts the CMD and checks the HEALTHCHECK, a
# coup, a report, /docs and the screens.
FROM node:24.21-bookworm-slim AS build
WORKDIR /app
ENV SCARF_ANALYTICS=false
COPY package.json package-lock.json ./
COPY scripts ./scripts
COPY prisma ./prisma
COPY prisma.config.ts ./
RUN npm ci
COPY tsconfig.json tsconfig.build.json nest-cli.json openapi.json ./
COPY src ./src
COPY bench ./bench
COPY app ./app
RUN npm run build && npm prune --omit=dev --ignore-scripts

FROM node:24.21-bookworm-slim
WORKDIR /app
ENV NODE_ENV=production PORT=3000
COPY --from=build /app/package.json ./
COPY --from=build /app/node_modules ./node_modules
COPY --from=build /app/dist ./dist
COPY --from=build /app/prisma ./prisma
# The npm scripts' build check (it finds no sources here and runs dist as it is), for the CLIs:
# npm run audit:verify, ledger, group, db:migrate.
COPY --from=build /app/scripts ./scripts
COPY --from=build /app/app/dist ./app/dist
# The base image's unprivileged user (uid 1000): the service needs no root.
USER node
# The API, and /metrics (METRICS_PORT) for Prometheus inside the deployment's network.
EXPOSE 3000 9464
HEALTHCHECK --interval=10s --timeout=3s --start-period=300s CMD ["node", "-e", "fetch('http://127.0.0.1:' + (process.env.PORT || 3000) + '/health/ready').then((r) => process.exit(r.ok ? 0 : 1), () => process.exit(1))"]
# A small V8 heap keeps the service well under 300 MB under load (BENCHMARKS.md).
CMD ["node", "--max-old-space-size=192", "--max-semi-space-size=8", "--heap-growing-percent=100", "dist/src/server/main.js"]
