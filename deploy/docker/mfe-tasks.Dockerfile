# syntax=docker/dockerfile:1
# mfe-tasks remote served by nginx under /remotes/tasks/. Build from the repository root:
#   docker build -f deploy/docker/mfe-tasks.Dockerfile -t task-manager/mfe-tasks .
# Deployed on its own: the shell finds it through remotes.json and its mf-manifest.json, never through a rebuild.

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
RUN pnpm --filter mfe-tasks run build

FROM nginxinc/nginx-unprivileged:1.27-alpine AS runtime
USER root
RUN rm -rf /usr/share/nginx/html/*
COPY deploy/docker/nginx/mfe-tasks.conf /etc/nginx/conf.d/default.conf
COPY --from=build /repo/mfe-tasks/dist/ /usr/share/nginx/html/remotes/tasks/
# The task list asks for /sounds/*.mp3 and /svgs/*.svg on the page's origin.
COPY --from=build /repo/mfe-tasks/dist/sounds/ /usr/share/nginx/html/sounds/
COPY --from=build /repo/mfe-tasks/dist/svgs/ /usr/share/nginx/html/svgs/
# uid 101 is the image's unprivileged nginx user; it listens on 8080.
USER 101
EXPOSE 8080
# nginx finishes the requests in flight on SIGQUIT (the base image's choice, kept explicit).
STOPSIGNAL SIGQUIT
HEALTHCHECK --interval=10s --timeout=3s --start-period=5s --retries=3 \
  CMD ["wget", "-qO-", "http://127.0.0.1:8080/healthz"]
