// The smallest AToLL host program: create a runtime, load an application from LLVM
// bitcode (compiled from ../kernels/vector_add.cu at build time), create a pipeline,
// copy the inputs, launch, synchronise, read back and check.
//
//   vector_add [kernels.bc]
//
// Prints "vector_add: OK (N elements)" or the typed error. Without a CUDA
// driver/device it says so and exits 0, so CI machines without a GPU can run it.
#include <atoll/atoll.h>

#include <cstdio>
#include <string>
#include <vector>

#ifndef VECTOR_ADD_BITCODE
#define VECTOR_ADD_BITCODE ""
#endif

namespace {

int fail(const char *what, const Atoll::Error &error) {
  std::fprintf(stderr, "vector_add: %s failed: %s\n", what, error.describe().c_str());
  return 1;
}

} // namespace

int main(int argc, char **argv) {
  const std::string path = argc > 1 ? argv[1] : VECTOR_ADD_BITCODE;
  if (path.empty()) {
    std::fprintf(stderr, "usage: vector_add <vector_add.bc>\n");
    return 2;
  }

  // 1. The runtime owns the one CUDA context. No GPU is a typed error, not a crash.
  auto runtime = Atoll::Runtime::create();
  if (!runtime) {
    const auto code = runtime.error().code();
    if (code == Atoll::ErrorCode::NoDriver || code == Atoll::ErrorCode::NoDevice) {
      std::printf("vector_add: no CUDA device, nothing to run (%s: %s)\n",
                  std::string(Atoll::to_string(code)).c_str(),
                  runtime.error().message().c_str());
      return 0;
    }
    return fail("creating the runtime", runtime.error());
  }
  Atoll::Runtime &rt = **runtime;

  // 2. Load the tenant's bitcode: verified, optimised, hardened, compiled to PTX and
  //    loaded into the context (cached by content hash).
  auto app = rt.loadApplicationFile(path);
  if (!app)
    return fail("loading the application", app.error());
  auto kernel = (*app)->kernel("vector_add");
  if (!kernel)
    return fail("finding the kernel", kernel.error());

  // 3. A pipeline: the tenant's own stream and device arena.
  auto pipeline = rt.createPipeline({.arenaBytes = 64ull << 20, .name = "vector_add"});
  if (!pipeline)
    return fail("creating the pipeline", pipeline.error());
  Atoll::Pipeline &p = **pipeline;

  constexpr int n = 1 << 20;
  std::vector<float> a(n), b(n), c(n, -1.0f);
  for (int i = 0; i < n; ++i) {
    a[i] = static_cast<float>(i);
    b[i] = static_cast<float>(2 * i);
  }

  // 4. Buffers are regions of the arena; copies are checked against them.
  auto da = p.allocate(n * sizeof(float));
  auto db = p.allocate(n * sizeof(float));
  auto dc = p.allocate(n * sizeof(float));
  if (!da || !db || !dc)
    return fail("allocating", !da ? da.error() : !db ? db.error() : dc.error());
  if (auto s = p.copyToDevice(*da, a); !s)
    return fail("copying a", s.error());
  if (auto s = p.copyToDevice(*db, b); !s)
    return fail("copying b", s.error());

  // 5. Launch: the arguments are checked against the kernel's signature
  //    (ptr, ptr, ptr, i32); the runtime appends the hidden arena parameters.
  const Atoll::LaunchConfig shape{.grid = {(n + 255) / 256}, .block = {256}};
  if (auto s = p.launch(*kernel, shape, *da, *db, *dc, n); !s)
    return fail("launching", s.error());
  if (auto s = p.synchronize(); !s)
    return fail("synchronising", s.error());

  // 6. Read back and check every element (integer-valued floats: exact).
  if (auto s = p.copyToHost(c, *dc); !s)
    return fail("copying c back", s.error());
  for (int i = 0; i < n; ++i) {
    if (c[i] != a[i] + b[i]) {
      std::fprintf(stderr, "vector_add: WRONG RESULT: c[%d] = %g, expected %g\n", i,
                   static_cast<double>(c[i]), static_cast<double>(a[i] + b[i]));
      return 1;
    }
  }
  std::printf("vector_add: OK (%d elements)\n", n);
  return 0;
}
