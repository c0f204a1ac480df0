#!/usr/bin/env python3
"""Wraps a root filesystem tar as a one-layer image in the docker-archive format (what `docker save` writes and
`podman load` and Jib's tar:// base image read): manifest.json, the image config and the layer, with fixed
timestamps so the same root filesystem always gives the same image id.

Usage: docker-archive.py ROOTFS_TAR NAME:TAG OUTPUT_TAR
"""
import hashlib
import io
import json
import sys
import tarfile

EPOCH = "2023-11-14T22:13:20Z"  # SOURCE_DATE_EPOCH=1700000000, as base-image.sh builds the root filesystem


def sha256_of(path):
    digest = hashlib.sha256()
    with open(path, "rb") as f:
        for chunk in iter(lambda: f.read(1 << 20), b""):
            digest.update(chunk)
    return digest.hexdigest()


def add_bytes(archive, name, data):
    info = tarfile.TarInfo(name)
    info.size = len(data)
    info.mtime = 1700000000
    info.mode = 0o644
    archive.addfile(info, io.BytesIO(data))


def main(rootfs, reference, output):
    layer_digest = sha256_of(rootfs)
    config = {
        "architecture": "amd64",
        "os": "linux",
        "created": EPOCH,
        "config": {
            "Env": [
                "PATH=/usr/local/sbin:/usr/local/bin:/usr/sbin:/usr/bin:/sbin:/bin",
                "LANG=C.UTF-8",
                "JAVA_HOME=/usr/lib/jvm/java-17-openjdk-amd64",
            ],
            # The unprivileged user the chart runs as; numeric, so Kubernetes' runAsNonRoot can check it.
            "User": "185",
            "WorkingDir": "/",
        },
        "rootfs": {"type": "layers", "diff_ids": ["sha256:" + layer_digest]},
        "history": [{"created": EPOCH, "created_by": "deploy/images/base-image.sh (mmdebstrap)"}],
    }
    config_bytes = json.dumps(config, sort_keys=True, separators=(",", ":")).encode()
    config_name = hashlib.sha256(config_bytes).hexdigest() + ".json"
    layer_name = layer_digest + "/layer.tar"
    manifest = [{"Config": config_name, "RepoTags": [reference], "Layers": [layer_name]}]
    with tarfile.open(output, "w", format=tarfile.PAX_FORMAT) as archive:
        add_bytes(archive, config_name, config_bytes)
        info = archive.gettarinfo(rootfs, arcname=layer_name)
        info.mtime, info.uid, info.gid, info.uname, info.gname = 1700000000, 0, 0, "", ""
        with open(rootfs, "rb") as f:
            archive.addfile(info, f)
        add_bytes(archive, "manifest.json", json.dumps(manifest).encode())


if __name__ == "__main__":
    if len(sys.argv) != 4:
        sys.exit(__doc__)
    main(*sys.argv[1:])
