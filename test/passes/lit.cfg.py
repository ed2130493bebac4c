# lit configuration of the AToLL pass and CLI tests.
import glob
import os

import lit.formats

config.name = "AToLL"
config.test_format = lit.formats.ShTest(True)
config.suffixes = [".ll", ".cu", ".test"]
config.excludes = ["Inputs", "lit.cfg.py", "lit.site.cfg.py.in", "CMakeLists.txt"]
config.test_source_root = os.path.dirname(__file__)
config.test_exec_root = os.path.join(config.atoll_obj_root, "test", "passes")

# FileCheck, not, count, llvm-as, ... resolve to LLVM 22's tools.
config.environment["PATH"] = os.pathsep.join(
    [config.llvm_tools_dir, config.environment.get("PATH", os.environ.get("PATH", ""))])

opt = os.path.join(config.llvm_tools_dir, "opt")
config.substitutions.append(("%plugin", config.atoll_plugin))
# %opt-atoll: opt with the plugin loaded; use -passes=atoll-mem etc.
config.substitutions.append(("%opt-atoll", f"{opt} -load-pass-plugin={config.atoll_plugin}"))
config.substitutions.append(("%llc-sm90", os.path.join(config.llvm_tools_dir, "llc")
                             + " -mtriple=nvptx64-nvidia-cuda -mcpu=sm_90"))
config.substitutions.append(("%atoll-harden", config.atoll_harden))
config.substitutions.append(("%gen-asm-allowlist", config.atoll_gen_asm))
config.substitutions.append(("%clang-cuda", f"{config.clang} -x cuda --cuda-device-only "
                             f"--cuda-gpu-arch=sm_90 --cuda-path={config.cuda_path} -O2 "
                             "-emit-llvm -c -Wno-unknown-cuda-version"))
config.substitutions.append(("%clang", config.clang))
config.substitutions.append(("%python", config.python))
config.substitutions.append(("%ptxas", f"{config.ptxas} -arch=sm_90"))
config.substitutions.append(("%cuda-path", config.cuda_path))

if config.ptxas_found:
    config.available_features.add("ptxas")
# atoll-harden --emit=cubin assembles with nvJitLink from the configured toolkit.
if glob.glob(os.path.join(config.cuda_path, "lib64", "libnvJitLink.so*")):
    config.available_features.add("nvjitlink")
