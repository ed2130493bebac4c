#include "Bench.h"

#include <algorithm>
#include <cmath>
#include <cstdarg>
#include <cstdio>
#include <filesystem>
#include <fstream>
#include <iterator>
#include <numeric>

#ifndef ATOLL_BENCH_BITCODE_DIR
#define ATOLL_BENCH_BITCODE_DIR ""
#endif

namespace fs = std::filesystem;

namespace atoll_bench {

bool Options::wants(std::string_view section) const {
  if (only.empty())
    return true;
  return std::find(only.begin(), only.end(), section) != only.end();
}

void fail(const std::string &what) { throw BenchError(what); }

void check(const Atoll::Status &s, const std::string &what) {
  if (!s.ok())
    fail(what + ": " + s.error().describe());
}

// --- statistics ----------------------------------------------------------------------

double median(std::vector<double> v) {
  if (v.empty())
    return NAN;
  std::sort(v.begin(), v.end());
  size_t n = v.size();
  return n % 2 ? v[n / 2] : 0.5 * (v[n / 2 - 1] + v[n / 2]);
}

double percentile(std::vector<double> v, double p) {
  if (v.empty())
    return NAN;
  std::sort(v.begin(), v.end());
  size_t rank = size_t(std::ceil(p / 100.0 * double(v.size())));
  rank = std::clamp<size_t>(rank, 1, v.size());
  return v[rank - 1];
}

double mean(const std::vector<double> &v) {
  if (v.empty())
    return NAN;
  return std::accumulate(v.begin(), v.end(), 0.0) / double(v.size());
}

double geomean(const std::vector<double> &v) {
  if (v.empty())
    return NAN;
  double s = 0;
  for (double x : v) {
    if (!(x > 0))
      return NAN;
    s += std::log(x);
  }
  return std::exp(s / double(v.size()));
}

Json summary(const std::vector<double> &v) {
  Json j = Json::object();
  j["median"] = median(v);
  j["min"] = v.empty() ? NAN : *std::min_element(v.begin(), v.end());
  j["max"] = v.empty() ? NAN : *std::max_element(v.begin(), v.end());
  j["p10"] = percentile(v, 10);
  j["p90"] = percentile(v, 90);
  j["n"] = v.size();
  return j;
}

// --- output ----------------------------------------------------------------------------

void log(const char *fmt, ...) {
  va_list ap;
  va_start(ap, fmt);
  std::vfprintf(stdout, fmt, ap);
  va_end(ap);
  std::fputc('\n', stdout);
  std::fflush(stdout);
}

namespace {
std::string csvField(const std::string &s) {
  if (s.find_first_of(",\"\n") == std::string::npos)
    return s;
  std::string out = "\"";
  for (char c : s)
    out += c == '"' ? std::string("\"\"") : std::string(1, c);
  return out + "\"";
}

std::string number(double v) {
  if (!std::isfinite(v))
    return "";
  char buf[64];
  std::snprintf(buf, sizeof buf, "%.6g", v);
  if (std::fabs(v) >= 1e6 && std::fabs(v) < 1e15)
    std::snprintf(buf, sizeof buf, "%.1f", v);
  return buf;
}
} // namespace

void Results::row(const std::string &section, const std::string &item, const std::string &variant,
                  const std::string &metric, double value, const std::string &unit) {
  std::lock_guard lock(mutex);
  rows_.push_back({section, item, variant, metric, number(value), unit});
}

void Results::rowText(const std::string &section, const std::string &item,
                      const std::string &variant, const std::string &metric,
                      const std::string &value) {
  std::lock_guard lock(mutex);
  rows_.push_back({section, item, variant, metric, value, ""});
}

void Results::headline(const std::string &line) {
  std::lock_guard lock(mutex);
  headlines.push_back(line);
  root["headlines"].push_back(line);
}

void Results::error(const std::string &section, const std::string &message) {
  std::lock_guard lock(mutex);
  errors_++;
  Json e = Json::object();
  e["section"] = section;
  e["message"] = message;
  root["errors"].push_back(std::move(e));
  std::fprintf(stdout, "ERROR [%s]: %s\n", section.c_str(), message.c_str());
  std::fflush(stdout);
}

void Results::checkFailed(const std::string &section, const std::string &message) {
  std::lock_guard lock(mutex);
  checksFailed_++;
  Json e = Json::object();
  e["section"] = section;
  e["message"] = message;
  root["check_failures"].push_back(std::move(e));
  std::fprintf(stdout, "CHECK FAILED [%s]: %s\n", section.c_str(), message.c_str());
  std::fflush(stdout);
}

void Results::write(const std::string &dir) {
  std::lock_guard lock(mutex);
  std::error_code ec;
  fs::create_directories(dir, ec);
  root["summary"]["errors"] = errors_;
  root["summary"]["check_failures"] = checksFailed_;
  auto put = [&](const std::string &name, const std::string &text) {
    fs::path path = fs::path(dir) / name;
    fs::path tmp = path;
    tmp += ".tmp";
    {
      std::ofstream o(tmp, std::ios::binary | std::ios::trunc);
      o << text;
      if (!o) {
        std::fprintf(stderr, "atoll-bench: cannot write %s\n", tmp.c_str());
        return;
      }
    }
    fs::rename(tmp, path, ec);
    if (ec)
      std::fprintf(stderr, "atoll-bench: cannot write %s: %s\n", path.c_str(),
                   ec.message().c_str());
  };
  put("results.json", dumpJson(root));
  std::string csv = "section,item,variant,metric,value,unit\n";
  for (const auto &r : rows_) {
    for (size_t i = 0; i < r.size(); ++i) {
      if (i)
        csv += ',';
      csv += csvField(r[i]);
    }
    csv += '\n';
  }
  put("results.csv", csv);
}

// --- the GPU -----------------------------------------------------------------------------

void cu(const Gpu &gpu, CUresult r, const char *what) {
  if (r != CUDA_SUCCESS)
    fail(std::string(what) + " failed: " + Atoll::cuda::describe(*gpu.api, r));
}

void Gpu::makeCurrent() const { cu(*this, api->cuCtxSetCurrent(primary), "cuCtxSetCurrent"); }

PtxModule::PtxModule(const Gpu &gpu, const std::string &ptx, const std::string &what)
    : gpu_(gpu) {
  static char errorLog[16384];
  static std::mutex logMutex;
  std::lock_guard lock(logMutex);
  errorLog[0] = 0;
  CUjit_option keys[] = {CU_JIT_ERROR_LOG_BUFFER, CU_JIT_ERROR_LOG_BUFFER_SIZE_BYTES};
  void *values[] = {errorLog, reinterpret_cast<void *>(uintptr_t(sizeof errorLog))};
  CUresult r = gpu.api->cuModuleLoadDataEx(&mod_, ptx.c_str(), 2, keys, values);
  if (r != CUDA_SUCCESS)
    fail("loading the PTX of " + what + ": " + Atoll::cuda::describe(*gpu.api, r) +
         (errorLog[0] ? std::string("\n") + errorLog : std::string()));
}

PtxModule::~PtxModule() {
  if (mod_)
    gpu_.api->cuModuleUnload(mod_);
}

CUfunction PtxModule::function(const std::string &name) const {
  CUfunction f = nullptr;
  cu(gpu_, gpu_.api->cuModuleGetFunction(&f, mod_, name.c_str()),
     ("cuModuleGetFunction(" + name + ")").c_str());
  return f;
}

EventTimer::EventTimer(const Gpu &gpu) : gpu_(gpu) {
  CU(gpu, cuEventCreate(&a_, CU_EVENT_DEFAULT));
  CU(gpu, cuEventCreate(&b_, CU_EVENT_DEFAULT));
}

EventTimer::~EventTimer() {
  if (a_)
    gpu_.api->cuEventDestroy(a_);
  if (b_)
    gpu_.api->cuEventDestroy(b_);
}

void EventTimer::start(CUstream s) { CU(gpu_, cuEventRecord(a_, s)); }

double EventTimer::stopMs(CUstream s) {
  CU(gpu_, cuEventRecord(b_, s));
  CU(gpu_, cuEventSynchronize(b_));
  float ms = 0;
  CU(gpu_, cuEventElapsedTime(&ms, a_, b_));
  return ms;
}

// --- bitcode -------------------------------------------------------------------------------

std::string resolveBitcodeDir(const Options &opts) {
  auto has = [](const fs::path &dir) {
    std::error_code ec;
    return fs::exists(dir / "vadd.bc", ec);
  };
  if (!opts.bitcodeDir.empty())
    return opts.bitcodeDir;
  std::vector<fs::path> candidates;
  if (*ATOLL_BENCH_BITCODE_DIR)
    candidates.emplace_back(ATOLL_BENCH_BITCODE_DIR);
  if (!opts.exePath.empty())
    candidates.push_back(fs::path(opts.exePath).parent_path() / ".." / "bench" / "kernels");
  for (const auto &c : candidates)
    if (has(c))
      return fs::weakly_canonical(c).string();
  return candidates.empty() ? std::string("bench/kernels") : candidates.front().string();
}

std::vector<uint8_t> readBitcode(const Options &opts, const std::string &name) {
  fs::path path = fs::path(opts.bitcodeDir) / (name + ".bc");
  std::ifstream in(path, std::ios::binary);
  if (!in)
    fail("cannot read " + path.string() +
         " (pass --bitcode-dir DIR: the build's bench/kernels directory)");
  return std::vector<uint8_t>((std::istreambuf_iterator<char>(in)),
                              std::istreambuf_iterator<char>());
}

const EmbeddedPtx &nativePtxFor(const std::string &name, const std::vector<uint8_t> &bitcode) {
  const EmbeddedPtx *e = findEmbeddedPtx(name);
  if (!e)
    fail("no embedded native PTX for '" + name + "'");
  if (e->bitcodeSize != bitcode.size() ||
      e->bitcodeHash != fnv1a64(bitcode.data(), bitcode.size()))
    fail("bitcode '" + name +
         ".bc' is not the one the embedded native PTX was compiled from: rebuild atoll-bench, "
         "or point --bitcode-dir at the bench/kernels directory of its own build");
  return *e;
}

} // namespace atoll_bench
