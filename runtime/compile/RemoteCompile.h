// The runtime's use of the compile workers: compile in one worker, validate the PTX
// here (ptx/PtxValidator, against the signatures), assemble the validated PTX into
// a cubin in another worker. Everything a worker returns is untrusted data.
#pragma once

#include "CompiledEntry.h"
#include "compile/CompilePool.h"

#include "atoll/runtime.h"

#include <functional>
#include <memory>
#include <span>

namespace Atoll::detail {

/// The runtime's PoolConfig::warmFloor for a pool of `poolSize` workers: 2 from 16
/// workers on (the default pool of a machine with 8 cores or more), else none: in a
/// smaller pool two would be a large share of it (all of a pool of 2, which would
/// then refill during every load), and a worker start next to a load a large share
/// of the few cores.
size_t warmFloorFor(size_t poolSize);

/// The pool for RuntimeOptions::compileWorkers (path resolved, size defaulted).
Result<std::unique_ptr<compile::CompilePool>> startCompilePool(const RuntimeOptions &options);

/// Compile request -> validate(entry) -> (with `assemble`, when the workers have an
/// assembler) assemble request.
/// Errors: the toolchain's own (InvalidBitcode, WrongTarget, Refused, CompileError,
/// as in-process), the validator's (Refused), and the worker's fate
/// (CompileError: crashed or malformed answer; CompileTimeout; CompileResources,
/// also when the answers do not fit the pool's answer budget). On success, `held`
/// (if given) receives the load's charge, cut to the entry's PTX and cubin: the
/// caller keeps it until the module is loaded.
Result<CompiledEntry> compileInWorkers(compile::CompilePool &pool, compile::CompileJob job,
                                       bool assemble,
                                       const std::function<Status(const CompiledEntry &)> &validate,
                                       compile::AnswerBudget::Charge *held = nullptr);

} // namespace Atoll::detail
