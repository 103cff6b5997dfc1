#!/usr/bin/env python3
# SPDX-License-Identifier: Apache-2.0
"""The layering check (CTest layers/check, docs/architecture.md).

Reads the declared layers (cmake/layers.txt: "<layer>: <folder>...",
lowest first) and the symbols of librefcl's object files (nm), maps each
object file to its folder's layer, and fails on every symbol an object file
uses from a folder of a higher layer: lower layers never call upper ones.
It reads the `#include "refcl/..."` lines of their sources and of the
headers too, and fails on every include of a header of a higher layer: a
header include/refcl/<name>.h belongs to the layer of the folder <name>/,
or to the layer whose line names it (`refcl/<name>.h`); a header beside
the sources belongs to their folder.

  check_layers.py --nm NM LAYERS OBJECTS_LIST   the check itself
  check_layers.py --self-test                   proves it can fail

OBJECTS_LIST names one object file per line, as CMake's
$<TARGET_OBJECTS:refcl> lists them (.../CMakeFiles/refcl.dir/<folder>/x.c.o).
"""
import os
import re
import subprocess
import sys

OBJECT_DIR = "refcl.dir/"


def read_layers(text):
    """{folder: (rank, layer name)} from the layers file's lines."""
    layers = {}
    rank = 0
    for number, line in enumerate(text.splitlines(), 1):
        line = line.split("#", 1)[0].strip()
        if not line:
            continue
        name, sep, folders = line.partition(":")
        if not sep or not folders.split():
            raise ValueError(f"line {number}: expected '<layer>: <folder>...'")
        rank += 1
        for folder in folders.split():
            if folder in layers:
                raise ValueError(f"line {number}: {folder} is in two layers")
            layers[folder] = (rank, name.strip())
    return layers


def short_name(path):
    """core/object.c.o for .../CMakeFiles/refcl.dir/core/object.c.o (or
    .../refcl.dir/./core/object.c.o, as Ninja's generator names it)."""
    at = path.rfind(OBJECT_DIR)
    return os.path.normpath(path[at + len(OBJECT_DIR):] if at >= 0 else path)


def folder_of(name):
    return name.split("/", 1)[0] if "/" in name else "."


def symbols(nm, path):
    """(defined global symbols, undefined symbols) of one object file."""
    out = subprocess.run([nm, "--format=posix", path], check=True,
                         capture_output=True, text=True).stdout
    defined, used = set(), set()
    for line in out.splitlines():
        fields = line.split()
        if len(fields) < 2:
            continue
        symbol, kind = fields[0], fields[1]
        if kind in "Uw":
            used.add(symbol)
        elif kind.isupper():
            defined.add(symbol)
    return defined, used


def cross_uses(objects):
    """(user, owner, symbol) for each symbol an object file uses that an
    object file of another folder defines. @p objects maps an object's short
    name to its (defined, used) symbols."""
    owner = {s: name for name, (defined, _) in objects.items()
             for s in defined}
    for name, (_, used) in sorted(objects.items()):
        for symbol in sorted(used):
            target = owner.get(symbol)
            if target and folder_of(target) != folder_of(name):
                yield name, target, symbol


INCLUDE = re.compile(r'^\s*#\s*include\s+"([^"]+)"', re.MULTILINE)


def includes(text):
    """The quoted includes of a source or header, in order."""
    return INCLUDE.findall(text)


def header_owner(layers, header, includer):
    """The folder (or header token) whose layer @p header belongs to, as
    @p includer (a path relative to the source root) names it; None for a
    header that is not refcl's (CL/..., a generated .inc beside it)."""
    if header.startswith("refcl/"):
        if header in layers:
            return header
        stem = os.path.splitext(header[len("refcl/"):])[0]
        return stem if stem in layers else header
    if "/" not in header and header.endswith(".h"):
        return folder_of(includer)
    return None


def include_user(layers, path):
    """The key of the layer @p path (relative to the source root) is in:
    a header of include/ by header_owner, any other file by its folder."""
    if path.startswith("include/"):
        return header_owner(layers, path[len("include/"):], path)
    return folder_of(path)


def include_violations(layers, files):
    """Messages for every include of a header of a higher layer, and for
    refcl headers in no layer. @p files maps a path relative to the source
    root (core/x.c, include/refcl/y.h) to its text."""
    problems = []
    for path in sorted(files):
        user = include_user(layers, path)
        if user not in layers:
            continue
        rank, layer = layers[user]
        for header in includes(files[path]):
            owner = header_owner(layers, header, path)
            if owner is None:
                continue
            if owner not in layers:
                problems.append(f"{path}: includes {header}, which is in no "
                                "layer: name it on a line of cmake/layers.txt")
                continue
            target_rank, target_layer = layers[owner]
            if target_rank > rank:
                problems.append(
                    f"{path}: #include \"{header}\" runs back up from "
                    f"{layer} (layer {rank}) to {target_layer} (layer "
                    f"{target_rank})")
    return problems


def sources(root, objects, layers):
    """{path: text} of the objects' sources, the headers beside them and
    those of include/refcl/, relative to @p root."""
    paths = {name[:-len(".o")] for name in objects}
    folders = {folder_of(name) for name in objects}
    for folder in sorted(folders | {"include/refcl"}):
        directory = os.path.join(root, folder)
        if os.path.isdir(directory):
            paths |= {f"{folder}/{entry}" for entry in os.listdir(directory)
                      if entry.endswith(".h")}
    texts = {}
    for path in paths:
        with open(os.path.join(root, path), encoding="utf-8") as f:
            texts[path] = f.read()
    return texts


def violations(layers, objects):
    """Messages for unknown folders and for every use that runs back up."""
    problems = [f"{name}: its folder {folder_of(name)}/ is in no layer: add "
                "it to cmake/layers.txt"
                for name in sorted(objects) if folder_of(name) not in layers]
    for name, target, symbol in cross_uses(objects):
        if folder_of(name) not in layers or folder_of(target) not in layers:
            continue
        rank, layer = layers[folder_of(name)]
        target_rank, target_layer = layers[folder_of(target)]
        if target_rank > rank:
            problems.append(
                f"{name} -> {target}: {symbol} runs back up from "
                f"{folder_of(name)} ({layer}, layer {rank}) to "
                f"{folder_of(target)} ({target_layer}, layer {target_rank})")
    return problems


def check(nm, layers_path, objects_path):
    with open(layers_path, encoding="utf-8") as f:
        layers = read_layers(f.read())
    with open(objects_path, encoding="utf-8") as f:
        paths = [p for p in f.read().split() if p]
    if not paths:
        print(f"{objects_path}: no object files listed")
        return 1
    objects = {short_name(p): symbols(nm, p) for p in paths}
    root = os.path.dirname(os.path.dirname(os.path.abspath(layers_path)))
    files = sources(root, objects, layers)
    problems = violations(layers, objects) + include_violations(layers, files)
    for problem in problems:
        print(problem)
    if problems:
        print(f"{len(problems)} uses against the layer order of "
              f"{layers_path} (lowest layer first)")
        return 1
    edges = sum(1 for _ in cross_uses(objects))
    ranks = {rank for rank, _ in layers.values()}
    print(f"{len(objects)} object files in {len(ranks)} layers: {edges} "
          f"uses across folders, each down or within a layer; the includes "
          f"of {len(files)} sources and headers, each down or within a layer")
    return 0


def self_test():
    """The check on made-up symbols and includes: a call or an include
    down passes, one up and an unknown folder or header fail, peers may
    use each other."""
    layers = read_layers("low: core refcl/api.h\nmid: event queue\n"
                         "high: api\n")
    objects = {
        "core/object.c.o": ({"refcl_object_alloc"}, {"refcl_api_thing"}),
        "event/event.c.o": ({"refcl_event_new"}, {"refcl_queue_release",
                                                  "refcl_object_alloc"}),
        "queue/queue.c.o": ({"refcl_queue_release"}, {"refcl_event_new"}),
        "api/api.c.o": ({"refcl_api_thing"}, {"refcl_event_new", "memcpy"}),
        "stray/x.c.o": (set(), set()),
    }
    files = {
        "core/info.c": '#include "refcl/api.h"\n#include "refcl/core.h"\n',
        "core/error.c": '#include "refcl/queue.h"\n#include <CL/cl.h>\n',
        "event/event.c": '#include "refcl/queue.h"\n#include "local.h"\n',
        "include/refcl/core.h": '#include "refcl/event.h"\n',
        "include/refcl/event.h": '#include "refcl/core.h"\n'
                                 '#include "refcl/nowhere.h"\n',
        "api/api.c": '#include "refcl/event.h"\n #include "refcl/api.h"\n',
    }
    got = violations(layers, objects) + include_violations(layers, files)
    want = [
        "stray/x.c.o: its folder stray/ is in no layer: add it to "
        "cmake/layers.txt",
        "core/object.c.o -> api/api.c.o: refcl_api_thing runs back up from "
        "core (low, layer 1) to api (high, layer 3)",
        'core/error.c: #include "refcl/queue.h" runs back up from low '
        "(layer 1) to mid (layer 2)",
        'include/refcl/core.h: #include "refcl/event.h" runs back up from '
        "low (layer 1) to mid (layer 2)",
        "include/refcl/event.h: includes refcl/nowhere.h, which is in no "
        "layer: name it on a line of cmake/layers.txt",
    ]
    if got != want:
        print("self-test failed:\n got  %s\n want %s" % (got, want))
        return 1
    print("self-test: an upward use, an upward include, an unknown folder "
          "and a header in no layer are reported; downward and peer uses "
          "and includes are not")
    return 0


def main(argv):
    if argv[1:] == ["--self-test"]:
        return self_test()
    if len(argv) != 5 or argv[1] != "--nm":
        print(__doc__)
        return 2
    return check(argv[2], argv[3], argv[4])


if __name__ == "__main__":
    sys.exit(main(sys.argv))
