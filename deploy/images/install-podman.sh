#!/usr/bin/env bash
set -euo pipefail
# What the container images need on a Debian machine (docs/operations.md, "Images"): ./mvnw -Dherald.images builds
# them (the root pom's local-images profile) on a base image made from Debian's packages by mmdebstrap, and
# ContainerSuiteIT and ./herald up --containers run them. Debian's podman runs them with Debian's runc (crun
# cannot create containers under this machine's hybrid cgroups); podman's default ulimits cannot be set here, so the
# containers keep the host's.
if [ ! -x /usr/bin/podman ] || [ ! -x /usr/sbin/runc ] || [ ! -x /usr/bin/mmdebstrap ]; then
  echo "installing podman, runc and mmdebstrap for the container images"
  sudo_cmd=""
  if [ "$(id -u)" -ne 0 ]; then sudo_cmd="sudo"; fi
  $sudo_cmd apt-get update -q
  DEBIAN_FRONTEND=noninteractive $sudo_cmd apt-get install -y -q --no-install-recommends podman runc mmdebstrap
fi
containers_conf=/etc/containers/containers.conf
if ! grep -qs '^default_ulimits' "$containers_conf"; then
  sudo_cmd=""
  if [ "$(id -u)" -ne 0 ]; then sudo_cmd="sudo"; fi
  if grep -qs '^\[containers\]' "$containers_conf"; then
    $sudo_cmd sed -i '/^\[containers\]/a default_ulimits = []' "$containers_conf"
  else
    printf '[containers]\ndefault_ulimits = []\n' | $sudo_cmd tee -a "$containers_conf" >/dev/null
  fi
fi
podman --version
