// Section "overhead": kernel time of hardened vs native code.
//
// Every kernel of bench/kernels runs, with the same inputs and sizes, as
//   native      the unhardened PTX of the same bitcode (embedded at build time, same
//               toolchain without the AToLL passes), cuModuleLoadData + raw
//               cuLaunchKernel on plain cuMemAlloc'd buffers, timed with CUDA events
//               on the launching stream;
//   mask        hardened, mask-based: Runtime::loadApplication + Pipeline::launch
//               (what users get), timed by the pipeline's own events (PipelineStats::
//               gpuTime of a batch that holds only the timed launches);
//   modulo      hardened, modulo-based, the same way;
//   mask-raw,   the hardened PTX of those applications (Application::ptx()) loaded
//   modulo-raw  by the benchmark and launched with raw cuLaunchKernel on the native
//               stream, buffers in the pipeline's arena, the three hidden parameters
//               appended by hand: the same timing method as native, so the runtime
//               and raw numbers cross-check each other.
//   mask-nocheck-raw  the same bitcode hardened without the preemption checks
//               (embedded at build time by atoll-bench-ptxgen, Preempt = false):
//               mask-raw / mask-nocheck-raw is the checks' cost;
//   mask-fuel-raw  the mask-raw PTX with a fuel budget (2^62) in its control block:
//               the cost of fuel accounting (the same code; only the budget differs).
//   mask-nounroll-raw  (diagnostic) the mask-raw PTX with a module-level
//               `.pragma "nounroll"`: ptxas unrolled the unchecked copies of versioned
//               loops where it left the same loop of the unchecked build alone
//               (pointer_chase: 501 SASS instructions vs 84; the copies now carry
//               their own nounroll, docs/passes.md); this variant says how much of
//               the checks' cost is ptxas unrolling, not the checks.
// One timed "run" is R back-to-back launches, R calibrated so that a native run takes
// at least ~1-2 ms; variants are interleaved run by run (cancels clock drift); the
// median of >= 20 runs per variant is reported, and the ratio variant/native.
// Outputs are checked bitwise against native (every kernel is deterministic: the
// atomics kernels accumulate integers), and native against a CPU reference. The
// kernels, their inputs and references are the table in OverheadCases.cpp.
#include "Bench.h"
#include "OverheadCases.h"

#include <algorithm>
#include <cmath>
#include <cstring>
#include <filesystem>
#include <fstream>
#include <functional>
#include <iterator>
#include <map>
#include <numeric>
#include <optional>

namespace atoll_bench {
namespace {

using Atoll::Clamping;
using Atoll::Dim3;


// --- variants -------------------------------------------------------------------------

// NativeArena: the native PTX on the pipeline's buffers (a diagnostic: separates the
// cost of the hardened code from any effect of where the memory is).
enum class Path { Native, NativeArena, Runtime, Raw };

struct Variant {
  Variant(std::string id, Path path, Clamping mode, std::string timing)
      : id(std::move(id)), path(path), mode(mode), timing(std::move(timing)) {}
  std::string id;
  Path path;
  Clamping mode = Clamping::MaskBased;
  std::string timing;
  // Per case:
  std::shared_ptr<Atoll::Application> app;
  Atoll::Kernel kernel;
  std::unique_ptr<PtxModule> module;
  CUfunction fn = nullptr;
  std::string ptx;  // raw variants compiled by the benchmark (no application)
  bool fuel = false; // launched with the fuel control block
  std::vector<double> runs; // ms per run (R launches)
  bool available = true;
  std::string unavailable;
};

/// The PTX with `.pragma "nounroll"` at module level (after .address_size): ptxas
/// unrolls no loop of it. Only for the diagnostic variant (the runtime's PTX
/// validator refuses any pragma in tenant PTX; the benchmark loads this one itself).
std::string withoutPtxasUnrolling(const std::string &ptx) {
  const std::string key = ".address_size 64\n";
  size_t p = ptx.find(key);
  if (p == std::string::npos)
    return ptx;
  std::string out = ptx;
  out.insert(p + key.size(), ".pragma \"nounroll\";\n");
  return out;
}

size_t countOf(const std::string &text, const std::string &needle) {
  size_t n = 0;
  for (size_t p = text.find(needle); p != std::string::npos; p = text.find(needle, p + 1))
    ++n;
  return n;
}

/// Static counts of the instructions the confinement uses (in the kernel PTX).
Json ptxStats(const std::string &ptx) {
  Json j = Json::object();
  size_t lines = 0;
  for (char c : ptx)
    lines += c == '\n';
  j["lines"] = lines;
  j["and_b64"] = countOf(ptx, "and.b64");
  j["and_b32"] = countOf(ptx, "and.b32"); // mask mode and object clamps: 32-bit offsets
  j["or_b64"] = countOf(ptx, "or.b64");
  j["min_u64"] = countOf(ptx, "min.u64");
  j["min_u32"] = countOf(ptx, "min.u32");
  j["rem_u64"] = countOf(ptx, "rem.u64");
  j["rem_u32"] = countOf(ptx, "rem.u32");
  j["isspacep"] = countOf(ptx, "isspacep");
  j["ld_global_nc"] = countOf(ptx, "ld.global.nc");
  j["local_accesses"] = countOf(ptx, "ld.local") + countOf(ptx, "st.local");
  return j;
}

Json functionAttributes(const Gpu &gpu, CUfunction fn) {
  Json j = Json::object();
  int regs = 0, local = 0, shared = 0;
  gpu.api->cuFuncGetAttribute(&regs, CU_FUNC_ATTRIBUTE_NUM_REGS, fn);
  gpu.api->cuFuncGetAttribute(&local, CU_FUNC_ATTRIBUTE_LOCAL_SIZE_BYTES, fn);
  gpu.api->cuFuncGetAttribute(&shared, CU_FUNC_ATTRIBUTE_SHARED_SIZE_BYTES, fn);
  j["registers"] = regs;
  j["local_bytes"] = local;
  j["static_shared_bytes"] = shared;
  return j;
}

uint64_t nextPow2(uint64_t v) {
  uint64_t p = 1;
  while (p < v)
    p <<= 1;
  return p;
}

/// Compares an output buffer of a variant with native's; "" when bitwise equal.
std::string compareOutput(const BufSpec &b, const std::vector<uint8_t> &want,
                          const std::vector<uint8_t> &got) {
  if (want.size() == got.size() && std::memcmp(want.data(), got.data(), want.size()) == 0)
    return "";
  size_t words = want.size() / 4, differing = 0, first = SIZE_MAX;
  double maxAbs = 0;
  for (size_t i = 0; i < words; ++i) {
    uint32_t a, c;
    std::memcpy(&a, want.data() + 4 * i, 4);
    std::memcpy(&c, got.data() + 4 * i, 4);
    if (a == c)
      continue;
    ++differing;
    if (first == SIZE_MAX)
      first = i;
    if (b.elem == Elem::F32) {
      float fa, fc;
      std::memcpy(&fa, &a, 4);
      std::memcpy(&fc, &c, 4);
      maxAbs = std::max(maxAbs, double(std::fabs(fa - fc)));
    }
  }
  char buf[256];
  std::snprintf(buf, sizeof buf, "%s: %zu of %zu words differ (first at word %zu)%s", b.name.c_str(),
                differing, words, first,
                b.elem == Elem::F32 ? (", max abs diff " + std::to_string(maxAbs)).c_str() : "");
  return buf;
}

std::string fmtRatio(double r) {
  if (!std::isfinite(r))
    return "   -  ";
  char buf[32];
  std::snprintf(buf, sizeof buf, "%6.3f", r);
  return buf;
}

} // namespace

void runOverhead(Context &ctx) {
  Results &res = *ctx.results;
  const Options &opts = ctx.opts;
  const Gpu &gpu = *ctx.gpu;
  Atoll::Runtime &rt = *ctx.runtime;
  Json &out = res.root["sections"]["overhead"];
  Budget budget{Clock::now(), opts.quick ? 70.0 : 200.0};
  const int minReps = 20;
  const int reps = opts.quick ? 20 : 30;
  const double targetRunMs = opts.quick ? 1.0 : 2.0;
  const std::filesystem::path ptxDir = std::filesystem::path(opts.outDir) / "ptx";
  std::error_code ec;
  std::filesystem::create_directories(ptxDir, ec);

  std::vector<Case> cases = makeCases(opts.quick, opts.tiny);
  if (!opts.kernels.empty()) {
    for (const std::string &k : opts.kernels)
      if (std::none_of(cases.begin(), cases.end(), [&](const Case &c) { return c.name == k; }))
        fail("--kernels: no overhead kernel named '" + k + "'");
    std::erase_if(cases, [&](const Case &c) {
      return std::find(opts.kernels.begin(), opts.kernels.end(), c.name) == opts.kernels.end();
    });
  }
  // --extra-ptx KERNEL:LABEL:FILE (diagnostic raw variants "x-LABEL").
  struct ExtraPtx {
    std::string kernel, label, ptx;
  };
  std::vector<ExtraPtx> extras;
  for (const std::string &spec : opts.extraPtx) {
    size_t a = spec.find(':'), b = a == std::string::npos ? a : spec.find(':', a + 1);
    if (b == std::string::npos || a == 0 || b == a + 1 || b + 1 == spec.size())
      fail("--extra-ptx wants KERNEL:LABEL:FILE, not '" + spec + "'");
    std::ifstream in(spec.substr(b + 1));
    if (!in)
      fail("--extra-ptx: cannot read " + spec.substr(b + 1));
    std::string text((std::istreambuf_iterator<char>(in)), std::istreambuf_iterator<char>());
    extras.push_back({spec.substr(0, a), spec.substr(a + 1, b - a - 1), std::move(text)});
  }
  uint64_t maxBytes = 0;
  for (const Case &c : cases) {
    uint64_t sum = 0;
    for (const BufSpec &b : c.bufs)
      sum += (b.bytes + 4095) / 4096 * 4096;
    maxBytes = std::max(maxBytes, sum);
  }
  const uint64_t arenaBytes = std::max<uint64_t>(64ull << 20, nextPow2(maxBytes + (4ull << 20)));
  out["arena_bytes"] = arenaBytes;
  out["repetitions"] = reps;
  out["target_run_ms"] = targetRunMs;
  out["method"] =
      "median over interleaved runs of R back-to-back launches; native and *-raw timed with CUDA "
      "events on the benchmark's stream, mask/modulo with the pipeline's events "
      "(PipelineStats::gpuTime); ratio = median(variant) / median(native)";

  gpu.makeCurrent();
  CUstream stream = nullptr;
  CU(gpu, cuStreamCreate(&stream, CU_STREAM_NON_BLOCKING));
  struct StreamGuard {
    const Gpu &g;
    CUstream s;
    ~StreamGuard() {
      g.api->cuCtxSetCurrent(g.primary);
      g.api->cuStreamSynchronize(s);
      g.api->cuStreamDestroy(s);
    }
  } streamGuard{gpu, stream};
  EventTimer timer(gpu);

  Atoll::PipelineOptions po;
  po.arenaBytes = arenaBytes;
  po.name = "bench-overhead";
  auto pipeline = take(rt.createPipeline(po), "creating the overhead pipeline");
  const bool maskArena = pipeline->arenaMode() == Clamping::MaskBased;
  out["pipeline_arena_mode"] = std::string(Atoll::to_string(pipeline->arenaMode()));
  check(pipeline->synchronize(), "waiting for the arena scrub");
  // Control blocks of the raw hardened launches (abi.h): one without fuel (cancel 0,
  // fuel 0 = unlimited), one with a budget that never runs out (2^62 edges).
  CUdeviceptr controls = 0;
  gpu.makeCurrent();
  CU(gpu, cuMemAlloc(&controls, 2 * ATOLL_CONTROL_BLOCK_BYTES));
  CU(gpu, cuMemsetD8(controls, 0, 2 * ATOLL_CONTROL_BLOCK_BYTES));
  {
    const uint64_t budget = 1ull << 62;
    CU(gpu, cuMemcpyHtoD(controls + ATOLL_CONTROL_BLOCK_BYTES + ATOLL_CONTROL_FUEL_OFFSET,
                         &budget, sizeof budget));
  }
  struct ControlGuard {
    const Gpu &g;
    CUdeviceptr p;
    ~ControlGuard() {
      g.makeCurrent();
      g.api->cuMemFree(p);
    }
  } controlGuard{gpu, controls};

  std::map<std::string, std::vector<std::pair<std::string, double>>> ratiosByVariant;
  int mismatches = 0;
  log("%-15s %4s %10s | %8s %8s | %8s %8s | %9s | %s", "kernel", "R", "native ms", "mask",
      "modulo", "mask-raw", "mod-raw", "nat-arena", "check");
  bool first = true;
  for (size_t ci = 0; ci < cases.size(); ++ci) {
    const Case &c = cases[ci];
    Json k = Json::object();
    k["name"] = c.name;
    k["description"] = c.description;
    k["grid"] = Json::array();
    k["grid"].push_back(c.grid.x);
    k["grid"].push_back(c.grid.y);
    k["grid"].push_back(c.grid.z);
    k["block"] = Json::array();
    k["block"].push_back(c.block.x);
    k["block"].push_back(c.block.y);
    k["block"].push_back(c.block.z);
    k["check_mode"] = c.check;
    if (budget.spent()) {
      res.error("overhead", "time budget spent: skipped " + c.name);
      k["skipped"] = "time budget spent";
      out["kernels"].push_back(std::move(k));
      continue;
    }
    std::vector<CUdeviceptr> nat(c.bufs.size(), 0);
    std::vector<Atoll::Buffer> hard(c.bufs.size());
    auto freeAll = [&] {
      gpu.api->cuCtxSetCurrent(gpu.primary);
      gpu.api->cuStreamSynchronize(stream);
      for (CUdeviceptr p : nat)
        if (p)
          gpu.api->cuMemFree(p);
      (void)pipeline->synchronize();
      for (const auto &b : hard)
        if (b.valid())
          (void)pipeline->free(b);
    };
    std::vector<Variant> variants;
    const auto caseStart = Clock::now();
    try {
      auto bytes = readBitcode(opts, c.name);
      const EmbeddedPtx &native = nativePtxFor(c.name, bytes);

      // Inputs.
      HostBuffers host(c.bufs.size());
      uint64_t total = 0;
      for (size_t b = 0; b < c.bufs.size(); ++b) {
        total += c.bufs[b].bytes;
        if (!c.bufs[b].output) {
          host[b].resize(c.bufs[b].bytes);
          c.bufs[b].init(host[b].data(), host[b].size());
        }
      }
      k["bytes"] = total;
      k["setup_seconds"] = secondsSince(caseStart);

      // Native buffers (cuMemAlloc) and hardened buffers (the pipeline's arena).
      gpu.makeCurrent();
      for (size_t b = 0; b < c.bufs.size(); ++b) {
        CU(gpu, cuMemAlloc(&nat[b], c.bufs[b].bytes));
        hard[b] = take(pipeline->allocate(c.bufs[b].bytes), "allocating " + c.bufs[b].name);
        if (!c.bufs[b].output) {
          CU(gpu, cuMemcpyHtoD(nat[b], host[b].data(), host[b].size()));
          check(pipeline->copyToDevice(hard[b], 0, host[b].data(), host[b].size()),
                "copying " + c.bufs[b].name);
        }
      }
      std::vector<uint64_t> hardAddr(c.bufs.size());
      for (size_t b = 0; b < c.bufs.size(); ++b)
        hardAddr[b] = take(pipeline->deviceAddress(hard[b]), "deviceAddress");

      // Modules.
      gpu.makeCurrent();
      PtxModule nativeModule(gpu, native.ptx, c.name + " (native)");
      variants.emplace_back("native", Path::Native, Clamping::MaskBased, "cuda-events");
      variants.back().fn = nativeModule.function(c.name);
      variants.emplace_back("native-arena", Path::NativeArena, Clamping::MaskBased, "cuda-events");
      variants.back().fn = variants.front().fn;
      for (Clamping mode : {Clamping::MaskBased, Clamping::ModuloBased}) {
        Atoll::AppOptions ao;
        ao.clamping = mode;
        ao.name = "bench-" + c.name + "-" + std::string(Atoll::to_string(mode));
        auto app = take(rt.loadApplication(bytes.data(), bytes.size(), ao),
                        "loading " + c.name + " (" + std::string(Atoll::to_string(mode)) + ")");
        std::string tag = mode == Clamping::MaskBased ? "mask" : "modulo";
        Variant v{tag, Path::Runtime, mode, "pipeline-gpuTime"};
        v.app = app;
        v.kernel = take(app->kernel(c.name), "kernel " + c.name);
        Variant raw{tag + "-raw", Path::Raw, mode, "cuda-events"};
        raw.app = app;
        gpu.makeCurrent();
        raw.module = std::make_unique<PtxModule>(gpu, app->ptx(), c.name + " (" + tag + ")");
        raw.fn = raw.module->function(c.name);
        if (mode == Clamping::MaskBased && !maskArena) {
          v.available = raw.available = false;
          v.unavailable = raw.unavailable = "the pipeline's arena is not mask-capable";
        }
        std::ofstream(ptxDir / (c.name + "." + tag + ".ptx")) << app->ptx();
        if (mode == Clamping::MaskBased) {
          Variant nocheck{"mask-nocheck-raw", Path::Raw, mode, "cuda-events"};
          Variant fuel{"mask-fuel-raw", Path::Raw, mode, "cuda-events"};
          // Built with the native PTX (atoll-bench-ptxgen, Preempt = false).
          nocheck.ptx = native.nocheckPtx;
          nocheck.module = std::make_unique<PtxModule>(gpu, nocheck.ptx, c.name + " (nocheck)");
          nocheck.fn = nocheck.module->function(c.name);
          fuel.app = app;
          fuel.fuel = true;
          fuel.module = std::make_unique<PtxModule>(gpu, app->ptx(), c.name + " (fuel)");
          fuel.fn = fuel.module->function(c.name);
          Variant nounroll{"mask-nounroll-raw", Path::Raw, mode, "cuda-events"};
          nounroll.ptx = withoutPtxasUnrolling(app->ptx());
          nounroll.module = std::make_unique<PtxModule>(gpu, nounroll.ptx, c.name + " (nounroll)");
          nounroll.fn = nounroll.module->function(c.name);
          nocheck.available = fuel.available = nounroll.available = raw.available;
          nocheck.unavailable = fuel.unavailable = nounroll.unavailable = raw.unavailable;
          std::ofstream(ptxDir / (c.name + ".mask-nocheck.ptx")) << nocheck.ptx;
          variants.push_back(std::move(v));
          variants.push_back(std::move(raw));
          variants.push_back(std::move(nocheck));
          variants.push_back(std::move(fuel));
          variants.push_back(std::move(nounroll));
          for (const ExtraPtx &x : extras) {
            if (x.kernel != c.name)
              continue;
            Variant xv{"x-" + x.label, Path::Raw, mode, "cuda-events"};
            xv.ptx = x.ptx;
            xv.module = std::make_unique<PtxModule>(gpu, xv.ptx, c.name + " (" + x.label + ")");
            xv.fn = xv.module->function(c.name);
            variants.push_back(std::move(xv));
          }
          continue;
        }
        variants.push_back(std::move(v));
        variants.push_back(std::move(raw));
      }
      // Order: native, native-arena, mask, mask-raw, modulo, modulo-raw.
      std::ofstream(ptxDir / (c.name + ".native.ptx")) << native.ptx;

      // Launch arguments.
      std::vector<uint64_t> nativeStore(c.args.size()),
          hardStore(c.args.size() + ATOLL_HIDDEN_PARAM_COUNT);
      std::vector<void *> nativeParams, hardParams, nativeArenaParams, fuelParams;
      std::vector<Atoll::Arg> rtArgs;
      for (size_t a = 0; a < c.args.size(); ++a) {
        const ArgSpec &s = c.args[a];
        uint64_t nv = 0, hv = 0;
        switch (s.kind) {
        case ArgSpec::Buf:
          nv = nat[size_t(s.buf)];
          hv = hardAddr[size_t(s.buf)];
          rtArgs.push_back(Atoll::Arg::buffer(hard[size_t(s.buf)]));
          break;
        case ArgSpec::I32: {
          int32_t v = int32_t(s.i);
          std::memcpy(&nv, &v, 4);
          hv = nv;
          rtArgs.push_back(Atoll::Arg::i32(v));
          break;
        }
        case ArgSpec::I64:
          std::memcpy(&nv, &s.i, 8);
          hv = nv;
          rtArgs.push_back(Atoll::Arg::i64(s.i));
          break;
        case ArgSpec::F32:
          std::memcpy(&nv, &s.f, 4);
          hv = nv;
          rtArgs.push_back(Atoll::Arg::f32(s.f));
          break;
        }
        nativeStore[a] = nv;
        hardStore[a] = hv;
      }
      hardStore[c.args.size() + ATOLL_HIDDEN_ARENA_BASE_INDEX] = pipeline->arenaBase();
      hardStore[c.args.size() + ATOLL_HIDDEN_ARENA_SIZE_INDEX] = pipeline->arenaBytes();
      hardStore[c.args.size() + ATOLL_HIDDEN_CONTROL_INDEX] = controls;
      std::vector<uint64_t> fuelStore = hardStore;
      fuelStore[c.args.size() + ATOLL_HIDDEN_CONTROL_INDEX] = controls + ATOLL_CONTROL_BLOCK_BYTES;
      for (auto &v : nativeStore)
        nativeParams.push_back(&v);
      for (auto &v : hardStore)
        hardParams.push_back(&v);
      for (auto &v : fuelStore)
        fuelParams.push_back(&v);
      // The native kernel on the arena's buffers: the tenant arguments only.
      nativeArenaParams.assign(hardParams.begin(), hardParams.begin() + long(c.args.size()));
      const Atoll::LaunchConfig cfg{c.grid, c.block, 0};

      auto launch = [&](Variant &v) {
        if (v.path == Path::Runtime) {
          check(pipeline->launch(v.kernel, cfg, std::span<const Atoll::Arg>(rtArgs)),
                "Pipeline::launch(" + c.name + ")");
          return;
        }
        void **params = v.path == Path::Native        ? nativeParams.data()
                        : v.path == Path::NativeArena ? nativeArenaParams.data()
                        : v.fuel                      ? fuelParams.data()
                                                      : hardParams.data();
        CU(gpu, cuLaunchKernel(v.fn, c.grid.x, c.grid.y, c.grid.z, c.block.x, c.block.y,
                               c.block.z, 0, stream, params, nullptr));
      };
      // One timed run of R launches; milliseconds of GPU time.
      auto run = [&](Variant &v, int R) -> double {
        if (v.path == Path::Runtime) {
          check(pipeline->synchronize(), "synchronize");
          auto before = pipeline->stats().gpuTime;
          for (int r = 0; r < R; ++r)
            launch(v);
          check(pipeline->synchronize(), "synchronize after " + c.name);
          auto after = pipeline->stats().gpuTime;
          return std::chrono::duration<double, std::milli>(after - before).count();
        }
        gpu.makeCurrent();
        timer.start(stream);
        for (int r = 0; r < R; ++r)
          launch(v);
        return timer.stopMs(stream);
      };

      // Correctness: every variant from zeroed outputs, one launch, outputs compared
      // with native's bitwise; native's compared with a CPU reference.
      HostBuffers nativeOut(c.bufs.size());
      std::vector<std::string> checks(variants.size());
      for (size_t vi = 0; vi < variants.size(); ++vi) {
        Variant &v = variants[vi];
        if (!v.available)
          continue;
        for (size_t b = 0; b < c.bufs.size(); ++b)
          if (c.bufs[b].output) {
            if (v.path == Path::Native) {
              gpu.makeCurrent();
              CU(gpu, cuMemsetD8Async(nat[b], 0, c.bufs[b].bytes, stream));
              CU(gpu, cuStreamSynchronize(stream));
            } else {
              check(pipeline->fill(hard[b], 0, c.bufs[b].bytes, 0), "fill");
            }
          }
        (void)run(v, 1);
        gpu.makeCurrent();
        CU(gpu, cuStreamSynchronize(stream));
        std::string verdict;
        for (size_t b = 0; b < c.bufs.size(); ++b) {
          if (!c.bufs[b].output)
            continue;
          std::vector<uint8_t> got(c.bufs[b].bytes);
          if (v.path == Path::Native) {
            CU(gpu, cuMemcpyDtoH(got.data(), nat[b], got.size()));
            nativeOut[b] = std::move(got);
          } else {
            check(pipeline->copyToHost(got.data(), hard[b], 0, got.size()), "copyToHost");
            std::string d = compareOutput(c.bufs[b], nativeOut[b], got);
            if (!d.empty())
              verdict += (verdict.empty() ? "" : "; ") + d;
          }
        }
        checks[vi] = verdict.empty() ? "identical" : "MISMATCH: " + verdict;
        if (!verdict.empty())
          ++mismatches;
        if (!verdict.empty())
          res.checkFailed("overhead", c.name + " " + v.id + " differs from native: " + verdict);
      }
      {
        HostBuffers all = std::move(host); // the inputs are not needed any more
        for (size_t b = 0; b < c.bufs.size(); ++b)
          if (c.bufs[b].output)
            all[b] = std::move(nativeOut[b]);
        std::string ref = c.reference ? c.reference(all) : "";
        k["reference"] = ref.empty() ? std::string("ok") : "MISMATCH: " + ref;
        if (!ref.empty())
          ++mismatches;
        if (!ref.empty())
          res.checkFailed("overhead", c.name + " native output disagrees with the CPU reference: " +
                                          ref);
      }

      k["checked_seconds"] = secondsSince(caseStart);
      // Calibration: R launches per run so that a native run takes >= targetRunMs.
      Variant &nativeV = variants[0];
      if (first) {
        // Bring the clocks up before the first measurement (~200 ms of work).
        auto t = Clock::now();
        while (secondsSince(t) < 0.2)
          (void)run(nativeV, 4);
        first = false;
      }
      (void)run(nativeV, 1);
      std::vector<double> single;
      for (int i = 0; i < 3; ++i)
        single.push_back(run(nativeV, 1));
      const double oneMs = std::max(median(single), 1e-4);
      const int R = std::clamp(int(std::ceil(targetRunMs / oneMs)), 1, 4000);
      k["launches_per_run"] = R;

      // Repetitions within this kernel's share of the remaining budget.
      size_t active = 0;
      for (const auto &v : variants)
        active += v.available;
      const double remainingShare =
          std::max(1.0, (budget.seconds - budget.elapsed()) / double(cases.size() - ci));
      const double perRun = oneMs * R / 1000.0;
      int myReps = reps;
      while (myReps > minReps && perRun * double(active) * (myReps + 2) > remainingShare)
        --myReps;
      k["runs"] = myReps;

      for (auto &v : variants)
        if (v.available)
          for (int w = 0; w < 2; ++w)
            (void)run(v, R);
      for (int rep = 0; rep < myReps; ++rep)
        for (size_t j = 0; j < variants.size(); ++j) {
          Variant &v = variants[(j + size_t(rep)) % variants.size()];
          if (v.available)
            v.runs.push_back(run(v, R));
        }

      // Results.
      const double nativeMedian = median(nativeV.runs);
      Json &nj = k["native"];
      nj["ms_per_launch"] = nativeMedian / R;
      nj["run_ms"] = summary(nativeV.runs);
      nj["function"] = functionAttributes(gpu, nativeV.fn);
      nj["ptx"] = ptxStats(native.ptx);
      res.row("overhead", c.name, "native", "ms_per_launch", nativeMedian / R, "ms");
      std::vector<std::pair<std::string, double>> kernelRatios;
      for (size_t vi = 1; vi < variants.size(); ++vi) {
        Variant &v = variants[vi];
        Json vj = Json::object();
        vj["path"] = v.path == Path::Runtime       ? "runtime (Pipeline::launch)"
                     : v.path == Path::NativeArena ? "raw cuLaunchKernel, native PTX, arena buffers"
                                                   : "raw cuLaunchKernel";
        vj["mode"] = std::string(Atoll::to_string(v.mode));
        vj["timing"] = v.timing;
        if (!v.available) {
          vj["unavailable"] = v.unavailable;
          k["variants"][v.id] = std::move(vj);
          continue;
        }
        double m = median(v.runs);
        if (v.path == Path::Runtime && !(m > 0)) {
          // The pipeline reported no GPU time: fall back to the raw path's numbers.
          Variant &raw = variants[vi + 1];
          vj["timing"] = "raw-fallback (the pipeline reported no GPU time)";
          v.runs = raw.runs;
          m = median(v.runs);
          res.error("overhead", c.name + " " + v.id +
                                    ": PipelineStats::gpuTime stayed 0; using the raw timing");
        }
        std::vector<double> paired;
        for (size_t i = 0; i < v.runs.size() && i < nativeV.runs.size(); ++i)
          paired.push_back(v.runs[i] / nativeV.runs[i]);
        double ratio = m / nativeMedian;
        vj["ms_per_launch"] = m / R;
        vj["ratio"] = ratio;
        vj["ratio_paired_median"] = median(paired);
        vj["run_ms"] = summary(v.runs);
        vj["check"] = checks[vi];
        if (v.path == Path::NativeArena) {
          // Same function as native.
        } else if (v.path == Path::Raw) {
          vj["function"] = functionAttributes(gpu, v.fn);
          vj["ptx"] = ptxStats(v.app ? v.app->ptx() : v.ptx);
        } else {
          const auto &info = v.kernel.info();
          Json fj = Json::object();
          fj["registers"] = info.registers;
          fj["local_bytes"] = info.localBytesPerThread;
          fj["static_shared_bytes"] = info.staticSharedBytes;
          vj["function"] = std::move(fj);
        }
        kernelRatios.emplace_back(v.id, ratio);
        res.row("overhead", c.name, v.id, "ms_per_launch", m / R, "ms");
        res.row("overhead", c.name, v.id, "ratio", ratio, "x");
        res.rowText("overhead", c.name, v.id, "check", checks[vi]);
        k["variants"][v.id] = std::move(vj);
      }
      auto ratioOf = [&](const std::string &id) {
        for (const auto &[vid, r] : kernelRatios)
          if (vid == id)
            return fmtRatio(r);
        return std::string("   -  ");
      };
      bool allOk = true;
      for (size_t vi = 1; vi < variants.size(); ++vi)
        allOk &= !variants[vi].available || checks[vi] == "identical";
      bool refOk = k.contains("reference") && k["reference"] == "ok";
      log("%-15s %4d %10.4f | %8s %8s | %8s %8s | %9s | %s%s", c.name.c_str(), R,
          nativeMedian / R, ratioOf("mask").c_str(), ratioOf("modulo").c_str(),
          ratioOf("mask-raw").c_str(), ratioOf("modulo-raw").c_str(),
          ratioOf("native-arena").c_str(), allOk ? "identical" : "MISMATCH",
          refOk ? "" : " (native != CPU reference)");
      for (const auto &[vid, r] : kernelRatios)
        ratiosByVariant[vid].emplace_back(c.name, r);
      // Diagnostic variants against the same run's unchecked and checked PTX.
      for (const auto &[vid, r] : kernelRatios) {
        if (vid.rfind("x-", 0) != 0)
          continue;
        double nocheckR = NAN, checkedR = NAN;
        for (const auto &[id2, r2] : kernelRatios) {
          if (id2 == "mask-nocheck-raw")
            nocheckR = r2;
          if (id2 == "mask-raw")
            checkedR = r2;
        }
        log("diagnostic %-15s %-20s vs native %.4fx, vs mask-nocheck-raw %.4fx, vs mask-raw "
            "%.4fx",
            c.name.c_str(), vid.c_str(), r, r / nocheckR, r / checkedR);
      }
    } catch (const std::exception &e) {
      k["error"] = e.what();
      res.error("overhead", c.name + ": " + e.what());
    }
    variants.clear(); // unload the raw modules before the buffers go
    freeAll();
    k["seconds"] = secondsSince(caseStart);
    out["kernels"].push_back(std::move(k));
    res.write(opts.outDir);
  }

  // Summary per variant: geometric mean and maximum of the ratios.
  Json &sum = out["summary"];
  for (const char *id : {"mask", "modulo", "mask-raw", "modulo-raw", "native-arena",
                         "mask-nocheck-raw", "mask-fuel-raw", "mask-nounroll-raw"}) {
    const auto &list = ratiosByVariant[id];
    if (list.empty())
      continue;
    std::vector<double> r;
    std::string worst;
    double worstRatio = 0;
    for (const auto &[name, ratio] : list) {
      r.push_back(ratio);
      if (ratio > worstRatio) {
        worstRatio = ratio;
        worst = name;
      }
    }
    Json &s = sum[id];
    s["kernels"] = r.size();
    s["geomean"] = geomean(r);
    s["max"] = worstRatio;
    s["max_kernel"] = worst;
    s["min"] = *std::min_element(r.begin(), r.end());
    s["above_1_20"] = size_t(std::count_if(r.begin(), r.end(), [](double x) { return x > 1.20; }));
    res.row("overhead", "geomean", id, "ratio", geomean(r), "x");
    res.row("overhead", "max", id, "ratio", worstRatio, "x");
  }
  // Targets (docs/benchmarks.md): the default mode is mask-based, through the runtime.
  Json &t = out["targets"];
  t["geomean_max"] = 1.05;
  t["kernel_max"] = 1.20;
  t["kernels_min"] = 15;
  const auto &mask = ratiosByVariant["mask"];
  if (!mask.empty()) {
    std::vector<double> r;
    double worst = 0;
    std::string worstName;
    for (const auto &[name, ratio] : mask) {
      r.push_back(ratio);
      if (ratio > worst) {
        worst = ratio;
        worstName = name;
      }
    }
    const double g = geomean(r);
    const bool pass = g <= 1.05 && worst <= 1.20 && r.size() >= 15 && mismatches == 0;
    t["geomean"] = g;
    t["max"] = worst;
    t["output_mismatches"] = mismatches;
    t["pass"] = pass;
    char buf[300];
    std::snprintf(buf, sizeof buf,
                  "overhead (mask, default): geomean %.3fx over %zu kernels, max %.3fx (%s), "
                  "%d output mismatches [target <= 1.05x, none > 1.20x, outputs identical: %s]",
                  g, r.size(), worst, worstName.c_str(), mismatches, pass ? "PASS" : "FAIL");
    res.headline(buf);
  }
  const auto &modulo = ratiosByVariant["modulo"];
  if (!modulo.empty()) {
    std::vector<double> r;
    double worst = 0;
    for (const auto &[name, ratio] : modulo) {
      r.push_back(ratio);
      worst = std::max(worst, ratio);
    }
    char buf[200];
    std::snprintf(buf, sizeof buf, "overhead (modulo): geomean %.3fx, max %.3fx", geomean(r),
                  worst);
    res.headline(buf);
  }
  // The preemption checks' cost: mask-raw over mask-nocheck-raw, and fuel's over that,
  // per kernel (same timing method, same run).
  {
    std::map<std::string, double> nocheck, fuel, nounroll;
    for (const auto &[name, r] : ratiosByVariant["mask-nocheck-raw"])
      nocheck[name] = r;
    for (const auto &[name, r] : ratiosByVariant["mask-nounroll-raw"])
      nounroll[name] = r;
    for (const auto &[name, r] : ratiosByVariant["mask-fuel-raw"])
      fuel[name] = r;
    std::vector<double> cost, fuelCost;
    double worst = 0, worstFuel = 0;
    std::string worstName;
    Json &pj = out["preemption_cost"];
    for (const auto &[name, r] : ratiosByVariant["mask-raw"]) {
      auto n = nocheck.find(name);
      if (n == nocheck.end() || !(n->second > 0))
        continue;
      const double c = r / n->second;
      cost.push_back(c);
      pj["kernels"][name]["checks"] = c;
      if (c > worst) {
        worst = c;
        worstName = name;
      }
      double withFuel = NAN;
      if (auto f = fuel.find(name); f != fuel.end()) {
        withFuel = f->second / n->second;
        fuelCost.push_back(withFuel);
        pj["kernels"][name]["checks_with_fuel"] = withFuel;
        worstFuel = std::max(worstFuel, withFuel);
      }
      double noUnroll = NAN; // diagnostic: the checked PTX without ptxas unrolling
      if (auto u = nounroll.find(name); u != nounroll.end()) {
        noUnroll = u->second / n->second;
        pj["kernels"][name]["checks_nounroll"] = noUnroll;
      }
      // Per kernel, against the same run's unchecked PTX (and so against native).
      log("preemption %-16s checks %.4fx, checks with fuel %.4fx, checks without ptxas "
          "unrolling %.4fx (vs native: nocheck %.3f, checks %.3f)",
          name.c_str(), c, withFuel, noUnroll, n->second, r);
      res.row("overhead", name, "preempt-checks", "ratio", c, "x");
      res.row("overhead", name, "preempt-checks-fuel", "ratio", withFuel, "x");
    }
    if (!cost.empty()) {
      pj["geomean"] = geomean(cost);
      pj["max"] = worst;
      pj["max_kernel"] = worstName;
      const bool pass = geomean(cost) <= 1.01 && worst <= 1.03;
      pj["pass"] = pass;
      char buf[300];
      std::snprintf(buf, sizeof buf,
                    "preemption checks (mask-raw / mask-nocheck-raw): geomean %.4fx over %zu "
                    "kernels, max %.4fx (%s) [target <= 1.01x, none > 1.03x: %s]",
                    geomean(cost), cost.size(), worst, worstName.c_str(),
                    pass ? "PASS" : "FAIL");
      res.headline(buf);
      res.row("overhead", "geomean", "preempt-checks", "ratio", geomean(cost), "x");
      res.row("overhead", "max", "preempt-checks", "ratio", worst, "x");
    }
    if (!fuelCost.empty()) {
      pj["fuel_geomean"] = geomean(fuelCost);
      pj["fuel_max"] = worstFuel;
      char buf[200];
      std::snprintf(buf, sizeof buf,
                    "preemption checks with fuel (mask-fuel-raw / mask-nocheck-raw): geomean "
                    "%.4fx, max %.4fx",
                    geomean(fuelCost), worstFuel);
      res.headline(buf);
    }
  }
  auto geomeanOf = [&](const char *variant) {
    const Json *g = sum.contains(variant) ? &sum[variant]["geomean"] : nullptr;
    return g && g->is_number() ? g->get<double>() : double(NAN);
  };
  log("geomean: mask %s, modulo %s, mask-raw %s, modulo-raw %s",
      fmtRatio(geomeanOf("mask")).c_str(),
      fmtRatio(geomeanOf("modulo")).c_str(),
      fmtRatio(geomeanOf("mask-raw")).c_str(),
      fmtRatio(geomeanOf("modulo-raw")).c_str());
}

} // namespace atoll_bench
