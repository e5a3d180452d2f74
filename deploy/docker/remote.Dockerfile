# syntax=docker/dockerfile:1
# Any Module Federation remote (a workspace package mfe-<key>), served by nginx under /remotes/<key>/: one
# Dockerfile for all of them, the package chosen by the REMOTE build argument. From the repository root:
#   docker build -f deploy/docker/remote.Dockerfile --build-arg REMOTE=mfe-tasks -t task-manager/mfe-tasks .
# Deployed on its own: the shell finds it through remotes.json and its mf-manifest.json, never through a rebuild.
# The path segment is the package name without `mfe-` (mfe-tasks → /remotes/tasks/), the convention the
# catalog, lb.conf and the Ingress follow too (deploy/render-remotes.mjs, deploy/checks/deployed-remotes.ts).

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
# Declared after the shared steps: the layers above are the same for every remote.
ARG REMOTE=mfe-tasks
RUN pnpm --filter ${REMOTE} run build
# Only this package's dist, staged where nginx serves it: /remotes/<key>/, plus the media a remote's pages
# load from the origin's root (/sounds/, /svgs/: only mfe-tasks has them; lb.conf sends those paths to it).
RUN set -eu; \
    case "$REMOTE" in mfe-[a-z]*) ;; *) echo "REMOTE=$REMOTE is not an mfe-<key> package" >&2; exit 1 ;; esac; \
    key="${REMOTE#mfe-}"; \
    test -f "$REMOTE/dist/mf-manifest.json"; \
    mkdir -p /srv/html/remotes; \
    cp -R "$REMOTE/dist" "/srv/html/remotes/$key"; \
    for media in sounds svgs; do \
      if [ -d "$REMOTE/dist/$media" ]; then cp -R "$REMOTE/dist/$media" "/srv/html/$media"; fi; \
    done

FROM nginxinc/nginx-unprivileged:1.27-alpine AS runtime
USER root
RUN rm -rf /usr/share/nginx/html/*
COPY deploy/docker/nginx/remote.conf /etc/nginx/conf.d/default.conf
COPY --from=build /srv/html/ /usr/share/nginx/html/
# uid 101 is the image's unprivileged nginx user; it listens on 8080.
USER 101
EXPOSE 8080
# nginx finishes the requests in flight on SIGQUIT (the base image's choice, kept explicit).
STOPSIGNAL SIGQUIT
HEALTHCHECK --interval=10s --timeout=3s --start-period=5s --retries=3 \
  CMD ["wget", "-qO-", "http://127.0.0.1:8080/healthz"]
