// atoll-bench: shared infrastructure of the benchmark sections (options, results,
// timing and statistics, the driver and the native-baseline helpers).
#pragma once

#include "EmbeddedPtx.h"
#include "Json.h"

#include "atoll/atoll.h"
#include "cuda/DriverApi.h"

#include <chrono>
#include <cstdint>
#include <memory>
#include <mutex>
#include <stdexcept>
#include <string>
#include <string_view>
#include <vector>

namespace atoll_bench {

// --- options -----------------------------------------------------------------------

struct Options {
  bool quick = false;
  /// Test-only (the mock-driver test): 64x smaller problems, few repetitions.
  bool tiny = false;
  std::vector<std::string> only;   // empty = every section
  /// Diagnostics of the overhead section: only these kernels (empty = all), and
  /// extra raw variants "KERNEL:LABEL:FILE" (a PTX file launched like mask-raw,
  /// reported against mask-nocheck-raw and mask-raw of the same run).
  std::vector<std::string> kernels;
  std::vector<std::string> extraPtx;
  std::string outDir = "atoll-bench-results";
  std::string bitcodeDir;          // resolved by resolveBitcodeDir()
  double timeLimitSec = 0;         // watchdog; 0 = the default of the mode
  int device = 0;
  std::string commandLine;
  std::string exePath;
  /// --jit-cache: leave the CUDA driver's JIT cache (~/.nv/ComputeCache) as the
  /// environment has it; by default atoll-bench sets CUDA_CACHE_DISABLE=1 first.
  bool jitCache = false;
  /// The cache's state for this run, in words (set in main; results.json, the log).
  std::string jitCacheState;

  // --tenant-process (a child of the multi-tenant benchmark)
  bool tenantProcess = false;
  int tenantLaunches = 0, tenantBatch = 0, tenantIters = 0, tenantGrid = 0, tenantBlock = 0;

  bool wants(std::string_view section) const;
};

// --- errors --------------------------------------------------------------------------

/// Thrown inside a section; the section is recorded as failed, the others still run.
struct BenchError : std::runtime_error {
  using std::runtime_error::runtime_error;
};

[[noreturn]] void fail(const std::string &what);
/// The value of a Result or a BenchError naming `what`.
template <typename T> T take(Atoll::Result<T> r, const std::string &what) {
  if (!r.ok())
    fail(what + ": " + r.error().describe());
  return std::move(r).value();
}
void check(const Atoll::Status &s, const std::string &what);

// --- time and statistics -------------------------------------------------------------

using Clock = std::chrono::steady_clock;
inline double secondsSince(Clock::time_point t) {
  return std::chrono::duration<double>(Clock::now() - t).count();
}
inline double usBetween(Clock::time_point a, Clock::time_point b) {
  return std::chrono::duration<double, std::micro>(b - a).count();
}
inline int64_t nowNs() {
  return std::chrono::duration_cast<std::chrono::nanoseconds>(Clock::now().time_since_epoch())
      .count();
}

double median(std::vector<double> v);
/// Nearest-rank percentile, p in [0, 100].
double percentile(std::vector<double> v, double p);
double mean(const std::vector<double> &v);
double geomean(const std::vector<double> &v);
/// {"median", "min", "max", "p10", "p90", "n"} of the samples.
Json summary(const std::vector<double> &v);

/// Soft time budget of a section: loops check it and do less when it is spent.
struct Budget {
  Clock::time_point start = Clock::now();
  double seconds = 0;
  double elapsed() const { return secondsSince(start); }
  bool spent() const { return elapsed() > seconds; }
};

// --- output --------------------------------------------------------------------------

void log(const char *fmt, ...) __attribute__((format(printf, 1, 2)));

class Results {
public:
  Json root = Json::object();
  /// One row of results.csv: section,item,variant,metric,value,unit.
  void row(const std::string &section, const std::string &item, const std::string &variant,
           const std::string &metric, double value, const std::string &unit);
  void rowText(const std::string &section, const std::string &item, const std::string &variant,
               const std::string &metric, const std::string &value);
  void error(const std::string &section, const std::string &message);
  void checkFailed(const std::string &section, const std::string &message);
  /// A line for the final summary (also stored under "headlines").
  void headline(const std::string &line);
  int checksFailed() const { return checksFailed_; }
  int errors() const { return errors_; }
  /// Writes results.json and results.csv (temp file + rename). Thread-safe.
  void write(const std::string &dir);

  std::mutex mutex;

private:
  std::vector<std::vector<std::string>> rows_;
public:
  std::vector<std::string> headlines;
private:
  int checksFailed_ = 0, errors_ = 0;
};

// --- the GPU ---------------------------------------------------------------------------

/// The driver and the device's primary context (the one the runtime uses too).
struct Gpu {
  const Atoll::cuda::DriverApi *api = nullptr;
  CUdevice dev = 0;
  CUcontext primary = nullptr;
  std::string name;
  int ccMajor = 0, ccMinor = 0;
  int driverVersion = 0;
  std::string driverRelease; // from /proc/driver/nvidia/version when present
  uint64_t totalMemory = 0;
  int smCount = 0;
  std::string arch() const { return "sm_" + std::to_string(ccMajor) + std::to_string(ccMinor); }
  void makeCurrent() const;
};

/// Throws BenchError with the driver's text when r is not CUDA_SUCCESS.
void cu(const Gpu &gpu, CUresult r, const char *what);
#define CU(gpu, call) ::atoll_bench::cu((gpu), (gpu).api->call, #call)

/// A module loaded from PTX text in the current context (unloaded on destruction).
class PtxModule {
public:
  PtxModule(const Gpu &gpu, const std::string &ptx, const std::string &what);
  ~PtxModule();
  PtxModule(const PtxModule &) = delete;
  PtxModule &operator=(const PtxModule &) = delete;
  CUfunction function(const std::string &name) const;
  CUmodule handle() const { return mod_; }

private:
  const Gpu &gpu_;
  CUmodule mod_ = nullptr;
};

/// A pair of events on one stream: elapsed GPU time of what was enqueued between.
class EventTimer {
public:
  explicit EventTimer(const Gpu &gpu);
  ~EventTimer();
  void start(CUstream s);
  /// Records the stop event, waits for it and returns the elapsed milliseconds.
  double stopMs(CUstream s);

private:
  const Gpu &gpu_;
  CUevent a_ = nullptr, b_ = nullptr;
};

// --- bitcode and native PTX ------------------------------------------------------------

/// The directory with the kernels' bitcode: --bitcode-dir, else the build-time
/// path, else <exe dir>/../bench/kernels (the GPU bundle's layout).
std::string resolveBitcodeDir(const Options &opts);
std::vector<uint8_t> readBitcode(const Options &opts, const std::string &name);
/// The embedded native PTX of `name`; checks that it was built from exactly these
/// bitcode bytes.
const EmbeddedPtx &nativePtxFor(const std::string &name, const std::vector<uint8_t> &bitcode);

// --- the sections --------------------------------------------------------------------

struct Context {
  Options opts;
  Results *results = nullptr;
  Gpu *gpu = nullptr;                     // null without a device
  Atoll::Runtime *runtime = nullptr;      // the shared runtime (pooled arenas)
  std::string noDeviceReason;
};

void runCompile(Context &ctx);
void runOverhead(Context &ctx);
void runStartup(Context &ctx);
void runLaunch(Context &ctx);
void runMultiTenant(Context &ctx);
void runCancel(Context &ctx);
void runPartition(Context &ctx);
/// The child process of the multi-tenant baseline (its own CUDA context).
int runTenantProcess(const Options &opts);

/// Deterministic pseudo-random numbers (splitmix64).
struct Rng {
  uint64_t s;
  explicit Rng(uint64_t seed) : s(seed) {}
  uint64_t next() {
    uint64_t z = (s += 0x9e3779b97f4a7c15ull);
    z = (z ^ (z >> 30)) * 0xbf58476d1ce4e5b9ull;
    z = (z ^ (z >> 27)) * 0x94d049bb133111ebull;
    return z ^ (z >> 31);
  }
  uint32_t u32() { return uint32_t(next() >> 32); }
  /// Uniform in [lo, hi).
  float uniform(float lo, float hi) {
    return lo + (hi - lo) * float(double(next() >> 40) / double(1ull << 24));
  }
  uint64_t below(uint64_t n) { return next() % n; }
};

} // namespace atoll_bench
