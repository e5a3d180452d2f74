#!/bin/sh
# Start-up step of the shell image (run by nginx's /docker-entrypoint.sh from /docker-entrypoint.d/, as the
# unprivileged nginx user, before nginx starts). Writes what this deployment decides, not the build:
#   remotes.json  where the shell finds its remotes' manifests (AUTH_REMOTE_URL, TASKS_REMOTE_URL);
#   csp.conf      the Content-Security-Policy header: the build's script hashes, plus the origins of remotes
#                 served from another origin (a CDN), which the browser would block otherwise.
# Both go to /tmp, the one place the unprivileged image writes anyway (works with a read-only root file system).
# SHELL_RUNTIME_DIR and SHELL_CSP_TEMPLATE exist for the tests (deploy/checks); deployments leave them alone.
set -eu

out="${SHELL_RUNTIME_DIR:-/tmp/shell-runtime}"
template="${SHELL_CSP_TEMPLATE:-/etc/nginx/shell/csp.conf.template}"
auth="${AUTH_REMOTE_URL:-/remotes/auth/mf-manifest.json}"
tasks="${TASKS_REMOTE_URL:-/remotes/tasks/mf-manifest.json}"

# A path on this origin or an http(s) URL, made of characters that need no escaping in JSON or nginx config.
valid_url() {
  printf '%s' "$1" | grep -Eq '^(/[A-Za-z0-9._~%+@=&-][A-Za-z0-9._~:/%+@=?&-]*|https?://[A-Za-z0-9.-]+(:[0-9]+)?(/[A-Za-z0-9._~:/%+@=?&-]*)?)$'
}

origins=""
for pair in "AUTH_REMOTE_URL=$auth" "TASKS_REMOTE_URL=$tasks"; do
  name="${pair%%=*}"
  url="${pair#*=}"
  if ! valid_url "$url"; then
    echo "40-shell-runtime.sh: $name must be a path on this origin (/remotes/…/mf-manifest.json) or an http(s) URL; got '$url'" >&2
    exit 1
  fi
  case "$url" in
    http://* | https://*)
      origin="$(printf '%s' "$url" | sed -E 's#^(https?://[^/]+).*$#\1#')"
      case " $origins " in *" $origin "*) ;; *) origins="${origins:+$origins }$origin" ;; esac
      ;;
  esac
done

mkdir -p "$out"
printf '{"mfe_auth": "%s", "mfe_tasks": "%s"}\n' "$auth" "$tasks" > "$out/remotes.json.tmp"
mv "$out/remotes.json.tmp" "$out/remotes.json"
sed "s#@REMOTE_ORIGINS@#$origins#g" "$template" > "$out/csp.conf.tmp"
if grep -q '@[A-Z_]*@' "$out/csp.conf.tmp"; then
  echo "40-shell-runtime.sh: unfilled placeholder in $template" >&2
  exit 1
fi
mv "$out/csp.conf.tmp" "$out/csp.conf"
echo "40-shell-runtime.sh: remotes: mfe_auth=$auth mfe_tasks=$tasks; extra CSP origins: ${origins:-none}"
