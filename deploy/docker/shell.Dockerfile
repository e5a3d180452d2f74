# syntax=docker/dockerfile:1
# Shell (the host page) served by nginx. Build from the repository root:
#   docker build -f deploy/docker/shell.Dockerfile -t task-manager/shell .
# Which remotes it loads, where their manifests are and the routes they bring (the remote catalog,
# /remotes.json) come from the environment at start (REMOTES_CATALOG, or the file REMOTES_CATALOG_FILE names),
# so a remote is added, redeployed or moved without rebuilding this image. There is no default: a container
# without a catalog does not start.

FROM node:24-bookworm-slim AS build
# The version in package.json's "packageManager" (no corepack).
RUN npm install -g pnpm@10.34.9
WORKDIR /repo
ENV CI=true
# Packages are fetched from the lockfile alone, so this layer stays cached until the lockfile changes.
COPY pnpm-lock.yaml pnpm-workspace.yaml .npmrc ./
RUN pnpm fetch
COPY . .
# Rspack compiles the workspace packages from their sources (no tsc step) and needs no native module, so no
# dependency build script runs (better-sqlite3 is the backend's).
RUN pnpm install --offline --frozen-lockfile --ignore-scripts
RUN pnpm --filter shell run build
# remotes.json belongs to the deployment (written at container start), never to the build.
RUN rm -f shell/dist/remotes.json
# The CSP allows the inline pre-paint theme script by its sha256, as the gateway does: hash every inline
# <script> of the built index.html into the policy template.
RUN ["node", "-e", "const fs = require('fs'), crypto = require('crypto'); const html = fs.readFileSync('shell/dist/index.html', 'utf8'); const hashes = [...html.matchAll(/<script>([\\s\\S]*?)<\\/script>/g)].map((m) => `'sha256-${crypto.createHash('sha256').update(m[1]).digest('base64')}'`); const template = fs.readFileSync('deploy/docker/nginx/shell-csp.conf.template', 'utf8'); fs.writeFileSync('shell-csp.conf.template', template.replaceAll('@SCRIPT_HASHES@', hashes.join(' ')));"]

FROM nginxinc/nginx-unprivileged:1.27-alpine AS runtime
USER root
RUN rm -rf /usr/share/nginx/html/*
COPY deploy/docker/nginx/shell.conf /etc/nginx/conf.d/default.conf
COPY --from=build /repo/shell-csp.conf.template /etc/nginx/shell/csp.conf.template
COPY --chmod=0755 deploy/docker/shell-entrypoint.sh /docker-entrypoint.d/40-shell-runtime.sh
COPY --from=build /repo/shell/dist/ /usr/share/nginx/html/
# uid 101 is the image's unprivileged nginx user; it listens on 8080.
USER 101
EXPOSE 8080
# nginx finishes the requests in flight on SIGQUIT (the base image's choice, kept explicit).
STOPSIGNAL SIGQUIT
HEALTHCHECK --interval=10s --timeout=3s --start-period=5s --retries=3 \
  CMD ["wget", "-qO-", "http://127.0.0.1:8080/healthz"]
