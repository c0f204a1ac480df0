#!/usr/bin/env bash
# Builds Herald's base image from Debian's packages: bookworm's essential set plus openjdk-17-jre-headless, made by
# mmdebstrap, written as a docker-archive tar that service-image.sh loads into podman as the services' base.
# No registry is involved: the packages come from Debian's archive, as apt-get's do.
#
# The tar is cached under a key of what goes into it (this script's commands, not its comments, and the candidate
# versions of the packages it installs), so a second build of the same key returns at once; a newer JRE in the
# archive makes a new key. Prints the path of the tar. Concurrent builds (Maven's -T) wait on a lock and reuse the
# first one's result.
#
# Usage: deploy/images/base-image.sh            prints the cached tar's path, building it first if missing
#        HERALD_IMAGE_CACHE=dir ...             cache directory (default ~/.cache/herald/images)
set -euo pipefail

packages=(openjdk-17-jre-headless)
suite=bookworm
cache="${HERALD_IMAGE_CACHE:-$HOME/.cache/herald/images}"
mkdir -p "$cache"

versions=""
for package in "${packages[@]}"; do
  # The host's apt lists name the archive's current version; without them the key is the script alone.
  versions+="$package=$(apt-cache policy "$package" 2>/dev/null | awk '/Candidate:/ {print $2}');"
done
key=$( { grep -v '^ *#' "$0"; echo "$suite $versions"; } | sha256sum | cut -c1-16)
tar="$cache/herald-base-$key.tar"

exec 9>"$cache/.lock"
flock 9
if [ -s "$tar" ]; then
  echo "$tar"
  exit 0
fi

if ! command -v mmdebstrap >/dev/null 2>&1; then
  echo "base-image.sh: mmdebstrap is missing (apt-get install mmdebstrap)" >&2
  exit 1
fi

# The archive the host's apt uses (its sources files, pasted into the image's sources), so the image gets what
# apt-get install would: the suite, its updates and security updates. Without any, mmdebstrap's default mirror.
sources=()
for file in /etc/apt/sources.list /etc/apt/sources.list.d/*.sources /etc/apt/sources.list.d/*.list; do
  if [ -s "$file" ]; then sources+=("$file"); fi
done

work=$(mktemp -d "$cache/build.XXXXXX")
trap 'rm -rf "$work"' EXIT
started=$(date +%s)

# A fixed timestamp makes every file's mtime, and so the tar, the same on every build of the same packages.
export SOURCE_DATE_EPOCH=1700000000
# --variant=essential: Debian's Essential: yes packages (dpkg, coreutils, the shells apt's maintainer scripts need)
# and the JRE's dependencies; no apt, no init. The customize hooks then remove what a running service never uses:
# documentation, locales (the JRE's update-alternatives still wants man1 to exist while it installs), apt's and
# dpkg's caches, and the shells' binaries (the service's entrypoint is java itself; dpkg cannot purge them, as their
# own removal scripts need a shell, so dpkg's database still lists them).
mmdebstrap --variant=essential --include="$(IFS=,; echo "${packages[*]}")" \
  --dpkgopt='path-exclude=/usr/share/doc/*' --dpkgopt='path-exclude=/usr/share/man/*' \
  --dpkgopt='path-exclude=/usr/share/info/*' --dpkgopt='path-exclude=/usr/share/locale/*' \
  --essential-hook='mkdir -p "$1/usr/share/man/man1"' \
  --customize-hook='echo "herald:x:185:185:Herald:/tmp:/usr/sbin/nologin" >> "$1/etc/passwd"' \
  --customize-hook='echo "herald:x:185:" >> "$1/etc/group"' \
  --customize-hook='rm -rf "$1"/var/cache/* "$1"/var/lib/apt/lists/* "$1"/var/log/* "$1"/tmp/*' \
  --customize-hook='rm -f "$1"/usr/bin/bash "$1"/usr/bin/rbash "$1"/usr/bin/dash "$1"/usr/bin/sh' \
  "$suite" "$work/rootfs.tar" "${sources[@]}"

python3 "$(dirname "$0")/docker-archive.py" "$work/rootfs.tar" "herald/base:$key" "$work/image.tar"
mv "$work/image.tar" "$tar"
echo "base-image.sh: built $tar in $(( $(date +%s) - started )) s" >&2
echo "$tar"
