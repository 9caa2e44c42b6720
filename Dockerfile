# ledger-node: one image for every service (`ledger-node serve <service>`) and the supervisor.
# README "Deploy on Kubernetes": build with `docker build -t ledger-node .`.

# Build stage: the production dependencies only, with the toolchain the RocksDB binding compiles with.
FROM node:20.20.2-bookworm AS build
WORKDIR /app
COPY package.json package-lock.json tsconfig.base.json tsconfig.json ./
COPY apps/ apps/
COPY libs/ libs/
RUN npm ci --omit=dev && npm cache clean --force

# Run stage: the slim image, the sources and their dependencies, nothing else; not root.
FROM node:20.20.2-bookworm-slim
ENV NODE_ENV=production \
    PATH=/app/node_modules/.bin:$PATH
WORKDIR /app
COPY --from=build /app /app
# The data directory is a volume; the root filesystem can be read-only (give /tmp a writable
# volume: the TypeScript loader keeps its cache there).
RUN mkdir -p /data && chown node:node /data
VOLUME ["/data"]
# The `node` user of the official image (uid 1000).
USER 1000:1000
ENTRYPOINT ["ledger-node"]
CMD ["--help"]
