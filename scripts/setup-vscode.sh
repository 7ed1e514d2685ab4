#!/usr/bin/env bash
# Installs what the real-VS-Code test layer and `npm start` need, without downloading anything except
# from the npm registry and Debian's package archive (see ../shared/vscode-offline-testing.md):
#
#   - Debian packages: chromium, ripgrep, fonts-wqy-microhei (and a C/C++ tool chain + python3 for the native modules);
#   - code-server 4.104.0 (= VS Code 1.104.0) into .vscode-test/, with its install steps done by hand
#     because its own postinstall downloads things.
#
# Idempotent: when everything is in place a stamp file makes this a fast no-op. Safe to run from two
# processes at once (flock). Environment:
#   AUTOSNIPPET_VSCODE_DIR   install folder, absolute or relative to the repo (default: .vscode-test)
#   AUTOSNIPPET_SETUP_FORCE=1  redo every step
set -euo pipefail

ROOT="$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)"
DIR="${AUTOSNIPPET_VSCODE_DIR:-.vscode-test}"
case "$DIR" in /*) ;; *) DIR="$ROOT/$DIR" ;; esac
CS_VERSION="4.104.0"
CS="$DIR/node_modules/code-server"
VSC="$CS/lib/vscode"
NODE_ABI="$(node -p 'process.versions.modules + "-" + process.arch')"
STAMP="$DIR/code-server-$CS_VERSION-node$NODE_ABI.stamp"
STEPS="$DIR/.steps-$CS_VERSION-node$NODE_ABI"

log() { printf '[setup-vscode] %s\n' "$*" >&2; }
die() { printf '[setup-vscode] ERROR: %s\n' "$*" >&2; exit 1; }

# ---------------------------------------------------------------- Debian packages
# package -> a command it provides
# (fonts-wqy-microhei: a CJK font, so screenshots of the zh-cn UI show Chinese, not empty boxes)
declare -A NEED=([chromium]=chromium [ripgrep]=rg [fonts-wqy-microhei]=/usr/share/fonts/truetype/wqy/wqy-microhei.ttc)
apt_missing() {
  local missing=() pkg need
  for pkg in "$@"; do
    need="${NEED[$pkg]:-$pkg}"
    if [[ "$need" == /* ]]; then [ -e "$need" ] || missing+=("$pkg")
    elif ! command -v "$need" >/dev/null 2>&1; then missing+=("$pkg"); fi
  done
  echo "${missing[@]:-}"
}

apt_install() {
  local pkgs=("$@") sudo=()
  [ ${#pkgs[@]} -gt 0 ] || return 0
  if [ "$(id -u)" -ne 0 ]; then
    if command -v sudo >/dev/null 2>&1 && sudo -n true 2>/dev/null; then
      sudo=(sudo -n)
    else
      die "missing Debian packages: ${pkgs[*]}. Install them as root: apt-get install -y ${pkgs[*]}"
    fi
  fi
  command -v apt-get >/dev/null 2>&1 || die "missing packages ${pkgs[*]} and no apt-get on this machine; install them by hand"
  log "installing Debian packages: ${pkgs[*]}"
  export DEBIAN_FRONTEND=noninteractive
  # Refresh the package lists only when the archive does not know the packages yet (fresh image).
  if ! "${sudo[@]}" apt-get install -y --no-install-recommends "${pkgs[@]}" >"$DIR/apt.log" 2>&1; then
    log "apt-get install failed; running apt-get update and retrying"
    "${sudo[@]}" apt-get update >>"$DIR/apt.log" 2>&1 || { tail -20 "$DIR/apt.log" >&2; die "apt-get update failed (see $DIR/apt.log)"; }
    "${sudo[@]}" apt-get install -y --no-install-recommends "${pkgs[@]}" >>"$DIR/apt.log" 2>&1 \
      || { tail -20 "$DIR/apt.log" >&2; die "apt-get install ${pkgs[*]} failed (see $DIR/apt.log)"; }
  fi
}

mkdir -p "$DIR"

# Fast path: stamp present, key files present, browser and rg present. No lock, no npm.
fast_ok() {
  [ -z "${AUTOSNIPPET_SETUP_FORCE:-}" ] && [ -f "$STAMP" ] \
    && [ -f "$CS/out/node/entry.js" ] && [ -x "$VSC/node_modules/@vscode/ripgrep/bin/rg" ] \
    && [ -z "$(apt_missing chromium ripgrep fonts-wqy-microhei)" ]
}
if fast_ok; then
  exit 0
fi

exec 9>"$DIR/.lock"
flock 9
if fast_ok; then exit 0; fi   # another process finished it while we waited
[ -n "${AUTOSNIPPET_SETUP_FORCE:-}" ] && rm -rf "$STEPS" "$STAMP"

START=$SECONDS
step_t=$SECONDS
mkdir -p "$STEPS"
done_step() { touch "$STEPS/$1"; log "step $1 done ($((SECONDS - step_t))s)"; step_t=$SECONDS; }
have_step() { [ -f "$STEPS/$1" ]; }

# Native modules need a compiler and python3 only on the first install.
build_pkgs=()
if ! have_step native || ! have_step argon2; then
  NEED[g++]=g++; NEED[make]=make; NEED[python3]=python3
  read -r -a build_pkgs <<<"$(apt_missing g++ make python3)"
fi
read -r -a run_pkgs <<<"$(apt_missing chromium ripgrep fonts-wqy-microhei)"
apt_install "${run_pkgs[@]}" "${build_pkgs[@]}"
command -v chromium >/dev/null 2>&1 || die "chromium is still missing after apt-get"
command -v rg >/dev/null 2>&1 || die "rg (ripgrep) is still missing after apt-get"

# node-gyp must compile against the headers of the running Node, never download them.
NODE_PREFIX="$(dirname "$(dirname "$(command -v node)")")"
if [ -f "$NODE_PREFIX/include/node/node.h" ]; then
  export npm_config_nodedir="$NODE_PREFIX"
elif [ -n "${npm_config_nodedir:-}" ] && [ -f "$npm_config_nodedir/include/node/node.h" ]; then
  :
else
  die "no Node headers found at $NODE_PREFIX/include/node (node-gyp would try to download them). Install a Node build that ships its headers (e.g. Debian/NodeSource 'nodejs') or set npm_config_nodedir"
fi
export npm_config_update_notifier=false npm_config_fund=false npm_config_audit=false

npm_q() { # npm with output to the log; show the tail on failure
  local where="$1"; shift
  if ! (cd "$where" && npm "$@") >>"$DIR/setup.log" 2>&1; then
    tail -30 "$DIR/setup.log" >&2
    return 1
  fi
}
: >"$DIR/setup.log"

# 1. code-server itself, scripts off. Its own package.json here keeps npm from walking up to the repo's.
if ! have_step code-server; then
  log "npm install code-server@$CS_VERSION (scripts off)"
  [ -f "$DIR/package.json" ] || printf '{ "name": "autosnippet-vscode-test", "private": true }\n' >"$DIR/package.json"
  npm_q "$DIR" install --no-save --ignore-scripts --no-audit --no-fund "code-server@$CS_VERSION" || die "npm install code-server failed (see $DIR/setup.log)"
  [ -f "$CS/out/node/entry.js" ] || die "code-server installed without out/node/entry.js"
  done_step code-server
fi

# 2. VS Code's own dependencies, then its native modules against the local Node headers.
if ! have_step vscode-deps; then
  log "npm install in lib/vscode (production deps, scripts off)"
  npm_q "$VSC" install --omit=dev --ignore-scripts --no-audit --no-fund || die "npm install in lib/vscode failed (see $DIR/setup.log)"
  done_step vscode-deps
fi
NATIVE=(@vscode/spdlog @parcel/watcher native-watchdog @vscode/deviceid node-pty)
if ! have_step native; then
  log "npm rebuild ${NATIVE[*]} (compiles against the local Node headers)"
  npm_q "$VSC" rebuild @vscode/spdlog @parcel/watcher native-watchdog @vscode/deviceid \
    || die "npm rebuild of VS Code's native modules failed (see $DIR/setup.log)"
  # node-pty's post-install step (compile_commands via 'npx node-gyp') fails offline after pty.node is
  # built, so judge it by the built file and by loading it, not by the exit code.
  (cd "$VSC" && npm rebuild node-pty) >>"$DIR/setup.log" 2>&1 \
    || log "npm rebuild node-pty reported an error (expected: its compile_commands step); checking the module"
  [ -f "$VSC/node_modules/node-pty/build/Release/pty.node" ] \
    || { tail -40 "$DIR/setup.log" >&2; die "node-pty did not build (no build/Release/pty.node; see $DIR/setup.log)"; }
  for m in "${NATIVE[@]}"; do
    (cd "$VSC" && node -e "require('$m')") >>"$DIR/setup.log" 2>&1 \
      || { tail -20 "$DIR/setup.log" >&2; die "native module $m does not load (see $DIR/setup.log)"; }
  done
  (cd "$VSC" && node -e "require('./node_modules/node-pty/build/Release/pty.node')") >>"$DIR/setup.log" 2>&1 \
    || die "node-pty's pty.node does not load (see $DIR/setup.log)"
  done_step native
fi

# 3. ripgrep from Debian instead of @vscode/ripgrep's download.
mkdir -p "$VSC/node_modules/@vscode/ripgrep/bin"
if ! cmp -s "$(command -v rg)" "$VSC/node_modules/@vscode/ripgrep/bin/rg"; then
  cp "$(command -v rg)" "$VSC/node_modules/@vscode/ripgrep/bin/rg"
  chmod +x "$VSC/node_modules/@vscode/ripgrep/bin/rg"
fi

# 4. The server looks for node_modules.asar.
[ -e "$VSC/node_modules.asar" ] || ln -s node_modules "$VSC/node_modules.asar"

# 5. The built-in extensions' dependencies.
if ! have_step extensions; then
  log "npm install in lib/vscode/extensions"
  npm_q "$VSC/extensions" install --omit=dev --ignore-scripts --no-audit --no-fund || die "npm install in lib/vscode/extensions failed (see $DIR/setup.log)"
  done_step extensions
fi

# 6. argon2 (code-server's password hashing; loaded at start even with --auth none).
if ! have_step argon2; then
  log "npm rebuild argon2"
  argon_dir=""
  for d in "$CS/node_modules/argon2" "$DIR/node_modules/argon2"; do [ -d "$d" ] && { argon_dir="$d"; break; }; done
  [ -n "$argon_dir" ] || die "argon2 not found under $CS or $DIR"
  where="$CS"; [ "$argon_dir" = "$DIR/node_modules/argon2" ] && where="$DIR"
  npm_q "$where" rebuild argon2 || die "npm rebuild argon2 failed (see $DIR/setup.log)"
  (cd "$where" && node -e 'require("argon2")') >>"$DIR/setup.log" 2>&1 || die "argon2 does not load after rebuild (see $DIR/setup.log)"
  done_step argon2
fi

# Smoke check: the server entry point loads its CLI.
node "$CS/out/node/entry.js" --version >>"$DIR/setup.log" 2>&1 || { tail -30 "$DIR/setup.log" >&2; die "code-server --version failed (see $DIR/setup.log)"; }

printf 'code-server %s\nnode %s\n%s\n' "$CS_VERSION" "$(node -v)" "$(date -u +%FT%TZ)" >"$STAMP"
log "code-server $CS_VERSION ready in $DIR ($((SECONDS - START))s)"
