#!/bin/sh
# Start-up step of the shell image (run by nginx's /docker-entrypoint.sh from /docker-entrypoint.d/, as the
# unprivileged nginx user, before nginx starts). Writes what this deployment decides, not the build:
#   remotes.json  the remote catalog (which remotes, their manifests, their routes), taken whole from
#                 REMOTES_CATALOG (JSON text) or else from the file REMOTES_CATALOG_FILE names
#                 (deploy/generated/remotes-catalog.json in compose, written by `pnpm deploy:render`;
#                 docs/DEPLOY.md "The remote catalog");
#   csp.conf      the Content-Security-Policy header: the build's script hashes, plus the origins of remotes
#                 served from another origin (a CDN), which the browser would block otherwise.
# With REMOTE_OVERRIDES (as the gateway's; docs/ADDING_A_REMOTE.md "Trying your remote against the
# real shell"): off (the default), on (http://127.0.0.1:* and http://localhost:*, this machine of each browser),
# or a comma-separated list of origins (plain http only for those two hosts): remotes.json gets
# "overrides": {"origins": [...]}, which is what the shell goes by, and the CSP allows those origins where it
# allows a CDN's. A catalog may not say "overrides" itself.
# Both go to /tmp, the one place the unprivileged image writes anyway (works with a read-only root file system).
# The image has no JSON tool: this checks the shape the shell relies on (an object with "remotes", every
# manifest a path on this origin or an http(s) URL); the shell checks the rest on each page load, and
# deploy/checks check the generated catalog with the same function.
# SHELL_RUNTIME_DIR and SHELL_CSP_TEMPLATE exist for the tests (deploy/checks); deployments leave them alone.
set -eu
# No pathname expansion: origins such as http://127.0.0.1:* are split into words below.
set -f

out="${SHELL_RUNTIME_DIR:-/tmp/shell-runtime}"
template="${SHELL_CSP_TEMPLATE:-/etc/nginx/shell/csp.conf.template}"

fail() {
  echo "40-shell-runtime.sh: $*" >&2
  exit 1
}

if [ -n "${REMOTES_CATALOG:-}" ]; then
  catalog="$REMOTES_CATALOG"
  source="REMOTES_CATALOG"
elif [ -n "${REMOTES_CATALOG_FILE:-}" ]; then
  [ -r "$REMOTES_CATALOG_FILE" ] || fail "REMOTES_CATALOG_FILE $REMOTES_CATALOG_FILE cannot be read"
  catalog="$(cat "$REMOTES_CATALOG_FILE")"
  source="REMOTES_CATALOG_FILE $REMOTES_CATALOG_FILE"
else
  fail "set REMOTES_CATALOG (the catalog as JSON) or REMOTES_CATALOG_FILE (a file holding it): the shell loads its remotes from it"
fi

# One line, so that grep sees every "manifest" whatever the layout.
flat="$(printf '%s' "$catalog" | tr '\r\n\t' '   ')"
case "$flat" in
  *[![:space:]]*) ;;
  *) fail "$source is empty" ;;
esac
trimmed="$(printf '%s' "$flat" | sed -E 's/^[[:space:]]+//; s/[[:space:]]+$//')"
case "$trimmed" in
  '{'*'}') ;;
  *) fail "$source must be a JSON object ({\"remotes\": {…}})" ;;
esac
printf '%s' "$flat" | grep -Eq '"remotes"[[:space:]]*:[[:space:]]*\{' || fail "$source must have a \"remotes\" object"

if printf '%s' "$flat" | grep -Eq '"overrides"[[:space:]]*:'; then
  fail "$source must not say \"overrides\": REMOTE_OVERRIDES decides that"
fi

# REMOTE_OVERRIDES → the allowed origins, space-separated (the same rules as gateway/src/config.ts).
override_origins=""
setting="$(printf '%s' "${REMOTE_OVERRIDES:-}" | tr 'A-Z' 'a-z' | tr -d '[:space:]')"
if [ -n "$setting" ] && [ "$setting" != off ]; then
  for item in $(printf '%s' "$setting" | tr ',' ' '); do
    case "$item" in
      on) add='http://127.0.0.1:* http://localhost:*' ;;
      *)
        printf '%s' "$item" | grep -Eq '^(http://(127\.0\.0\.1|localhost)|https://[a-z0-9]([a-z0-9-]*[a-z0-9])?(\.[a-z0-9]([a-z0-9-]*[a-z0-9])?)*)(:(\*|[1-9][0-9]{0,4}))?$' ||
          fail "REMOTE_OVERRIDES: '$item' is not off, on, or an origin such as http://127.0.0.1:* or https://preview.example.com (plain http only for 127.0.0.1 and localhost; no path, no wildcard host)"
        add="$item"
        ;;
    esac
    for origin in $add; do
      case " $override_origins " in *" $origin "*) ;; *) override_origins="${override_origins:+$override_origins }$origin" ;; esac
    done
  done
fi

# A path on this origin or an http(s) URL, made of characters that need no escaping in JSON or nginx config.
valid_url() {
  printf '%s' "$1" | grep -Eq '^(/[A-Za-z0-9._~%+@=&-][A-Za-z0-9._~:/%+@=?&-]*|https?://[A-Za-z0-9.-]+(:[0-9]+)?(/[A-Za-z0-9._~:/%+@=?&-]*)?)$'
}

# Every "manifest" value, one a line (a value holding an escaped quote is cut there and then refused).
manifests="$(printf '%s' "$flat" | grep -oE '"manifest"[[:space:]]*:[[:space:]]*("[^"]*"|[^",}[:space:]]+)' | sed -E 's/^"manifest"[[:space:]]*:[[:space:]]*//' || true)"
[ -n "$manifests" ] || fail "$source names no remote (no \"manifest\")"

origins=""
count=0
newline='
'
IFS_before="$IFS"
IFS="$newline"
for quoted in $manifests; do
  IFS="$IFS_before"
  count=$((count + 1))
  case "$quoted" in
    '"'*'"') url="${quoted#\"}"; url="${url%\"}" ;;
    *) fail "$source: a manifest must be a JSON string; got $quoted" ;;
  esac
  if ! valid_url "$url"; then
    fail "$source: a manifest must be a path on this origin (/remotes/…/mf-manifest.json) or an http(s) URL; got '$url'"
  fi
  case "$url" in
    http://* | https://*)
      origin="$(printf '%s' "$url" | sed -E 's#^(https?://[^/]+).*$#\1#')"
      case " $origins " in *" $origin "*) ;; *) origins="${origins:+$origins }$origin" ;; esac
      ;;
  esac
  IFS="$newline"
done
IFS="$IFS_before"

if [ -n "$override_origins" ]; then
  list=""
  for origin in $override_origins; do
    list="${list:+$list,}\"$origin\""
    case " $origins " in *" $origin "*) ;; *) origins="${origins:+$origins }$origin" ;; esac
  done
  # The catalog is one JSON object (checked above): "overrides" goes in before its closing brace.
  catalog="${trimmed%\}},\"overrides\":{\"origins\":[$list]}}"
fi

mkdir -p "$out"
printf '%s\n' "$catalog" > "$out/remotes.json.tmp"
mv "$out/remotes.json.tmp" "$out/remotes.json"
sed "s#@REMOTE_ORIGINS@#$origins#g" "$template" > "$out/csp.conf.tmp"
if grep -q '@[A-Z_]*@' "$out/csp.conf.tmp"; then
  fail "unfilled placeholder in $template"
fi
mv "$out/csp.conf.tmp" "$out/csp.conf"
echo "40-shell-runtime.sh: remote catalog from $source: $count remote(s); extra CSP origins: ${origins:-none}; remote overrides: ${override_origins:-off}"
