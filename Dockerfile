# Sabot service image: build with the full toolchain, run with production dependencies only.
FROM node:20.20-bookworm-slim AS build
WORKDIR /app
ENV SCARF_ANALYTICS=false
COPY package.json package-lock.json ./
COPY scripts ./scripts
COPY prisma ./prisma
COPY prisma.config.ts ./
RUN npm ci
COPY tsconfig.json tsconfig.build.json nest-cli.json ./
COPY src ./src
COPY bench ./bench
RUN npm run build && npm prune --omit=dev --ignore-scripts

FROM node:20.20-bookworm-slim
WORKDIR /app
ENV NODE_ENV=production PORT=3000
COPY --from=build /app/package.json ./
COPY --from=build /app/node_modules ./node_modules
COPY --from=build /app/dist ./dist
COPY --from=build /app/prisma ./prisma
USER node
EXPOSE 3000
HEALTHCHECK --interval=10s --timeout=3s --start-period=20s CMD node -e "fetch('http://127.0.0.1:3000/health').then(r=>process.exit(r.ok?0:1)).catch(()=>process.exit(1))"
# A small V8 heap keeps the service well under 300 MB under load (BENCHMARKS.md).
CMD ["node", "--max-old-space-size=192", "--max-semi-space-size=8", "--heap-growing-percent=100", "dist/src/main.js"]
