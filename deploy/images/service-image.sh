#!/usr/bin/env bash
# Builds one module's image with podman (deploy/images/Containerfile) on the base image that base-image.sh makes from
# Debian's packages, after Quarkus has packaged the module's target/quarkus-app. Maven runs it in every module with an
# image (the root pom's local-images profile, -Dherald.images); docs/operations.md, "Images", says what an image holds.
#
# The image is herald/<module>:<tag> in podman's storage, its id in <module>/target/image.id (what ./herald up
# --containers runs, so two checkouts never run each other's build under the shared tag). The image that name named
# before is removed once it has no name left. With a registry, the image is pushed there too, as
# <registry>/herald/<module>:<tag>, the names the Helm chart pulls (credentials: podman login <registry> beforehand).
#
# Usage: deploy/images/service-image.sh MODULE_DIR TAG [REGISTRY]
set -euo pipefail
module_dir="$(cd "$1" && pwd)"
tag="$2"
registry="${3:-}"
name="$(basename "$module_dir")"
ref="herald/$name:$tag"
images="$(cd "$(dirname "$0")" && pwd)"
started=$(date +%s)

# The base image, from base-image.sh's cache into podman's storage once (parallel module builds wait on the tar's lock).
base_tar="$("$images/base-image.sh")"
base="herald/base:$(basename "$base_tar" .tar | sed 's/^herald-base-//')"
exec 8<"$base_tar"
flock 8
podman image exists "$base" || podman load --quiet --input "$base_tar" >/dev/null
exec 8<&-
# The commit the image is built from, and its time as the image's: the same commit and jars give the same image id.
revision="$(git -C "$module_dir" rev-parse HEAD 2>/dev/null || echo unknown)"
timestamp="$(git -C "$module_dir" log -1 --format=%ct 2>/dev/null || echo 0)"

previous="$(podman image inspect --format '{{.Id}}' "$ref" 2>/dev/null || true)"
podman build --quiet --pull=never --layers --timestamp="$timestamp" \
  --file="$images/Containerfile" \
  --build-arg=BASE="$base" --build-arg=NAME="$name" --build-arg=VERSION="$tag" --build-arg=REVISION="$revision" \
  --tag="$ref" --iidfile="$module_dir/target/image.id" \
  "$module_dir/target/quarkus-app" >/dev/null
current="$(cat "$module_dir/target/image.id")"
# The image this build replaces under the same name would stay behind untagged, a few hundred MB per service and
# build: removed once it has no name at all (podman removes an image by id whatever names it still has), unless a
# container still runs it.
if [[ -n "$previous" && "$previous" != "$current" ]] \
  && [[ "$(podman image inspect --format '{{len .RepoTags}}' "$previous" 2>/dev/null)" == "0" ]]; then
  podman rmi "$previous" >/dev/null 2>&1 || true
fi
echo "service-image.sh: built $ref ($current) in $(( $(date +%s) - started )) s"

if [[ -n "$registry" ]]; then
  podman push --quiet "$ref" "$registry/herald/$name:$tag"
  echo "service-image.sh: pushed $registry/herald/$name:$tag"
fi
