#!/usr/bin/env python3
# SPDX-License-Identifier: Apache-2.0
"""compiler/link-stubs: the link stubs define exactly what programs need.

The union of the stubs' dynamic symbols must equal needs.txt (the builtin
library's undefined symbols and compiler/link/codegen.txt) restricted to
what the real libraries export; every undefined symbol of the builtin
library that a real library exports must be in a stub (read here from the
bitcode itself, not from needs.txt); and functions no kernel may call are
in none.

Usage: link_stubs.py NM LLVM_NM BITCODE NEEDS STUB... -- LIBRARY...
"""
import subprocess
import sys

FORBIDDEN = ["system", "exit", "_exit", "unlink", "execve", "fork", "open",
             "fopen", "dlopen", "mmap", "syscall", "kill", "abort", "printf"]


def defined(nm, library):
    """The names @library defines in its default version or unversioned."""
    out = subprocess.run([nm, "-D", "--defined-only", library], check=True,
                         capture_output=True, text=True).stdout
    names = set()
    for line in out.splitlines():
        fields = line.split()
        if len(fields) != 3 or fields[1] not in set("TWiBDRV"):
            continue
        name, at, version = fields[2].partition("@")
        if not at or version.startswith("@"):
            names.add(name)
    return names


def main():
    nm, llvm_nm, bitcode, needs_path = sys.argv[1:5]
    rest = sys.argv[5:]
    split = rest.index("--")
    stubs, libraries = rest[:split], rest[split + 1:]
    with open(needs_path) as f:
        needs = {line.strip() for line in f if line.strip()}
    stubbed = set().union(*(defined(nm, s) for s in stubs))
    real = set().union(*(defined(nm, l) for l in libraries))
    out = subprocess.run([llvm_nm, "--undefined-only", "--just-symbol-name",
                          bitcode], check=True, capture_output=True,
                         text=True).stdout
    library_needs = {line.strip() for line in out.splitlines()} & real

    failures = 0
    for name in sorted(stubbed - needs):
        print(f"stubbed but not needed: {name}")
        failures += 1
    for name in sorted((needs & real) - stubbed):
        print(f"needed but not stubbed: {name}")
        failures += 1
    for name in sorted(library_needs - stubbed):
        print(f"the builtin library's, not stubbed: {name}")
        failures += 1
    for name in FORBIDDEN:
        if name in stubbed:
            print(f"forbidden but stubbed: {name}")
            failures += 1
    if not library_needs or "memcpy" not in stubbed:
        print("no builtin library needs read, or memcpy missing")
        failures += 1
    print(f"{len(stubbed)} symbols stubbed, {len(library_needs)} of them "
          f"the builtin library's; {failures} failures")
    return 1 if failures else 0


if __name__ == "__main__":
    sys.exit(main())
