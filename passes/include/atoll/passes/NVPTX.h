// The NVPTX vocabulary the passes and the toolchain share: address spaces and
// what a kernel is. One definition, so that what the passes harden and what the
// toolchain loads as a kernel are the same functions.
#pragma once

namespace llvm {
class Function;
} // namespace llvm

namespace Atoll {

/// NVPTX address spaces (LLVM's NVPTX::AddressSpace, which is not installed).
enum NVPTXAddressSpace : unsigned {
  ASGeneric = 0,
  ASGlobal = 1,
  ASShared = 3,
  ASConstant = 4,
  ASLocal = 5,
  ASParam = 101,
};

/// A kernel: the ptx_kernel calling convention (clang 22), or an
/// !nvvm.annotations entry {ptr @f, ..., !"kernel", i32 N, ...} with N != 0
/// (older producers and in-memory modules; LLVM 22 upgrades these to ptx_kernel
/// when it reads a module).
bool isKernel(const llvm::Function &F);

} // namespace Atoll
