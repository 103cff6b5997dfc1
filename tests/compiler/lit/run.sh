#!/bin/sh
# SPDX-License-Identifier: Apache-2.0
# Runs one IR test with lit: run.sh LIT SUITE TEST PLUGIN TOOLS. Skipped
# (77) where the plugin is not built or LLVM's lit, opt or FileCheck is not
# installed (llvm-15-tools).
lit=$1 suite=$2 test=$3 plugin=$4 tools=$5
[ -n "$plugin" ] && [ -f "$plugin" ] || { echo "no plugin built: skipped"; exit 77; }
for tool in "$lit" "$tools/opt" "$tools/FileCheck" "$tools/not"; do
    [ -e "$tool" ] || { echo "no $tool (llvm-15-tools): skipped"; exit 77; }
done
exec python3 "$lit" -v --param exec="${test%.ll}" "$suite/$test"
