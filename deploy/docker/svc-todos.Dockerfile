# syntax=docker/dockerfile:1
# svc-todos: the tasks of each user, scoped to the signed user id. Build from the repository root:
#   docker build -f deploy/docker/svc-todos.Dockerfile -t task-manager/svc-todos .
# Runs with NODE_ENV=production: INTERNAL_SECRET must be set (and MONGO_URL in any real deployment), and
# VAPID_PUBLIC_KEY / VAPID_PRIVATE_KEY for reminders by push (without them none is sent: SECURITY.md "Reminders").

FROM node:24-bookworm-slim AS build
# better-sqlite3 is native: a prebuilt binary normally downloads, this toolchain is the fallback.
RUN apt-get update \
 && apt-get install -y --no-install-recommends python3 make g++ \
 && rm -rf /var/lib/apt/lists/*
# The version in package.json's "packageManager" (no corepack).
RUN npm install -g pnpm@10.34.9
WORKDIR /repo
ENV CI=true
# Packages are fetched from the lockfile alone, so this layer stays cached until the lockfile changes.
COPY pnpm-lock.yaml pnpm-workspace.yaml .npmrc ./
RUN pnpm fetch
COPY . .
RUN pnpm install --offline --frozen-lockfile
# Only this app and the packages it references (contracts, service-kit), without tests or test helpers (tsconfig.json).
RUN pnpm exec tsc -b svc-todos
# The app with its production dependencies only; workspace packages are copied in (not linked).
# pnpm 10 deploys from a shared lockfile only with inject-workspace-packages; --legacy needs no lockfile change.
RUN pnpm --filter svc-todos deploy --prod --legacy --offline /out
# Trim what never runs: compiled tests, and better-sqlite3's sources and build intermediates (the addon stays).
RUN find /out/dist /out/node_modules/.pnpm/@tm+* -name '*.test.*' -delete \
 && for d in /out/node_modules/.pnpm/better-sqlite3@*/node_modules/better-sqlite3; do \
      mv "$d/build/Release/better_sqlite3.node" /tmp/better_sqlite3.node \
      && rm -rf "$d/build" "$d/deps" "$d/src" \
      && mkdir -p "$d/build/Release" \
      && mv /tmp/better_sqlite3.node "$d/build/Release/better_sqlite3.node"; \
    done

FROM node:24-bookworm-slim AS runtime
ENV NODE_ENV=production \
    HOST=0.0.0.0 \
    TODOS_PORT=4002 \
    DATA_DIR=/data \
    SHUTDOWN_DRAIN_MS=5000
WORKDIR /app
# DATA_DIR is only written when no MONGO_URL is set (embedded SQLite); the app's files stay root-owned.
RUN mkdir -p /data && chown 1000:1000 /data
COPY --from=build /out/package.json ./package.json
COPY --from=build /out/node_modules ./node_modules
COPY --from=build /out/dist ./dist
# uid 1000 is the image's `node` user; numeric so Kubernetes can verify runAsNonRoot.
USER 1000:1000
EXPOSE 4002
STOPSIGNAL SIGTERM
HEALTHCHECK --interval=10s --timeout=3s --start-period=10s --retries=3 \
  CMD ["node", "-e", "fetch('http://127.0.0.1:'+(process.env.TODOS_PORT||4002)+'/healthz').then(r=>process.exit(r.ok?0:1),()=>process.exit(1))"]
CMD ["node", "dist/server.js"]
