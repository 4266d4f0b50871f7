# Sourced by .ci/run (and by anyone whose machine has an older Node): puts Node.js 24, the LTS the
# project runs and is tested on (package.json "engines"), first on PATH. When the machine's Node is
# older, Node's own binary comes from the npm registry (the node-linux-<arch> package, as the `node`
# package installs it) into .tools/, once.
#   . scripts/use-node.sh
SABOT_NODE=24.21.0
if [ "$(node -p 'process.versions.node.split(".")[0]' 2>/dev/null || echo 0)" -lt 24 ]; then
  case "$(uname -m)" in
    x86_64) sabot_arch=x64 ;;
    aarch64 | arm64) sabot_arch=arm64 ;;
    *) echo "use-node.sh: no Node.js binary on the registry for $(uname -m)" >&2; return 1 2>/dev/null || exit 1 ;;
  esac
  sabot_dir="$(pwd)/.tools/node-v$SABOT_NODE-linux-$sabot_arch"
  if [ ! -x "$sabot_dir/bin/node" ]; then
    rm -rf "$sabot_dir.part" && mkdir -p "$sabot_dir.part"
    (cd "$sabot_dir.part" && npm pack --silent "node-linux-$sabot_arch@$SABOT_NODE" > /dev/null && tar xzf "node-linux-$sabot_arch-$SABOT_NODE.tgz") || return 1 2>/dev/null || exit 1
    mv "$sabot_dir.part/package" "$sabot_dir" && rm -rf "$sabot_dir.part"
  fi
  export PATH="$sabot_dir/bin:$PATH"
fi
