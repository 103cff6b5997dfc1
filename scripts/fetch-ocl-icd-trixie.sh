#!/usr/bin/env bash
# SPDX-License-Identifier: Apache-2.0
# Fetches Debian trixie's ocl-icd 2.3.3 (ICD2-aware) into DEST without
# touching the system's apt setup: a private sources list, lists and cache,
# then `apt-get download` and `dpkg -x`. Prints the library directory.
# Exits non-zero when the package cannot be had (no network, no such suite).
set -euo pipefail
dest=${1:?usage: fetch-ocl-icd-trixie.sh DEST}
libdir="$dest/root/usr/lib/$(dpkg-architecture -qDEB_HOST_MULTIARCH 2>/dev/null || echo x86_64-linux-gnu)"
if [ -e "$libdir/libOpenCL.so.1" ]; then echo "$libdir"; exit 0; fi
mkdir -p "$dest"/{lists/partial,cache/archives/partial,etc}
chmod -R a+rwX "$dest"   # apt downloads as user _apt
echo "deb http://deb.debian.org/debian trixie main" > "$dest/etc/sources.list"
apt_opts=(-q -o Dir::Etc::SourceList="$dest/etc/sources.list"
    -o Dir::Etc::SourceParts=/dev/null -o Dir::State::Lists="$dest/lists"
    -o Dir::Cache="$dest/cache" -o APT::Get::List-Cleanup=0)
apt-get "${apt_opts[@]}" update >&2
(cd "$dest" && apt-get "${apt_opts[@]}" download ocl-icd-libopencl1=2.3.3-1 >&2)
dpkg -x "$dest"/ocl-icd-libopencl1_2.3.3-1_*.deb "$dest/root"
[ -e "$libdir/libOpenCL.so.1" ]
echo "$libdir"
