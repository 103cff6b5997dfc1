# SPDX-License-Identifier: Apache-2.0
# The work-group passes' IR tests: each .ll file runs passes of the plugin
# with opt (`; RUN:` lines) and checks the output with FileCheck. The build
# writes lit.site.cfg.py (CMakeLists.txt here), which names the plugin and
# LLVM's tools and loads this file.
import os

import lit.formats

config.name = "refcl-passes"
config.test_format = lit.formats.ShTest(execute_external=False)
config.suffixes = [".ll"]
config.test_source_root = os.path.dirname(os.path.abspath(__file__))
config.substitutions.append(("%plugin", config.refcl_plugin))
# opt, FileCheck and not are LLVM's, never another version's on PATH.
config.environment["PATH"] = os.pathsep.join(
    [config.llvm_tools_dir, config.environment.get("PATH", os.environ["PATH"])])
