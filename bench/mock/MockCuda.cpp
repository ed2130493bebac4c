// A stand-in libcuda.so.1 for exercising atoll-bench without a GPU (test double; it
// is never part of a build's bin/ or lib/, nor of the GPU bundle).
//
// "Device" memory is host memory (so device addresses are host pointers), streams
// complete work at once and keep a virtual clock that launches advance, and
// cuLaunchKernel runs a C++ model of the benchmark's kernels (bench/kernels/*.cu),
// found by the kernel name in the loaded PTX or cubin (the runtime loads cubins: the
// mock reads their ELF symbols and EIATTR_KPARAM_INFO parameter records). A hardened
// kernel (ATOLL_HIDDEN_PARAM_COUNT more parameters than its native signature) is
// modelled as 3% slower, so the benchmark's whole
// pipeline of timing, ratios, checks and reports can be tested end to end. To keep
// that fast, the heavy kernels are modelled only at the first two launches of each
// loaded function (the output checks of native and native-arena); later launches only
// advance the clock.
#include <cuda.h>

#include "atoll/abi.h"

#include "../src/Reference.h"

#include <algorithm>
#include <cctype>
#include <atomic>
#include <chrono>
#include <cmath>
#include <cstdint>
#include <cstdlib>
#include <condition_variable>
#include <cstring>
#include <map>
#include <memory>
#include <mutex>
#include <bitset>
#include <set>
#include <string>
#include <vector>

#include <sys/mman.h>

namespace {

namespace ref = atoll_bench::ref;

struct GreenCtx;
struct Stream {
  double t = 0;     // ms of virtual GPU time
  int pending = 0;  // held kernels and the work queued behind them (hold mode)
  int deferred = 0; // cancel sets issued here and not yet landed (atollMockDeferCancelSets)
  GreenCtx *green = nullptr; // made by cuGreenCtxStreamCreate
};
struct Event {
  double t = 0;
  Stream *on = nullptr; // hold mode: recorded behind held work on this stream
};
struct Function {
  std::string name;
  int params = 0;
  // From a cubin's EIATTR_KPARAM_INFO (offset, size per parameter); empty for PTX.
  std::vector<std::pair<size_t, size_t>> layout;
  std::atomic<unsigned> launches{0};
  // The stack frame ptxas gave it (EIATTR_FRAME_SIZE of the cubin's .nv.info: its
  // .local depot and its spills), reported as CU_FUNC_ATTRIBUTE_LOCAL_SIZE_BYTES.
  int frameBytes = 0;
};
struct Module {
  std::map<std::string, std::unique_ptr<Function>> functions;
};

// Module loads by image kind (atollMockModuleLoads) and the fault the next loads
// report (atollMockModuleFault), for the runtime's driver-side module check tests.
std::atomic<unsigned long> g_ptxLoads{0}, g_cubinLoads{0};
std::atomic<long> g_liveModules{0};
std::atomic<int> g_moduleFault{0};
// The primary context's per-thread stack limit (CU_LIMIT_STACK_SIZE, 1024 bytes as a
// fresh context has), cuCtxSetLimit calls and the faults the runtime's tests inject
// (atollMockStackLimit): the result cuCtxSetLimit fails with, a value the driver
// clamps the limit to. And the CU_FUNC_ATTRIBUTE_LOCAL_SIZE_BYTES every function
// reports (by default its frame from the cubin), or the result its query fails with
// (atollMockLocalBytes).
std::atomic<unsigned long> g_stackLimit{1024}, g_stackLimitSets{0}, g_stackLimitClamp{0};
std::atomic<int> g_stackLimitFault{0};
std::atomic<int> g_localBytes{-1}, g_localBytesFault{0}; // -1: the cubin's frame
struct Ctx {
  int id;
};

std::mutex g_mutex;
Stream g_nullStream;
Ctx g_primary{0};
std::atomic<int> g_nextCtx{1};
thread_local CUcontext t_current = nullptr;
std::set<void *> g_hostAllocs;
struct Reservation {
  void *mapping;
  size_t mappingSize;
};
std::map<CUdeviceptr, Reservation> g_reservations;

// Green contexts (SM partitions): a 132-SM device, minimum partition 8 SMs,
// co-scheduling alignment 8, as measured on the H200. A split's group is SMs
// [first, first + count); a descriptor and a green context hold the union of their
// groups. ATOLL_MOCK_GREEN=unsupported makes cuDeviceGetDevResource fail (a device
// without partitions).
constexpr unsigned kMockSms = 132;
struct GreenCtx {
  std::bitset<kMockSms> sms;
  int streams = 0; // streams of it not yet destroyed
};
struct GreenDesc {
  std::bitset<kMockSms> sms;
};
long g_greenLive = 0;
unsigned long g_greenCreated = 0, g_greenDestroyedWithStreams = 0;
unsigned g_lastLaunchSms = 0; // SMs of the last launch's stream (kMockSms: not green)

// A group's SMs as a mask in the resource's padding (the real driver keeps its own
// data there). SMs sit in GPCs of 18,18,18,18,18,18,16,8 (132): a co-scheduled group
// never straddles a GPC, so a split by 8 gives 15 groups and a remainder of 12, as
// measured on the H200.
using SmMask = std::bitset<kMockSms>;
constexpr unsigned kGpcs[] = {18, 18, 18, 18, 18, 18, 16, 8};
void putGroup(CUdevResource &r, const SmMask &sms) {
  r = CUdevResource{};
  r.type = CU_DEV_RESOURCE_TYPE_SM;
  r.sm.smCount = unsigned(sms.count());
  r.sm.minSmPartitionSize = 8;
  r.sm.smCoscheduledAlignment = 8;
  for (unsigned k = 0; k < kMockSms; ++k)
    if (sms.test(k))
      r._internal_padding[k / 8] |= uint8_t(1u << (k % 8));
}
SmMask groupOf(const CUdevResource &r) {
  SmMask m;
  for (unsigned k = 0; k < kMockSms; ++k)
    if (r._internal_padding[k / 8] & (1u << (k % 8)))
      m.set(k);
  return m;
}

Stream &streamOf(CUstream s) { return s ? *reinterpret_cast<Stream *>(s) : g_nullStream; }

// Hold mode (atollMockHoldKernels, for the runtime's unit tests): kernels keep
// running until hold mode ends or their control block's cancel word is set, and
// their streams report NOT_READY. Calls that the real driver would block in are
// counted instead (atollMockWouldBlock): an enqueue on a full queue, and a copy
// with pageable host memory behind a running kernel. All under g_mutex.
bool g_hold = false;
// Held copies (atollMockHoldCopies, with hold mode): copies and byte fills
// (cuMemcpy*Async, cuMemsetD8Async) enqueued while on are held like kernels, even on
// an idle stream, until hold mode ends; a cancel word does not end them (a memset or
// a DMA cannot poll). Control-block writes (cuMemsetD32Async) are never held.
bool g_holdCopies = false;
bool g_ignoreCancel = false;
unsigned long g_wouldBlock = 0;
int g_queueDepth = 1024;
std::map<CUdeviceptr, Stream *> g_controlStream; // control block -> stream of its kernels

// Deferred cancel sets (atollMockDeferCancelSets): a cancel word set lands only
// when the test says so (a late write of an earlier owner of a control block); its
// stream reports NOT_READY until then, hold mode or not.
bool g_deferSets = false;
std::vector<std::pair<CUdeviceptr, Stream *>> g_deferredSets;

bool busy(Stream &st) {
  if (!g_hold)
    st.pending = 0;
  return st.pending > 0 || st.deferred > 0;
}
// Work enqueued on `st`: queued behind a held kernel, it is held too.
void enqueued(Stream &st, bool kernel) {
  if (!g_hold || (!kernel && !busy(st)))
    return;
  if (st.pending >= g_queueDepth)
    ++g_wouldBlock;
  ++st.pending;
}
// Waiting mode (atollMockWaitingCalls, with hold mode): the driver 580 behaviour
// measured on the H200 (docs/architecture.md, "Driver calls that wait"). Module
// loads and unloads, cuMemFree, cuMemFreeHost, cuMemHostUnregister and the release
// of the primary context return only once no stream has a held kernel; and while one
// thread waits in such a call, every other thread's driver call (stream, event,
// memory, launch calls: ctxLocked) waits too, as if the driver held a context lock.
// atollMockWaitedCalls counts the waiting calls that had to wait.
bool g_waitingMode = false;
int g_waiters = 0;
unsigned long g_waitedCalls = 0;
std::condition_variable g_cv;
std::set<Stream *> g_streams;

bool anyBusy() {
  for (Stream *s : g_streams)
    if (busy(*s))
      return true;
  return busy(g_nullStream);
}
/// A call that waits for every running kernel of the context.
void waitingCall() {
  std::unique_lock lock(g_mutex);
  g_cv.wait(lock, [] { return g_waiters == 0 || !g_waitingMode; });
  if (!g_waitingMode || !anyBusy())
    return;
  ++g_waitedCalls;
  ++g_waiters;
  g_cv.wait(lock, [] { return !g_waitingMode || !anyBusy(); });
  --g_waiters;
  g_cv.notify_all();
}
/// g_mutex, once no thread waits in a waiting call (the context lock).
std::unique_lock<std::mutex> ctxLocked() {
  std::unique_lock lock(g_mutex);
  g_cv.wait(lock, [] { return g_waiters == 0 || !g_waitingMode; });
  return lock;
}

void hostCopy(CUstream s, const void *host) {
  auto lock = ctxLocked();
  Stream &st = streamOf(s);
  if (busy(st) && !g_hostAllocs.count(const_cast<void *>(host)))
    ++g_wouldBlock;
  enqueued(st, g_holdCopies);
}

template <typename T> T arg(void **p, int i) { return *static_cast<T *>(p[i]); }
template <typename T> T *ptr(void **p, int i) {
  return reinterpret_cast<T *>(*static_cast<uint64_t *>(p[i]));
}

// Native parameter counts of the modelled kernels (hardened = +2).
const std::map<std::string, int> kNativeParams = {
    {"vadd", 4},          {"saxpy", 5},         {"copy", 3},          {"stencil2d", 4},
    {"stencil3d", 5},     {"gemm_tiled", 4},    {"gemm_naive", 4},    {"reduce_atomic", 3},
    {"histogram", 3},     {"gather_scatter", 5}, {"transpose", 4},    {"local_array", 4},
    {"const_table", 4},   {"vec4", 5},          {"libdevice_math", 3}, {"pointer_chase", 5},
    {"first_result", 2},  {"launch_probe", 3},  {"spin", 2},
    {"spin_register", 2}, {"spin_memory", 1}, {"hog_compute", 2}, {"hog_memory", 4},
    {"sm_probe", 2},      {"spin_timed", 4}};

/// Runs the model of kernel `f`; returns its virtual duration in ms.
double model(Function &f, unsigned gx, unsigned bx, void **p, bool execute) {
  const std::string &n = f.name;
  if (n == "first_result") {
    int *out = ptr<int>(p, 0);
    for (unsigned t = 0; t < bx; ++t)
      out[t] = arg<int>(p, 1) + int(t);
    return 0.002;
  }
  if (n == "launch_probe") {
    float *out = ptr<float>(p, 0);
    int cnt = std::min<int>(arg<int>(p, 1), int(gx * bx));
    for (int i = 0; i < cnt; ++i)
      out[i] = arg<float>(p, 2) * float(i);
    return 0.002;
  }
  if (n == "spin") {
    float *out = ptr<float>(p, 0);
    for (unsigned i = 0; i < gx * bx; ++i)
      out[i] = 1.0f;
    return arg<int>(p, 1) * 5e-6;
  }
  if (n == "spin_timed") { // as spin; its first thread's times at a 1.98 GHz clock
    float *out = ptr<float>(p, 0);
    for (unsigned i = 0; i < gx * bx; ++i)
      out[i] = 1.0f;
    auto *t = ptr<unsigned long long>(p, 2);
    const unsigned long long slot = unsigned(arg<int>(p, 3)), ns = unsigned(arg<int>(p, 1)) * 2ull;
    t[3 * slot] = 1'000'000 + slot * 100'000;
    t[3 * slot + 1] = t[3 * slot] + ns;
    t[3 * slot + 2] = ns * 198 / 100;
    return arg<int>(p, 1) * 5e-6;
  }
  if (n == "hog_compute") // a long grid: its length in ns, on every block
    return double(arg<unsigned long long>(p, 1)) * 1e-6;
  if (n == "hog_memory")
    return 0.5;
  if (!execute)
    return 0.2;
  if (n == "vadd") {
    const float *a = ptr<float>(p, 0), *b = ptr<float>(p, 1);
    float *c = ptr<float>(p, 2);
    for (int i = 0; i < arg<int>(p, 3); ++i)
      c[i] = a[i] + b[i];
  } else if (n == "saxpy") {
    float a = arg<float>(p, 0);
    const float *x = ptr<float>(p, 1), *y = ptr<float>(p, 2);
    float *o = ptr<float>(p, 3);
    for (int i = 0; i < arg<int>(p, 4); ++i)
      o[i] = a * x[i] + y[i];
  } else if (n == "copy") {
    std::memcpy(ptr<float>(p, 1), ptr<float>(p, 0), size_t(arg<long long>(p, 2)) * 4);
  } else if (n == "stencil2d") {
    const float *in = ptr<float>(p, 0);
    float *o = ptr<float>(p, 1);
    int nx = arg<int>(p, 2), ny = arg<int>(p, 3);
    for (size_t i = 0; i < size_t(nx) * size_t(ny); ++i)
      o[i] = ref::stencil2d<float>(in, nx, ny, i);
  } else if (n == "stencil3d") {
    const float *in = ptr<float>(p, 0);
    float *o = ptr<float>(p, 1);
    int nx = arg<int>(p, 2), ny = arg<int>(p, 3), nz = arg<int>(p, 4);
    for (size_t i = 0; i < size_t(nx) * size_t(ny) * size_t(nz); ++i)
      o[i] = ref::stencil3d<float>(in, nx, ny, nz, i);
  } else if (n == "gemm_tiled" || n == "gemm_naive") {
    const int dim = arg<int>(p, 3);
    float *C = ptr<float>(p, 2);
    for (size_t r = 0; r < size_t(dim); ++r)
      for (size_t c = 0; c < size_t(dim); ++c)
        C[r * size_t(dim) + c] = ref::gemm<float>(ptr<float>(p, 0), ptr<float>(p, 1), dim, r, c);
  } else if (n == "reduce_atomic") {
    const uint32_t *in = ptr<uint32_t>(p, 0);
    uint64_t s = 0;
    for (int i = 0; i < arg<int>(p, 2); ++i)
      s += in[i];
    *ptr<uint64_t>(p, 1) += s;
  } else if (n == "histogram") {
    const uint32_t *in = ptr<uint32_t>(p, 0);
    uint32_t *bins = ptr<uint32_t>(p, 1);
    for (int i = 0; i < arg<int>(p, 2); ++i)
      bins[in[i] & 255u]++;
  } else if (n == "gather_scatter") {
    const float *src = ptr<float>(p, 0);
    const int *g = ptr<int>(p, 1), *s = ptr<int>(p, 2);
    float *dst = ptr<float>(p, 3);
    for (int i = 0; i < arg<int>(p, 4); ++i)
      dst[s[i]] = 2.0f * src[g[i]] + 1.0f;
  } else if (n == "transpose") {
    const float *in = ptr<float>(p, 0);
    float *o = ptr<float>(p, 1);
    int w = arg<int>(p, 2), h = arg<int>(p, 3);
    for (int r = 0; r < h; ++r)
      for (int c = 0; c < w; ++c)
        o[size_t(c) * h + r] = in[size_t(r) * w + c];
  } else if (n == "local_array") {
    const uint32_t *keys = ptr<uint32_t>(p, 0);
    const float *vals = ptr<float>(p, 1);
    float *o = ptr<float>(p, 2);
    for (int i = 0; i < arg<int>(p, 3); ++i)
      o[i] = ref::localArray(keys[i], vals[i]);
  } else if (n == "const_table") {
    const float *in = ptr<float>(p, 0);
    const uint32_t *keys = ptr<uint32_t>(p, 1);
    float *o = ptr<float>(p, 2);
    for (int i = 0; i < arg<int>(p, 3); ++i)
      o[i] = ref::constTable<float>(in, keys, size_t(i));
  } else if (n == "vec4") {
    const float *a = ptr<float>(p, 0), *b = ptr<float>(p, 1);
    float *o = ptr<float>(p, 2);
    float s = arg<float>(p, 3);
    for (int i = 0; i < arg<int>(p, 4) * 4; ++i)
      o[i] = s * a[i] + b[i];
  } else if (n == "libdevice_math") {
    const float *in = ptr<float>(p, 0);
    float *o = ptr<float>(p, 1);
    for (int i = 0; i < arg<int>(p, 2); ++i)
      o[i] = ref::libdeviceMath<float>(in[i]);
  } else if (n == "pointer_chase") {
    const int32_t *nodes = ptr<int32_t>(p, 0), *start = ptr<int32_t>(p, 1);
    int32_t *o = ptr<int32_t>(p, 2);
    int hops = arg<int>(p, 3);
    for (int i = 0; i < arg<int>(p, 4); ++i)
      o[i] = ref::pointerChase(nodes, start[i], hops);
  }
  return 0.2;
}

} // namespace

// Driver calls per thread and entry point (atollMockCalls): the tests count what
// one createPipeline costs in driver calls, without the runtime's other threads.
thread_local std::map<std::string, unsigned long> t_calls;
thread_local unsigned long t_callsTotal = 0;
void countCall(const char *name) {
  // Under the names the runtime's sources use: cuda.h renames some entry points
  // (cuStreamDestroy is cuStreamDestroy_v2), and so __func__.
  std::string key = name;
  if (auto v = key.rfind("_v"); v != std::string::npos && v + 2 < key.size() &&
                                std::isdigit(static_cast<unsigned char>(key[v + 2])))
    key.resize(v);
  ++t_calls[key];
  ++t_callsTotal;
}

extern "C" {

CUresult cuInit(unsigned int) { countCall(__func__); return CUDA_SUCCESS; }
CUresult cuDriverGetVersion(int *v) { countCall(__func__);
  *v = 13000;
  return CUDA_SUCCESS;
}
CUresult cuGetErrorName(CUresult e, const char **s) { countCall(__func__);
  static thread_local char buf[64];
  std::snprintf(buf, sizeof buf, "MOCK_ERROR_%d", int(e));
  *s = buf;
  return CUDA_SUCCESS;
}
CUresult cuGetErrorString(CUresult, const char **s) { countCall(__func__);
  *s = "mock driver error";
  return CUDA_SUCCESS;
}
CUresult cuDeviceGetCount(int *c) { countCall(__func__);
  *c = 1;
  return CUDA_SUCCESS;
}
CUresult cuDeviceGet(CUdevice *d, int ordinal) { countCall(__func__);
  if (ordinal != 0)
    return CUDA_ERROR_INVALID_DEVICE;
  *d = 0;
  return CUDA_SUCCESS;
}
CUresult cuDeviceGetName(char *name, int len, CUdevice) { countCall(__func__);
  std::snprintf(name, size_t(len), "Mock GPU (bench/mock/MockCuda.cpp)");
  return CUDA_SUCCESS;
}
CUresult cuDeviceGetAttribute(int *v, CUdevice_attribute a, CUdevice) { countCall(__func__);
  switch (a) {
  case CU_DEVICE_ATTRIBUTE_COMPUTE_CAPABILITY_MAJOR: *v = 9; break;
  case CU_DEVICE_ATTRIBUTE_COMPUTE_CAPABILITY_MINOR: *v = 0; break;
  case CU_DEVICE_ATTRIBUTE_MULTIPROCESSOR_COUNT: *v = 132; break;
  case CU_DEVICE_ATTRIBUTE_MAX_THREADS_PER_BLOCK: *v = 1024; break;
  case CU_DEVICE_ATTRIBUTE_MAX_BLOCK_DIM_X: *v = 1024; break;
  case CU_DEVICE_ATTRIBUTE_MAX_BLOCK_DIM_Y: *v = 1024; break;
  case CU_DEVICE_ATTRIBUTE_MAX_BLOCK_DIM_Z: *v = 64; break;
  case CU_DEVICE_ATTRIBUTE_MAX_GRID_DIM_X: *v = 2147483647; break;
  case CU_DEVICE_ATTRIBUTE_MAX_GRID_DIM_Y: *v = 65535; break;
  case CU_DEVICE_ATTRIBUTE_MAX_GRID_DIM_Z: *v = 65535; break;
  case CU_DEVICE_ATTRIBUTE_MAX_SHARED_MEMORY_PER_BLOCK: *v = 48 << 10; break;
  case CU_DEVICE_ATTRIBUTE_MAX_SHARED_MEMORY_PER_BLOCK_OPTIN: *v = 227 << 10; break;
  case CU_DEVICE_ATTRIBUTE_VIRTUAL_MEMORY_MANAGEMENT_SUPPORTED: *v = 1; break;
  default: *v = 0; break;
  }
  return CUDA_SUCCESS;
}
CUresult cuDeviceTotalMem(size_t *b, CUdevice) { countCall(__func__);
  *b = size_t(16) << 30;
  return CUDA_SUCCESS;
}
CUresult cuDevicePrimaryCtxRetain(CUcontext *c, CUdevice) { countCall(__func__);
  *c = reinterpret_cast<CUcontext>(&g_primary);
  return CUDA_SUCCESS;
}
CUresult cuDevicePrimaryCtxRelease(CUdevice) { countCall(__func__);
  waitingCall(); // assumed: the last release destroys the context, which waits
  return CUDA_SUCCESS;
}
CUresult cuDevicePrimaryCtxReset(CUdevice) { countCall(__func__);
  g_stackLimit = 1024; // a reset context starts with the default limits
  return CUDA_SUCCESS;
}
CUresult cuCtxSetCurrent(CUcontext c) { countCall(__func__);
  t_current = c;
  return CUDA_SUCCESS;
}
CUresult cuCtxGetCurrent(CUcontext *c) { countCall(__func__);
  *c = t_current;
  return CUDA_SUCCESS;
}
CUresult cuCtxSynchronize() { countCall(__func__); return CUDA_SUCCESS; }
CUresult cuCtxCreate(CUcontext *c, CUctxCreateParams *, unsigned int, CUdevice) { countCall(__func__);
  *c = reinterpret_cast<CUcontext>(new Ctx{g_nextCtx++});
  t_current = *c;
  return CUDA_SUCCESS;
}
CUresult cuCtxDestroy(CUcontext c) { countCall(__func__);
  if (c == reinterpret_cast<CUcontext>(&g_primary))
    return CUDA_ERROR_INVALID_CONTEXT;
  if (t_current == c)
    t_current = nullptr;
  delete reinterpret_cast<Ctx *>(c);
  return CUDA_SUCCESS;
}
CUresult cuCtxGetLimit(size_t *v, CUlimit l) { countCall(__func__);
  *v = l == CU_LIMIT_STACK_SIZE ? g_stackLimit.load() : 1024;
  return CUDA_SUCCESS;
}
CUresult cuCtxSetLimit(CUlimit l, size_t v) { countCall(__func__);
  waitingCall(); // "the device will block until all preceding requested tasks are complete"
  g_stackLimitSets++;
  if (int fault = g_stackLimitFault.load())
    return static_cast<CUresult>(fault);
  if (l == CU_LIMIT_STACK_SIZE) {
    unsigned long clamp = g_stackLimitClamp.load();
    g_stackLimit = clamp && v > clamp ? clamp : v;
  }
  return CUDA_SUCCESS;
}

CUresult cuStreamCreate(CUstream *s, unsigned int) { countCall(__func__);
  auto lock = ctxLocked();
  auto *st = new Stream;
  g_streams.insert(st);
  *s = reinterpret_cast<CUstream>(st);
  return CUDA_SUCCESS;
}
CUresult cuStreamDestroy(CUstream s) { countCall(__func__);
  auto lock = ctxLocked();
  if (GreenCtx *g = reinterpret_cast<Stream *>(s)->green)
    --g->streams;
  for (auto i = g_controlStream.begin(); i != g_controlStream.end();)
    i = i->second == reinterpret_cast<Stream *>(s) ? g_controlStream.erase(i) : std::next(i);
  g_streams.erase(reinterpret_cast<Stream *>(s));
  delete reinterpret_cast<Stream *>(s);
  g_cv.notify_all();
  return CUDA_SUCCESS;
}
CUresult cuStreamSynchronize(CUstream) { countCall(__func__); return CUDA_SUCCESS; }
CUresult cuStreamQuery(CUstream s) { countCall(__func__);
  auto lock = ctxLocked();
  return busy(streamOf(s)) ? CUDA_ERROR_NOT_READY : CUDA_SUCCESS;
}
CUresult cuStreamWaitEvent(CUstream s, CUevent e, unsigned int) { countCall(__func__);
  auto lock = ctxLocked();
  Stream &st = streamOf(s);
  st.t = std::max(st.t, reinterpret_cast<Event *>(e)->t);
  return CUDA_SUCCESS;
}
CUresult cuEventCreate(CUevent *e, unsigned int) { countCall(__func__);
  auto lock = ctxLocked();
  *e = reinterpret_cast<CUevent>(new Event);
  return CUDA_SUCCESS;
}
CUresult cuEventDestroy(CUevent e) { countCall(__func__);
  auto lock = ctxLocked();
  delete reinterpret_cast<Event *>(e);
  return CUDA_SUCCESS;
}
CUresult cuEventRecord(CUevent e, CUstream s) { countCall(__func__);
  auto lock = ctxLocked();
  reinterpret_cast<Event *>(e)->t = streamOf(s).t;
  reinterpret_cast<Event *>(e)->on = busy(streamOf(s)) ? &streamOf(s) : nullptr;
  return CUDA_SUCCESS;
}
CUresult cuEventQuery(CUevent e) { countCall(__func__);
  // Hold mode: not complete while the stream it was recorded on still holds work.
  auto lock = ctxLocked();
  Stream *on = reinterpret_cast<Event *>(e)->on;
  return on && g_streams.count(on) && busy(*on) ? CUDA_ERROR_NOT_READY : CUDA_SUCCESS;
}
CUresult cuEventSynchronize(CUevent) { countCall(__func__); return CUDA_SUCCESS; }
CUresult cuEventElapsedTime(float *ms, CUevent a, CUevent b) { countCall(__func__);
  auto lock = ctxLocked();
  *ms = float(reinterpret_cast<Event *>(b)->t - reinterpret_cast<Event *>(a)->t);
  return CUDA_SUCCESS;
}

CUresult cuMemAlloc(CUdeviceptr *p, size_t n) { countCall(__func__);
  auto lock = ctxLocked();
  void *m = std::aligned_alloc(256, (n + 255) / 256 * 256);
  if (!m)
    return CUDA_ERROR_OUT_OF_MEMORY;
  *p = reinterpret_cast<CUdeviceptr>(m);
  return CUDA_SUCCESS;
}
CUresult cuMemFree(CUdeviceptr p) { countCall(__func__);
  waitingCall();
  std::free(reinterpret_cast<void *>(p));
  return CUDA_SUCCESS;
}
CUresult cuMemGetInfo(size_t *f, size_t *t) { countCall(__func__);
  *f = size_t(12) << 30;
  *t = size_t(16) << 30;
  return CUDA_SUCCESS;
}
CUresult cuMemAllocHost(void **p, size_t n) { countCall(__func__);
  *p = std::malloc(n);
  auto lock = ctxLocked();
  g_hostAllocs.insert(*p);
  return CUDA_SUCCESS;
}
CUresult cuMemFreeHost(void *p) { countCall(__func__);
  waitingCall();
  {
    auto lock = ctxLocked();
    g_hostAllocs.erase(p);
  }
  std::free(p);
  return CUDA_SUCCESS;
}
CUresult cuMemHostRegister(void *p, size_t, unsigned int) { countCall(__func__);
  auto lock = ctxLocked();
  g_hostAllocs.insert(p);
  return CUDA_SUCCESS;
}
CUresult cuMemHostUnregister(void *p) { countCall(__func__);
  waitingCall();
  auto lock = ctxLocked();
  return g_hostAllocs.erase(p) ? CUDA_SUCCESS : CUDA_ERROR_HOST_MEMORY_NOT_REGISTERED;
}
CUresult cuMemcpyHtoD(CUdeviceptr d, const void *s, size_t n) { countCall(__func__);
  { auto lock = ctxLocked(); }
  std::memcpy(reinterpret_cast<void *>(d), s, n);
  return CUDA_SUCCESS;
}
CUresult cuMemcpyDtoH(void *d, CUdeviceptr s, size_t n) { countCall(__func__);
  { auto lock = ctxLocked(); }
  std::memcpy(d, reinterpret_cast<void *>(s), n);
  return CUDA_SUCCESS;
}
CUresult cuMemcpyDtoD(CUdeviceptr d, CUdeviceptr s, size_t n) { countCall(__func__);
  { auto lock = ctxLocked(); }
  std::memmove(reinterpret_cast<void *>(d), reinterpret_cast<void *>(s), n);
  return CUDA_SUCCESS;
}
CUresult cuMemcpyHtoDAsync(CUdeviceptr d, const void *s, size_t n, CUstream st) { countCall(__func__);
  hostCopy(st, s);
  return cuMemcpyHtoD(d, s, n);
}
CUresult cuMemcpyDtoHAsync(void *d, CUdeviceptr s, size_t n, CUstream st) { countCall(__func__);
  hostCopy(st, d);
  return cuMemcpyDtoH(d, s, n);
}
CUresult cuMemcpyDtoDAsync(CUdeviceptr d, CUdeviceptr s, size_t n, CUstream st) { countCall(__func__);
  {
    auto lock = ctxLocked();
    enqueued(streamOf(st), g_holdCopies);
  }
  return cuMemcpyDtoD(d, s, n);
}
CUresult cuMemsetD8(CUdeviceptr d, unsigned char v, size_t n) { countCall(__func__);
  { auto lock = ctxLocked(); }
  std::memset(reinterpret_cast<void *>(d), v, n);
  return CUDA_SUCCESS;
}
CUresult cuMemsetD8Async(CUdeviceptr d, unsigned char v, size_t n, CUstream s) { countCall(__func__);
  std::memset(reinterpret_cast<void *>(d), v, n);
  auto lock = ctxLocked();
  streamOf(s).t += double(n) / 3e9; // ~3 TB/s
  enqueued(streamOf(s), g_holdCopies);
  return CUDA_SUCCESS;
}
CUresult cuMemsetD32Async(CUdeviceptr d, unsigned int v, size_t n, CUstream s) { countCall(__func__);
  if (v == 1 && n == 1) {
    auto lock = ctxLocked();
    if (g_deferSets) {
      g_deferredSets.emplace_back(d, &streamOf(s));
      ++streamOf(s).deferred;
      return CUDA_SUCCESS;
    }
  }
  auto *w = reinterpret_cast<unsigned int *>(d);
  for (size_t i = 0; i < n; ++i)
    w[i] = v;
  auto lock = ctxLocked();
  enqueued(streamOf(s), false);
  // The cancel word set: the held kernels of that control block leave (unless the
  // test makes them ignore it: a kernel still leaving, atollMockIgnoreCancel).
  if (v == 1 && n == 1 && !g_ignoreCancel) {
    auto c = g_controlStream.find(d - ATOLL_CONTROL_CANCEL_OFFSET);
    if (c != g_controlStream.end()) {
      c->second->pending = 0;
      g_cv.notify_all();
    }
  }
  return CUDA_SUCCESS;
}

CUresult cuMemAddressReserve(CUdeviceptr *p, size_t size, size_t alignment, CUdeviceptr,
                             unsigned long long) { countCall(__func__);
  size_t align = std::max<size_t>(alignment, 4096);
  size_t total = size + align;
  void *m = mmap(nullptr, total, PROT_NONE, MAP_PRIVATE | MAP_ANONYMOUS | MAP_NORESERVE, -1, 0);
  if (m == MAP_FAILED)
    return CUDA_ERROR_OUT_OF_MEMORY;
  uintptr_t base = (reinterpret_cast<uintptr_t>(m) + align - 1) & ~(uintptr_t(align) - 1);
  *p = base;
  auto lock = ctxLocked();
  g_reservations[base] = {m, total};
  return CUDA_SUCCESS;
}
CUresult cuMemAddressFree(CUdeviceptr p, size_t) { countCall(__func__);
  auto lock = ctxLocked();
  auto it = g_reservations.find(p);
  if (it == g_reservations.end())
    return CUDA_ERROR_INVALID_VALUE;
  munmap(it->second.mapping, it->second.mappingSize);
  g_reservations.erase(it);
  return CUDA_SUCCESS;
}
CUresult cuMemCreate(CUmemGenericAllocationHandle *h, size_t size, const CUmemAllocationProp *,
                     unsigned long long) { countCall(__func__);
  { auto lock = ctxLocked(); }
  *h = size;
  return CUDA_SUCCESS;
}
CUresult cuMemRelease(CUmemGenericAllocationHandle) { countCall(__func__);
  auto lock = ctxLocked();
  return CUDA_SUCCESS;
}
CUresult cuMemMap(CUdeviceptr p, size_t size, size_t, CUmemGenericAllocationHandle,
                  unsigned long long) { countCall(__func__);
  { auto lock = ctxLocked(); }
  void *m = mmap(reinterpret_cast<void *>(p), size, PROT_READ | PROT_WRITE,
                 MAP_PRIVATE | MAP_ANONYMOUS | MAP_FIXED | MAP_NORESERVE, -1, 0);
  return m == MAP_FAILED ? CUDA_ERROR_OUT_OF_MEMORY : CUDA_SUCCESS;
}
CUresult cuMemUnmap(CUdeviceptr p, size_t size) { countCall(__func__);
  { auto lock = ctxLocked(); }
  void *m = mmap(reinterpret_cast<void *>(p), size, PROT_NONE,
                 MAP_PRIVATE | MAP_ANONYMOUS | MAP_FIXED | MAP_NORESERVE, -1, 0);
  return m == MAP_FAILED ? CUDA_ERROR_INVALID_VALUE : CUDA_SUCCESS;
}
CUresult cuMemSetAccess(CUdeviceptr, size_t, const CUmemAccessDesc *, size_t) { countCall(__func__);
  return CUDA_SUCCESS;
}
CUresult cuMemGetAllocationGranularity(size_t *g, const CUmemAllocationProp *,
                                       CUmemAllocationGranularity_flags) { countCall(__func__);
  *g = size_t(2) << 20;
  return CUDA_SUCCESS;
}
CUresult cuPointerGetAttribute(void *data, CUpointer_attribute a, CUdeviceptr p) { countCall(__func__);
  auto lock = ctxLocked();
  if (a == CU_POINTER_ATTRIBUTE_MEMORY_TYPE &&
      g_hostAllocs.count(reinterpret_cast<void *>(p))) {
    *static_cast<unsigned int *>(data) = CU_MEMORYTYPE_HOST;
    return CUDA_SUCCESS;
  }
  return CUDA_ERROR_INVALID_VALUE;
}

// A cubin (ELF64): its entry functions (FUNC symbols with the CUDA entry flag in
// st_other) and each one's parameters from the EIATTR_KPARAM_INFO records of its
// .nv.info.<name> section, as ptxas wrote them. Every read is bounds-checked
// against the ELF's own section table (the mock trusts no size it did not check).
extern "C++" {
namespace {
template <class T> bool readAt(const std::string &img, size_t off, T &out) {
  if (off > img.size() || img.size() - off < sizeof(T))
    return false;
  std::memcpy(&out, img.data() + off, sizeof(T));
  return true;
}

CUresult loadCubin(const unsigned char *image, Module &mod) {
  // The section header table ends the image; read the header first for its size.
  std::string head(reinterpret_cast<const char *>(image), 64);
  uint64_t shoff = 0;
  uint16_t shentsize = 0, shnum = 0, shstrndx = 0;
  if (head[4] != 2 || !readAt(head, 0x28, shoff) || !readAt(head, 0x3a, shentsize) ||
      !readAt(head, 0x3c, shnum) || !readAt(head, 0x3e, shstrndx) || shentsize != 64 ||
      shnum == 0 || shstrndx >= shnum || shoff > (1ull << 30))
    return CUDA_ERROR_INVALID_IMAGE;
  std::string img(reinterpret_cast<const char *>(image), shoff + uint64_t(shnum) * 64);
  struct Sec {
    uint32_t name, type;
    uint64_t off, size;
    uint32_t link;
  };
  std::vector<Sec> secs(shnum);
  for (unsigned i = 0; i < shnum; ++i) {
    size_t b = shoff + size_t(i) * 64;
    Sec &sc = secs[i];
    if (!readAt(img, b, sc.name) || !readAt(img, b + 4, sc.type) || !readAt(img, b + 24, sc.off) ||
        !readAt(img, b + 32, sc.size) || !readAt(img, b + 40, sc.link) ||
        (sc.type != 8 /*NOBITS*/ && (sc.off > img.size() || img.size() - sc.off < sc.size)))
      return CUDA_ERROR_INVALID_IMAGE;
  }
  auto str = [&](const Sec &tab, uint32_t at) -> std::string {
    if (at >= tab.size)
      return {};
    const char *p = img.data() + tab.off + at;
    return std::string(p, strnlen(p, tab.size - at));
  };
  std::map<std::string, const Sec *> byName;
  for (const Sec &sc : secs)
    byName[str(secs[shstrndx], sc.name)] = &sc;
  auto symtab = byName.find(".symtab");
  if (symtab == byName.end() || symtab->second->link >= shnum)
    return CUDA_ERROR_INVALID_IMAGE;
  const Sec &sym = *symtab->second, &strtab = secs[sym.link];
  // EIATTR_FRAME_SIZE (0x11) records of the module-wide .nv.info: symbol index -> bytes.
  std::map<uint32_t, uint32_t> frames;
  if (auto info = byName.find(".nv.info"); info != byName.end()) {
    const Sec &ni = *info->second;
    for (uint64_t q = 0; q + 4 <= ni.size;) {
      uint8_t fmt = 0, attr = 0;
      uint16_t len = 0;
      readAt(img, ni.off + q, fmt);
      readAt(img, ni.off + q + 1, attr);
      if (fmt != 4) {
        q += 4;
        continue;
      }
      readAt(img, ni.off + q + 2, len);
      uint32_t symbol = 0, value = 0;
      if (attr == 0x11 && len == 8 && q + 12 <= ni.size && readAt(img, ni.off + q + 4, symbol) &&
          readAt(img, ni.off + q + 8, value))
        frames[symbol] = value;
      q += 4 + len;
    }
  }
  for (uint64_t o = 0; o + 24 <= sym.size; o += 24) {
    uint32_t nameAt = 0;
    uint8_t info = 0, other = 0;
    readAt(img, sym.off + o, nameAt);
    readAt(img, sym.off + o + 4, info);
    readAt(img, sym.off + o + 5, other);
    if ((info & 0xf) != 2 /*STT_FUNC*/ || !(other & 0x10) /*STO_CUDA_ENTRY*/)
      continue;
    auto f = std::make_unique<Function>();
    f->name = str(strtab, nameAt);
    if (auto fr = frames.find(uint32_t(o / 24)); fr != frames.end())
      f->frameBytes = int(std::min<uint32_t>(fr->second, 1u << 30));
    auto nvinfo = byName.find(".nv.info." + f->name);
    if (nvinfo != byName.end()) {
      const Sec &ni = *nvinfo->second;
      std::map<uint16_t, std::pair<size_t, size_t>> params; // ordinal -> (offset, size)
      for (uint64_t q = 0; q + 4 <= ni.size;) {
        uint8_t fmt = 0, attr = 0;
        uint16_t len = 0;
        readAt(img, ni.off + q, fmt);
        readAt(img, ni.off + q + 1, attr);
        if (fmt != 4 /*EIFMT_SVAL: a sized payload*/) {
          q += 4; // EIFMT_NVAL/BVAL/HVAL: two bytes of value, no payload
          continue;
        }
        readAt(img, ni.off + q + 2, len);
        if (attr == 0x17 /*EIATTR_KPARAM_INFO*/ && len >= 12 && q + 4 + 12 <= ni.size) {
          uint16_t ordinal = 0, offset = 0;
          uint32_t flags = 0;
          readAt(img, ni.off + q + 8, ordinal);
          readAt(img, ni.off + q + 10, offset);
          readAt(img, ni.off + q + 12, flags);
          params[ordinal] = {offset, flags >> 18};
        }
        q += 4 + len;
      }
      for (auto &[ordinal, slot] : params)
        f->layout.push_back(slot);
    }
    f->params = int(f->layout.size());
    mod.functions[f->name] = std::move(f);
  }
  return mod.functions.empty() ? CUDA_ERROR_INVALID_IMAGE : CUDA_SUCCESS;
}
} // namespace
} // extern "C++"

CUresult cuModuleLoadDataEx(CUmodule *m, const void *image, unsigned int, CUjit_option *,
                            void **) { countCall(__func__);
  waitingCall();
  if (std::memcmp(image, "\x7f" "ELF", 4) == 0) {
    auto mod = std::make_unique<Module>();
    if (CUresult r = loadCubin(static_cast<const unsigned char *>(image), *mod); r != CUDA_SUCCESS)
      return r;
    // Faults for the driver-side check's refusal tests: what a tampered cubin
    // would make the driver report.
    if (int fault = g_moduleFault.load(); fault && !mod->functions.empty()) {
      Function &first = *mod->functions.begin()->second;
      if (fault == 1) { // an extra function
        auto extra = std::make_unique<Function>();
        extra->name = "atoll_mock_extra";
        mod->functions[extra->name] = std::move(extra);
      } else if (fault == 2 && !first.layout.empty()) { // a hidden parameter of 4 bytes
        first.layout.back().second = 4;
      } else if (fault == 3 && !first.layout.empty()) { // one parameter fewer
        first.layout.pop_back();
        first.params--;
      } else if (fault == 4) { // one parameter more
        size_t end = first.layout.empty() ? 0 : first.layout.back().first + 8;
        first.layout.push_back({end, 8});
        first.params++;
      } else if (fault == 5 && !first.layout.empty()) { // a parameter moved
        first.layout.back().first += 8;
      }
    }
    g_cubinLoads++;
    g_liveModules++;
    *m = reinterpret_cast<CUmodule>(mod.release());
    return CUDA_SUCCESS;
  }
  // PTX text: the benchmark's native baselines load PTX directly; the runtime never does.
  std::string ptx(static_cast<const char *>(image));
  auto mod = std::make_unique<Module>();
  for (size_t pos = ptx.find(".entry "); pos != std::string::npos;
       pos = ptx.find(".entry ", pos + 1)) {
    size_t open = ptx.find('(', pos);
    size_t close = ptx.find(')', open);
    if (open == std::string::npos || close == std::string::npos)
      return CUDA_ERROR_INVALID_PTX;
    auto f = std::make_unique<Function>();
    f->name = ptx.substr(pos + 7, open - pos - 7);
    while (!f->name.empty() && f->name.back() == ' ')
      f->name.pop_back();
    std::string params = ptx.substr(open, close - open);
    for (size_t q = params.find(".param"); q != std::string::npos; q = params.find(".param", q + 1))
      f->params++;
    mod->functions[f->name] = std::move(f);
  }
  if (mod->functions.empty())
    return CUDA_ERROR_INVALID_PTX;
  g_ptxLoads++;
  g_liveModules++;
  *m = reinterpret_cast<CUmodule>(mod.release());
  return CUDA_SUCCESS;
}
CUresult cuModuleUnload(CUmodule m) { countCall(__func__);
  waitingCall();
  delete reinterpret_cast<Module *>(m);
  g_liveModules--;
  return CUDA_SUCCESS;
}
CUresult cuModuleGetFunctionCount(unsigned int *count, CUmodule m) { countCall(__func__);
  *count = unsigned(reinterpret_cast<Module *>(m)->functions.size());
  return CUDA_SUCCESS;
}
CUresult cuModuleEnumerateFunctions(CUfunction *fns, unsigned int n, CUmodule m) { countCall(__func__);
  unsigned i = 0;
  for (auto &[name, f] : reinterpret_cast<Module *>(m)->functions)
    if (i < n)
      fns[i++] = reinterpret_cast<CUfunction>(f.get());
  return CUDA_SUCCESS;
}
CUresult cuFuncGetName(const char **name, CUfunction f) { countCall(__func__);
  *name = reinterpret_cast<Function *>(f)->name.c_str();
  return CUDA_SUCCESS;
}
CUresult cuFuncGetParamInfo(CUfunction fn, size_t i, size_t *offset, size_t *size) { countCall(__func__);
  Function &f = *reinterpret_cast<Function *>(fn);
  if (f.layout.empty() && f.params)
    return CUDA_ERROR_NOT_SUPPORTED; // loaded from PTX: no layout known
  if (i >= f.layout.size())
    return CUDA_ERROR_INVALID_VALUE;
  *offset = f.layout[i].first;
  if (size)
    *size = f.layout[i].second;
  return CUDA_SUCCESS;
}
CUresult cuModuleGetFunction(CUfunction *f, CUmodule m, const char *name) { countCall(__func__);
  { auto lock = ctxLocked(); }
  auto &fs = reinterpret_cast<Module *>(m)->functions;
  auto it = fs.find(name);
  if (it == fs.end())
    return CUDA_ERROR_NOT_FOUND;
  *f = reinterpret_cast<CUfunction>(it->second.get());
  return CUDA_SUCCESS;
}
CUresult cuFuncGetAttribute(int *v, CUfunction_attribute a, CUfunction fn) { countCall(__func__);
  { auto lock = ctxLocked(); }
  if (a == CU_FUNC_ATTRIBUTE_LOCAL_SIZE_BYTES) {
    if (int fault = g_localBytesFault.load())
      return static_cast<CUresult>(fault);
    int forced = g_localBytes.load();
    *v = forced >= 0 ? forced : reinterpret_cast<Function *>(fn)->frameBytes;
    return CUDA_SUCCESS;
  }
  switch (a) {
  case CU_FUNC_ATTRIBUTE_MAX_THREADS_PER_BLOCK: *v = 1024; break;
  case CU_FUNC_ATTRIBUTE_NUM_REGS: *v = 32; break;
  default: *v = 0; break;
  }
  return CUDA_SUCCESS;
}
CUresult cuFuncSetAttribute(CUfunction, CUfunction_attribute, int) { countCall(__func__);
  auto lock = ctxLocked();
  return CUDA_SUCCESS;
}

CUresult cuLaunchKernel(CUfunction fn, unsigned int gx, unsigned int, unsigned int, unsigned int bx,
                        unsigned int, unsigned int, unsigned int, CUstream s, void **params,
                        void **) { countCall(__func__);
  { auto lock = ctxLocked(); }
  Function &f = *reinterpret_cast<Function *>(fn);
  auto known = kNativeParams.find(f.name);
  if (known == kNativeParams.end())
    return CUDA_ERROR_NOT_FOUND;
  const bool hardened = f.params == known->second + ATOLL_HIDDEN_PARAM_COUNT;
  if (!hardened && f.params != known->second)
    return CUDA_ERROR_INVALID_VALUE;
  if (hardened) {
    // The hidden parameters: a real arena (base aligned to its power-of-two size
    // for mask mode) that holds every pointer argument.
    // and the control block (ABI v2).
    const unsigned first = f.params - ATOLL_HIDDEN_PARAM_COUNT;
    uint64_t base = arg<uint64_t>(params, first + ATOLL_HIDDEN_ARENA_BASE_INDEX),
             size = arg<uint64_t>(params, first + ATOLL_HIDDEN_ARENA_SIZE_INDEX),
             control = arg<uint64_t>(params, first + ATOLL_HIDDEN_CONTROL_INDEX);
    if (size == 0 || base == 0 || control == 0)
      return CUDA_ERROR_INVALID_VALUE;
  }
  if (f.name == "sm_probe") { // block b "runs" on the b-th SM of its stream's SMs
    std::vector<unsigned> sms;
    {
      auto lock = ctxLocked();
      for (unsigned k = 0; k < kMockSms; ++k)
        if (!streamOf(s).green || streamOf(s).green->sms.test(k))
          sms.push_back(k);
    }
    for (unsigned b = 0; b < gx; ++b)
      ptr<uint32_t>(params, 0)[b] = uint32_t(sms[b % sms.size()]);
  }
  unsigned launch = f.launches++;
  double ms = model(f, gx, bx, params, launch < 2);
  // Fault injection for testing the benchmark's checks: ATOLL_MOCK_CORRUPT=<kernel>
  // makes the hardened variant of that kernel write a wrong first output word.
  if (hardened && launch < 2) {
    const char *corrupt = std::getenv("ATOLL_MOCK_CORRUPT");
    if (corrupt && f.name == corrupt && f.name == "vadd")
      ptr<float>(params, 2)[0] += 1.0f;
  }
  if (hardened)
    ms *= 1.03;
  auto lock = ctxLocked();
  streamOf(s).t += ms;
  enqueued(streamOf(s), true);
  g_lastLaunchSms = streamOf(s).green ? unsigned(streamOf(s).green->sms.count()) : kMockSms;
  if (hardened && g_hold)
    g_controlStream[arg<uint64_t>(params, f.params - ATOLL_HIDDEN_PARAM_COUNT +
                                              ATOLL_HIDDEN_CONTROL_INDEX)] = &streamOf(s);
  return CUDA_SUCCESS;
}

CUresult cuDeviceGetDevResource(CUdevice, CUdevResource *r, CUdevResourceType type) { countCall(__func__);
  const char *g = std::getenv("ATOLL_MOCK_GREEN");
  if (g && std::string(g) == "unsupported")
    return CUDA_ERROR_NOT_SUPPORTED;
  if (type != CU_DEV_RESOURCE_TYPE_SM)
    return CUDA_ERROR_INVALID_RESOURCE_TYPE;
  putGroup(*r, SmMask().set());
  return CUDA_SUCCESS;
}
CUresult cuDevSmResourceSplitByCount(CUdevResource *result, unsigned int *nbGroups,
                                     const CUdevResource *input, CUdevResource *remaining,
                                     unsigned int flags, unsigned int minCount) { countCall(__func__);
  if (!nbGroups || !input || input->type != CU_DEV_RESOURCE_TYPE_SM)
    return CUDA_ERROR_INVALID_VALUE;
  const bool ignoreGpcs = flags & CU_DEV_SM_RESOURCE_SPLIT_IGNORE_SM_COSCHEDULING;
  const unsigned size = ignoreGpcs ? std::max(2u, (minCount + 1) / 2 * 2)
                                   : std::max(8u, (minCount + 7) / 8 * 8);
  const SmMask in = groupOf(*input);
  std::vector<SmMask> groups;
  SmMask rest;
  unsigned first = 0;
  for (unsigned gpc : kGpcs) {
    const unsigned span = ignoreGpcs ? kMockSms : gpc;
    if (ignoreGpcs && first > 0)
      break;
    std::vector<unsigned> sms;
    for (unsigned k = first; k < first + span; ++k)
      if (in.test(k))
        sms.push_back(k);
    size_t i = 0;
    for (; i + size <= sms.size(); i += size) {
      SmMask m;
      for (size_t j = i; j < i + size; ++j)
        m.set(sms[j]);
      groups.push_back(m);
    }
    for (; i < sms.size(); ++i)
      rest.set(sms[i]);
    first += span;
  }
  if (!result) {
    *nbGroups = unsigned(groups.size());
    return CUDA_SUCCESS;
  }
  const unsigned made = std::min(unsigned(groups.size()), *nbGroups);
  for (unsigned i = 0; i < made; ++i)
    putGroup(result[i], groups[i]);
  for (unsigned i = made; i < groups.size(); ++i)
    rest |= groups[i];
  if (remaining)
    putGroup(*remaining, rest);
  *nbGroups = made;
  return CUDA_SUCCESS;
}
CUresult cuDevResourceGenerateDesc(CUdevResourceDesc *desc, CUdevResource *res, unsigned int n) { countCall(__func__);
  if (!desc || !res || n == 0)
    return CUDA_ERROR_INVALID_VALUE;
  auto *d = new GreenDesc; // the real driver does not free descriptors either
  for (unsigned i = 0; i < n; ++i) {
    const SmMask m = groupOf(res[i]);
    if ((d->sms & m).any()) { // overlapping resources: not from one split
      delete d;
      return CUDA_ERROR_INVALID_RESOURCE_CONFIGURATION;
    }
    d->sms |= m;
  }
  *desc = reinterpret_cast<CUdevResourceDesc>(d);
  return CUDA_SUCCESS;
}
CUresult cuGreenCtxCreate(CUgreenCtx *g, CUdevResourceDesc desc, CUdevice, unsigned int flags) { countCall(__func__);
  if (!(flags & CU_GREEN_CTX_DEFAULT_STREAM) || !desc)
    return CUDA_ERROR_INVALID_VALUE;
  waitingCall(); // assumed to wait like the other context-level calls
  auto lock = ctxLocked();
  auto *c = new GreenCtx;
  c->sms = reinterpret_cast<GreenDesc *>(desc)->sms;
  ++g_greenLive;
  ++g_greenCreated;
  *g = reinterpret_cast<CUgreenCtx>(c);
  return CUDA_SUCCESS;
}
CUresult cuGreenCtxDestroy(CUgreenCtx g) { countCall(__func__);
  waitingCall();
  auto lock = ctxLocked();
  auto *c = reinterpret_cast<GreenCtx *>(g);
  if (c->streams > 0)
    ++g_greenDestroyedWithStreams;
  --g_greenLive;
  delete c;
  return CUDA_SUCCESS;
}
CUresult cuGreenCtxStreamCreate(CUstream *s, CUgreenCtx g, unsigned int flags, int) { countCall(__func__);
  if (!(flags & CU_STREAM_NON_BLOCKING) || !g)
    return CUDA_ERROR_INVALID_VALUE;
  auto lock = ctxLocked();
  auto *st = new Stream;
  st->green = reinterpret_cast<GreenCtx *>(g);
  ++st->green->streams;
  g_streams.insert(st);
  *s = reinterpret_cast<CUstream>(st);
  return CUDA_SUCCESS;
}

// Green contexts now alive, created so far, destroyed while a stream of theirs was
// alive (a leak on the real driver), and the SMs of the last launch's stream
// (132: not a green context's).
void atollMockGreen(long *live, unsigned long *created, unsigned long *destroyedWithStreams,
                    unsigned *lastLaunchSms) {
  std::lock_guard lock(g_mutex);
  *live = g_greenLive;
  *created = g_greenCreated;
  *destroyedWithStreams = g_greenDestroyedWithStreams;
  *lastLaunchSms = g_lastLaunchSms;
}

// Test controls (not CUDA): see "Hold mode" above. Ending hold mode completes every
// held kernel.
void atollMockHoldKernels(int on) {
  std::lock_guard lock(g_mutex);
  g_hold = on != 0;
  if (!g_hold) { // at once, not at the next query (hold mode may start again first)
    for (Stream *st : g_streams)
      st->pending = 0;
    g_nullStream.pending = 0;
  }
  g_cv.notify_all();
}
// Cancel sets (cuMemsetD32Async of the value 1 to one word) are queued while on;
// turning it off lands them in order (each ends the held kernels of the control
// block it names, as a set does).
void atollMockDeferCancelSets(int on) {
  std::lock_guard lock(g_mutex);
  g_deferSets = on != 0;
  if (on)
    return;
  for (auto &[d, s] : g_deferredSets) {
    *reinterpret_cast<unsigned int *>(d) = 1;
    auto c = g_controlStream.find(d - ATOLL_CONTROL_CANCEL_OFFSET);
    if (c != g_controlStream.end())
      c->second->pending = 0;
    if (g_streams.count(s) || s == &g_nullStream)
      --s->deferred;
  }
  g_deferredSets.clear();
  g_cv.notify_all();
}
void atollMockHoldCopies(int on) {
  std::lock_guard lock(g_mutex);
  g_holdCopies = on != 0;
}
// Hold mode: the first `n` held operations of every stream complete (a copy engine
// that drains a queue at a finite rate; kernels among them end too).
void atollMockCompleteHeld(int n) {
  std::lock_guard lock(g_mutex);
  for (Stream *st : g_streams)
    st->pending = std::max(0, st->pending - n);
  g_nullStream.pending = std::max(0, g_nullStream.pending - n);
  g_cv.notify_all();
}
void atollMockIgnoreCancel(int on) {
  std::lock_guard lock(g_mutex);
  g_ignoreCancel = on != 0;
}
void atollMockWaitingCalls(int on) {
  std::lock_guard lock(g_mutex);
  g_waitingMode = on != 0;
  g_cv.notify_all();
}
unsigned long atollMockWaitedCalls() {
  std::lock_guard lock(g_mutex);
  return g_waitedCalls;
}
unsigned long atollMockWouldBlock() {
  std::lock_guard lock(g_mutex);
  return g_wouldBlock;
}
// Module loads so far: PTX text (*ptx) and cubins (*cubin); modules not unloaded.
void atollMockModuleLoads(unsigned long *ptx, unsigned long *cubin, long *live) {
  *ptx = g_ptxLoads.load();
  *cubin = g_cubinLoads.load();
  *live = g_liveModules.load();
}
// What later cubin loads report: 0 the truth, 1 an extra function, 2 a hidden
// parameter of 4 bytes, 3 one parameter fewer, 4 one more, 5 a parameter moved.
void atollMockModuleFault(int fault) { g_moduleFault.store(fault); }
/// Sets the context's stack limit, the result cuCtxSetLimit fails with (0: none) and
/// the value it clamps to (0: none); reads the limit and the number of set calls.
void atollMockStackLimit(unsigned long limit, int failWith, unsigned long clampTo) {
  g_stackLimit = limit;
  g_stackLimitFault = failWith;
  g_stackLimitClamp = clampTo;
}
void atollMockStackLimitState(unsigned long *limit, unsigned long *sets) {
  *limit = g_stackLimit.load();
  *sets = g_stackLimitSets.load();
}
/// The LOCAL_SIZE_BYTES every function reports (-1: its cubin's EIATTR_FRAME_SIZE),
/// or the result its query fails with.
void atollMockLocalBytes(int bytes, int failWith) {
  g_localBytes = bytes;
  g_localBytesFault = failWith;
}
/// Driver calls this thread made to `name` (nullptr or "": to every entry point)
/// since it started.
unsigned long atollMockCalls(const char *name) {
  if (!name || !*name)
    return t_callsTotal;
  auto it = t_calls.find(name);
  return it == t_calls.end() ? 0 : it->second;
}

void atollMockSetQueueDepth(int depth) {
  std::lock_guard lock(g_mutex);
  g_queueDepth = depth;
}

} // extern "C"
