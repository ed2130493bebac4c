# Finds every dependency; a missing one stops configure with one sentence that
# says what to install (scripts/install-deps.sh installs all of them on Debian 12).
function(atoll_missing what package)
  message(FATAL_ERROR "AToLL needs ${what}: install it with 'apt-get install ${package}' "
                      "(or run scripts/install-deps.sh, which 'make demo' and 'make test' call).")
endfunction()

# LLVM's version file matches major.minor exactly, so ask for any and check the major.
find_package(LLVM CONFIG QUIET HINTS /usr/lib/llvm-22/lib/cmake/llvm NO_DEFAULT_PATH)
if(NOT LLVM_FOUND OR NOT LLVM_VERSION_MAJOR EQUAL 22)
  atoll_missing("LLVM 22 (LLVMConfig.cmake)" "llvm-22-dev")
endif()
message(STATUS "AToLL: LLVM ${LLVM_PACKAGE_VERSION} from ${LLVM_DIR}")
set(ATOLL_LLVM_TOOLS_DIR "${LLVM_TOOLS_BINARY_DIR}" CACHE PATH "LLVM 22 tools (opt, llc, FileCheck)")

foreach(tool opt llc FileCheck not count llvm-as llvm-dis llvm-stress)
  string(MAKE_C_IDENTIFIER "${tool}" var)
  string(TOUPPER "ATOLL_${var}" var)
  find_program(${var} ${tool} HINTS "${ATOLL_LLVM_TOOLS_DIR}" NO_DEFAULT_PATH)
  if(NOT ${var})
    atoll_missing("the LLVM 22 tool '${tool}'" "llvm-22 llvm-22-tools")
  endif()
endforeach()

find_program(ATOLL_LIT lit HINTS "${ATOLL_LLVM_TOOLS_DIR}" /usr/lib/llvm-22/build/utils/lit)
if(NOT ATOLL_LIT)
  atoll_missing("lit" "llvm-22-tools")
endif()

find_program(ATOLL_CLANG clang HINTS "${ATOLL_LLVM_TOOLS_DIR}" NO_DEFAULT_PATH)
if(NOT ATOLL_CLANG)
  atoll_missing("Clang 22 (to compile CUDA sources to bitcode)" "clang-22")
endif()

set(ATOLL_CUDA_INCLUDE_DIR "${ATOLL_CUDA_PATH}/include")
if(NOT EXISTS "${ATOLL_CUDA_INCLUDE_DIR}/cuda.h")
  message(FATAL_ERROR "AToLL needs cuda.h from the CUDA toolkit: install the toolkit or "
                      "point -DATOLL_CUDA_PATH=<dir> at one (looked in ${ATOLL_CUDA_PATH}).")
endif()
set(ATOLL_LIBDEVICE "${ATOLL_CUDA_PATH}/nvvm/libdevice/libdevice.10.bc" CACHE FILEPATH "libdevice bitcode")
find_program(ATOLL_PTXAS ptxas HINTS "${ATOLL_CUDA_PATH}/bin")

find_package(fmt CONFIG QUIET)
if(NOT fmt_FOUND)
  atoll_missing("fmt" "libfmt-dev")
endif()

# Header-only, for the tools, the benchmarks and the tests (never in the installed
# library's interface): JSON results files and command lines.
find_package(nlohmann_json 3 CONFIG QUIET)
if(NOT nlohmann_json_FOUND)
  atoll_missing("nlohmann-json" "nlohmann-json3-dev")
endif()
find_package(CLI11 CONFIG QUIET)
if(NOT CLI11_FOUND)
  atoll_missing("CLI11" "libcli11-dev")
endif()

if(ATOLL_BUILD_TESTS)
  find_package(GTest QUIET)
  if(NOT GTest_FOUND)
    atoll_missing("GoogleTest" "libgtest-dev")
  endif()
  include(GoogleTest)
endif()

# The compile worker's protocol (FlatBuffers, header-only at run time) and its
# seccomp filter (libseccomp, linked statically into the worker).
find_program(ATOLL_FLATC flatc)
find_path(ATOLL_FLATBUFFERS_INCLUDE_DIR flatbuffers/flatbuffers.h)
if(NOT ATOLL_FLATC OR NOT ATOLL_FLATBUFFERS_INCLUDE_DIR)
  atoll_missing("FlatBuffers (flatc and its headers)" "flatbuffers-compiler libflatbuffers-dev")
endif()
find_path(ATOLL_SECCOMP_INCLUDE_DIR seccomp.h)
find_library(ATOLL_SECCOMP_LIBRARY NAMES libseccomp.a seccomp)
if(NOT ATOLL_SECCOMP_INCLUDE_DIR OR NOT ATOLL_SECCOMP_LIBRARY)
  atoll_missing("libseccomp" "libseccomp-dev")
endif()

find_package(Python3 COMPONENTS Interpreter REQUIRED)
find_package(Threads REQUIRED)
