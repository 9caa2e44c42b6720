# ledger-node: one image for every service (`ledger-node serve <service>`) and the supervisor.
# docs/operating.md "Deploy on Kubernetes": build with `docker build -t ledger-node .`.

# Production dependencies only, from the lock file, with the toolchain the RocksDB binding compiles
# with. The workspace's own packages are in the bundle: their links to the sources go. npm needs
# each workspace's package.json and nothing else of it, so this stage copies only those: a change
# of the sources does not install the dependencies again (apps/node/src/image.test.ts checks the
# list against the workspaces).
# The Node.js is the LTS (26; libs/telemetry runtime-support.ts). The `rocksdb` package's prebuilt
# binding aborts on it, as on 22 and 24 (as it is loaded; it loads on 20), so its install compiles
# the binding from its sources (node-gyp, with the image's compiler), against the headers of the
# image's own Node.js (npm_config_nodedir: nothing is downloaded), on every core (JOBS).
FROM node:26.12.1-bookworm AS deps
ENV npm_config_nodedir=/usr/local JOBS=max
WORKDIR /app
COPY package.json package-lock.json ./
COPY apps/devnet/package.json apps/devnet/
COPY apps/facade/package.json apps/facade/
COPY apps/keystore/package.json apps/keystore/
COPY apps/ledger-store/package.json apps/ledger-store/
COPY apps/node/package.json apps/node/
COPY apps/submission/package.json apps/submission/
COPY apps/sync/package.json apps/sync/
COPY libs/chain/package.json libs/chain/
COPY libs/config/package.json libs/config/
COPY libs/contracts/package.json libs/contracts/
COPY libs/errors/package.json libs/errors/
COPY libs/grpc/package.json libs/grpc/
COPY libs/postgres/package.json libs/postgres/
COPY libs/proof/package.json libs/proof/
COPY libs/rippled-api/package.json libs/rippled-api/
COPY libs/telemetry/package.json libs/telemetry/
COPY libs/test-utils/package.json libs/test-utils/
COPY libs/upstream/package.json libs/upstream/
RUN npm ci --omit=dev && rm -rf node_modules/@ledger-node node_modules/.bin/ledger-node && npm cache clean --force

# The bundle (`npm run build`): every dependency, the bundler being a dev one. The build context
# has no .git: the commit `ledger-node version` reports comes in as a build argument
# (`docker build --build-arg COMMIT=$(git rev-parse HEAD) .`), else it is "unknown". The bundler
# needs no install script (esbuild's binary is a package of its own): none runs, so the RocksDB
# binding, which the deps stage compiles, is not compiled a second time here.
FROM node:26.12.1-bookworm AS build
ARG COMMIT=unknown
WORKDIR /app
COPY package.json package-lock.json tsconfig.base.json tsconfig.json ./
COPY apps/ apps/
COPY libs/ libs/
COPY tools/build/ tools/build/
RUN npm ci --ignore-scripts && npm run build -- --commit "$COMMIT"

# Run stage: the slim image, the bundle and the production dependencies, nothing else (no sources,
# no TypeScript loader); not root.
FROM node:26.12.1-bookworm-slim
# The data directory is the volume /data unless -data_dir says otherwise (LEDGER_NODE_<FLAG> sets a flag).
# Each service's young generation at Node.js 20's size, as the supervisor starts them: V8 from 24 on
# sizes it by the machine's memory, not the container's limit (docs/operating.md "Runtime").
ENV NODE_ENV=production LEDGER_NODE_DATA_DIR=/data NODE_OPTIONS=--max-semi-space-size=16
WORKDIR /app
COPY --from=deps /app/node_modules node_modules/
COPY --from=build /app/dist dist/
# The data directory is a volume; the root filesystem can be read-only (only `ledger-node account`
# without a running keystore writes elsewhere: its transient keystore's socket, under /tmp).
RUN mkdir -p /data && chown node:node /data && ln -s /app/dist/ledger-node.mjs /usr/local/bin/ledger-node
VOLUME ["/data"]
# The `node` user of the official image (uid 1000).
USER 1000:1000
ENTRYPOINT ["ledger-node"]
CMD ["--help"]
