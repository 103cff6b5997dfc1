#!/usr/bin/env bash
# SPDX-License-Identifier: Apache-2.0
# loadercheck/ocl-icd-<version>: refcl-loader-check against one version of
# ocl-icd, compared with that version's expectations file (the checks it is
# known to fail, each with the reason). A loader failing a check is a
# finding, not a test failure; a result that changes either way is.
# usage: check.sh <refcl-loader-check> <loader library> <librefcl> <version>
#                 <expectations file> <junit file>
set -u
checker=$1 loader=$2 refcl=$3 version=$4 expect=$5 junit=$6
if [ ! -e "$loader" ]; then
    echo "no ocl-icd $version at $loader: skipped"
    exit 77
fi
identity=$("$checker" --identify --loader "$loader")
case "$identity" in
*" $version)") ;;
*) echo "the loader at $loader is not ocl-icd $version ($identity): skipped"
   exit 77 ;;
esac
exec "$checker" --loader "$loader" --refcl "$refcl" --expect "$expect" \
    --junit "$junit"
