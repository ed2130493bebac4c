// The service side of the compile workers: a pool of warm, single-use
// atoll-compile-worker processes (started, initialised, under seccomp, waiting on
// their socket). Each request takes one worker, which serves it and is killed (once
// no load is in flight: PoolConfig::holdAnswered); a fresh one is started in the
// background. A worker that parsed hostile input may be
// compromised, so it never sees a second request; its answer is untrusted data
// (Protocol.h decodes it defensively).
//
// Bound (R4-F4): `size` is a hard cap on live worker processes: starting, idle,
// busy, and killed but not yet reaped all count. A request that finds none idle
// waits (up to its deadline) for one to be freed and replaced; it never starts one
// of its own. So N concurrent loads hold at most `size` workers (each under
// memoryLimit / cpuLimitSeconds), and the OOM killer takes workers first
// (oom_score_adj 1000, set by the worker before it reads a request).
//
// Refill: while a load is in flight, a freed slot is refilled only when a worker is
// needed (a waiting request, an open claim, the warm floor), or ahead of need when the
// warm workers are fewer than the loads in flight or the requests of the last start
// time and a core is spare; the others once
// no load is in flight, so that worker starts do not compete with a burst's compiles
// (PoolConfig::warmFloor).
#pragma once

#include "compile/AnswerBudget.h"
#include "compile/Protocol.h"

#include "atoll/runtime.h"

#include <atomic>
#include <chrono>
#include <condition_variable>
#include <cstdint>
#include <deque>
#include <functional>
#include <memory>
#include <mutex>
#include <optional>
#include <string>
#include <thread>
#include <vector>

namespace Atoll::detail::compile {

struct PoolConfig {
  std::string workerPath;       // resolved (see defaultWorkerPath)
  size_t size = 1;              // most live workers (all kept warm when free)
  uint64_t memoryLimit = 4ull << 30;
  uint32_t cpuLimitSeconds = 60;
  std::chrono::milliseconds timeout{120000};
  /// Starts of replacement workers are held back while busy + starting workers
  /// would exceed this many (the cores): a worker initialising (LLVM, a warm-up
  /// compilation) must not take CPU from the requests in flight. 0 = no limit.
  size_t cpuSlots = 0;
  /// While a load is in flight (a request inside run(), or a load holding an
  /// Activity), a replacement starts only when it is needed: while the idle and
  /// starting workers are fewer than the requests waiting for a worker, plus the
  /// open claims (Claim), plus this floor. Ahead of need (with cpuSlots), only while
  /// they are also fewer than the waiting requests and the open claims plus the
  /// larger of the loads in flight and the requests of the last `demandWindow` since
  /// the pool was last all warm (the demand while a start is on its way, beyond what
  /// was already made up for), and a core is spare (loads in flight +
  /// starting workers < cpuSlots). Otherwise the free slots
  /// stay empty until no load is in flight, and then every one is refilled: the
  /// starts (exec, LLVM init, the nvJitLink dlopen, a warm-up compilation) do not
  /// compete for the cores with the compiles of the burst that freed the slots, and
  /// a request that arrives during the burst still finds up to `warmFloor` warm
  /// workers.
  size_t warmFloor = 2;
  /// The window of recent requests for a start ahead of need (above); 0 = the mean
  /// time of this pool's starts from exec to Ready (100 ms before the first), at
  /// least 1 ms, at most 60 s. Tests set it.
  std::chrono::milliseconds demandWindow{0};
  /// A worker that answered is ended (SIGKILL) once no load is in flight, when a
  /// request or claim needs its slot, or after this long, whichever comes first:
  /// until then it waits, blocked, at nice 19. Its exit (unmapping LLVM, the toolkit's
  /// libraries and its heap) slowed the compiles of the other loads in flight (the
  /// burst's last loads), which no in-process load pays. 0 = end at once.
  std::chrono::milliseconds holdAnswered{1000};
  /// The worker starts its request on the CPU of the thread that sends it (pinned
  /// there for its wake-up only, then given back its own CPU set): the sending
  /// thread sleeps until the answer, so its CPU is the one about to be free, as an
  /// in-process compile would use it. Left to the scheduler's wake-up placement, a
  /// worker woken while every CPU was busy could land on a CPU that another compile
  /// then shared for the whole request (measured on the H200 at 16 loads on 16
  /// CPUs: 4 of 16 requests waited 1 ms or more for a CPU, the burst's last load
  /// 1.4x the in-process one).
  bool startOnSender = true;
  /// How long a request waits for a free worker; 0 = `timeout`.
  std::chrono::milliseconds waitTimeout{0};
  /// Largest compile answer (PTX, signatures) and largest assemble answer (cubin;
  /// 0 = maxOutputBytes) accepted from a worker; past them: CompileResources.
  uint32_t maxOutputBytes = 160u << 20;
  uint32_t maxAssembledBytes = 0;
  /// The most kernels of a compile answer (RuntimeOptions::maxKernelsPerModule, at
  /// most kMaxKernels): more are refused when the answer is decoded, before its
  /// kernels are copied (CapacityExceeded).
  size_t maxKernels = 512;
  /// The service-wide byte budget for answers in flight (AnswerBudget.h); > 0.
  uint64_t answerBudget = 1ull << 30;
  std::string libdevicePath;    // empty = the worker's configured one
  /// Extra arguments for the worker (tests' stand-in workers only; the runtime never
  /// sets them).
  std::vector<std::string> extraArgs;
};

/// What a worker may see of the service's environment (`lookup`: getenv, or a test's
/// stand-in): where the toolkit is (nvJitLink, libdevice) and where the library is,
/// LC_ALL=C and CUDA_CACHE_DISABLE=1. Nothing else: no HOME, CUDA_CACHE_PATH or
/// XDG_* (no way to the CUDA driver's JIT cache, ~/.nv/ComputeCache, a store of the
/// service user's outside AToLL's MAC-checked disk cache), no credentials.
std::vector<std::string>
workerEnvironment(const std::function<const char *(const char *)> &lookup);

/// Classification of a worker that ended without a valid answer (exposed for tests).
Error classifyExit(int waitStatus, bool killedByUs, const PoolConfig &config);

class CompilePool {
public:
  /// Resolves nothing: `config.workerPath` must name an executable (InvalidArgument
  /// otherwise). Starts the background thread that keeps `size` workers warm.
  static Result<std::unique_ptr<CompilePool>> create(PoolConfig config);
  ~CompilePool();
  CompilePool(const CompilePool &) = delete;
  CompilePool &operator=(const CompilePool &) = delete;

  /// One request on one fresh worker. The worker's own refusals come back as a
  /// Failed response; a crashed, hung or over-limit worker is CompileError /
  /// CompileTimeout / CompileResources (messages name no application: the caller
  /// adds it).
  Result<Response> run(const Request &request);
  /// How a request's answer is charged to the answer budget: called with the
  /// frame's payload size (after its header, before the payload is allocated) and
  /// the request's deadline; an error ends the request with it (the worker is
  /// killed). The caller keeps the charge (RemoteCompile.cpp: one per load). Without
  /// it, run() charges the payload size itself until it returns.
  using Admit = std::function<Status(uint32_t payloadBytes, Clock::time_point deadline)>;
  Result<Response> run(const Request &request, const Admit &admit);

  /// A claim on a worker for a later request of the same load (its assemble step;
  /// review R7-F5): the load hands its compile worker's slot over to it. Made inside
  /// the compile answer's admit, once charged (claim(): pending), and made effective
  /// by runHandingOver() when that worker ends with its answer, before its slot can
  /// come free. While effective claims are open, a request without one takes an idle
  /// worker only when more are idle than claimed: a load holding an answer-budget
  /// charge never waits behind requests that could wait for that budget. Released
  /// (RAII) unless run() consumed it.
  class Claim {
  public:
    Claim() = default;
    Claim(Claim &&o) noexcept : pool_(o.pool_), effective_(o.effective_) {
      o.pool_ = nullptr;
      o.effective_ = false;
    }
    Claim &operator=(Claim &&o) noexcept;
    Claim(const Claim &) = delete;
    Claim &operator=(const Claim &) = delete;
    ~Claim() { release(); }
    bool held() const { return pool_ != nullptr; }
    bool effective() const { return effective_; }
    void release();

  private:
    friend class CompilePool;
    explicit Claim(CompilePool *p) : pool_(p) {}
    CompilePool *pool_ = nullptr;
    bool effective_ = false; // counted in claims_
  };
  /// A pending claim; never waits.
  Claim claim();

  /// A load in flight (RAII): while any is held, or any request is inside run(),
  /// replacements start only when needed (PoolConfig::warmFloor). The runtime holds
  /// one over a whole load through the workers, so that the service's own part of
  /// the load (decoding, the PTX validation between the compile and the assemble
  /// request, the disk cache) counts as part of the burst too.
  class Activity {
  public:
    Activity() = default;
    Activity(Activity &&o) noexcept : pool_(o.pool_) { o.pool_ = nullptr; }
    Activity &operator=(Activity &&o) noexcept {
      if (this != &o) {
        end();
        pool_ = o.pool_;
        o.pool_ = nullptr;
      }
      return *this;
    }
    Activity(const Activity &) = delete;
    Activity &operator=(const Activity &) = delete;
    ~Activity() { end(); }
    void end();

  private:
    friend class CompilePool;
    explicit Activity(CompilePool *p) : pool_(p) {}
    CompilePool *pool_ = nullptr;
  };
  Activity activity();
  /// As run(request, admit); once this request's worker has answered, `next` (if
  /// held by then: admit may make it) becomes effective, before the slot is freed.
  Result<Response> runHandingOver(const Request &request, const Admit &admit, Claim &next);
  /// As run(request, admit), on a worker taken with `claim` (consumed) ahead of
  /// requests without one.
  Result<Response> run(const Request &request, const Admit &admit, Claim &claim);
  /// The service-wide budget for answers in flight.
  AnswerBudget &budget() { return budget_; }
  /// The largest assemble answer accepted (PoolConfig::maxAssembledBytes resolved).
  uint32_t maxAssembledBytes() const {
    return config_.maxAssembledBytes ? config_.maxAssembledBytes : config_.maxOutputBytes;
  }

  /// The default worker path next to the library holding this code:
  /// <libdir>/../libexec/atoll/atoll-compile-worker, else <libdir>/../bin/...
  /// (build tree and GPU bundle). Empty when neither exists.
  static std::string defaultWorkerPath();

  struct Stats {
    uint64_t started = 0;   // workers spawned
    uint64_t startedDuringLoads = 0; // of them, spawned while a load was in flight
    uint64_t served = 0;    // requests answered with a valid response
    uint64_t failed = 0;    // requests whose worker crashed, hung or exceeded a limit
    uint64_t startFailures = 0;
    uint64_t live = 0;      // worker processes not yet reaped (<= size)
    uint64_t peakLive = 0;  // most at once since create
    uint64_t waits = 0;     // requests that found no idle worker
    // Time sums (microseconds) for the benchmark: waiting for a worker, start to
    // Ready, and the request on a worker by kind.
    uint64_t waitMicros = 0;
    uint64_t startMicros = 0; // summed over `ready` starts
    uint64_t ready = 0;       // workers that became Ready
    uint64_t compileMicros = 0, compileRequests = 0;
    uint64_t assembleMicros = 0, assembleRequests = 0;
    /// Workers that answered and wait to be ended (PoolConfig::holdAnswered), now;
    /// and those ended while no load was in flight.
    uint64_t held = 0, endedAfterLoads = 0;
    /// The scheduler's view of the requests (/proc/PID/schedstat and stat of the
    /// worker, from the request's start to its answer's header; over `workerSampled`
    /// requests): time on a CPU, time runnable but waiting for a CPU, minor page
    /// faults, and the requests that waited 1 ms or more for a CPU.
    uint64_t workerCpuMicros = 0, workerQueueMicros = 0, workerMinorFaults = 0;
    uint64_t workerQueued = 0, workerSampled = 0;
    /// Answer payloads being received or decoded inside run() (counted apart from
    /// the budget, so that tests can check the budget against it): now and peak.
    uint64_t receivingBytes = 0, peakReceivingBytes = 0;
  };
  Stats stats() const;
  /// Whether the last worker that became ready has an assembler (nvJitLink).
  bool assemblerAvailable() const { return assembler_.load(); }
  size_t warm() const;
  /// The cap on live workers (PoolConfig::size after defaults).
  size_t limit() const { return config_.size; }

private:
  struct Proc {
    int pid = -1;
    int fd = -1;
    std::chrono::steady_clock::time_point started;
  };
  explicit CompilePool(PoolConfig config);
  Result<Proc> spawn();
  void refillLoop();
  void wake();
  /// `claim`: the caller's Claim on this pool, if any (consumed on success).
  Result<Proc> take(Clock::time_point deadline, Claim *claim);
  /// A load (Activity) or a request (run()) enters or leaves the count in flight.
  void enter(bool load);
  void leave(bool load);
  /// Requests that entered run() within the demand window before `now`, since the
  /// pool was last all warm (under the lock; forgets older ones).
  size_t recentRequests(Clock::time_point now);
  Result<Response> runOn(const Request &request, const Admit &admit, Claim *claim,
                         Claim *handOver);
  /// SIGKILL and reap (never blocks for long: the process is killed first).
  void destroy(Proc &p);
  /// Every waitpid that collects a worker ends here: the slot is free.
  void reaped();
  /// SIGKILL now; the refill thread reaps it.
  void retire(Proc &p);
  /// A worker that answered: ended later by the refill thread (PoolConfig::holdAnswered).
  void hold(Proc &p);
  /// Under the lock: moves the held workers to end now into `out` (all when no load
  /// is in flight or a request or claim lacks a worker, else those held past the
  /// limit) and reaps those that ended by themselves.
  void heldToEnd(bool inFlight, size_t starting, std::vector<Proc> &out);
  void reapRetired(bool wait);
  /// Reaps a process that should end by itself; kills it at the deadline.
  int reap(Proc &p, Clock::time_point deadline, bool &killed);

  const PoolConfig config_;
  mutable std::mutex mutex_;
  std::condition_variable ready_;
  std::deque<Proc> idle_;
  std::vector<int> retired_; // killed, not yet reaped
  struct Held {
    Proc proc;
    Clock::time_point since;
  };
  std::vector<Held> held_; // answered, not yet ended (hold())
  size_t starting_ = 0;
  /// Handed to a request, not yet given back by run(), and still working: a worker
  /// stops counting once its answer's header arrives (it no longer takes a core, and
  /// a request waiting for the answer budget must not hold back the starts that
  /// cpuSlots limits).
  size_t busy_ = 0;
  size_t claims_ = 0; // effective Claims (take() keeps that many idle workers for them)
  /// Loads (Activity) and requests (inside run()) in flight: while either is > 0,
  /// replacements start only when needed (PoolConfig::warmFloor) or ahead of need on
  /// a spare core (the larger of the two counts as the loads in flight).
  size_t loads_ = 0, requests_ = 0;
  /// When the requests of the demand window entered run(), oldest first (none from
  /// before the pool was last all warm).
  std::deque<Clock::time_point> arrivals_;
  /// Requests in take() that found no worker available to them, less those that
  /// hold an effective claim (counted in claims_).
  size_t waiting_ = 0;
  /// Spawned and not yet reaped; the cap applies to it (changed without the lock by
  /// reaped(), which then wakes the refill thread).
  std::atomic<size_t> live_{0};
  bool stopping_ = false;
  unsigned consecutiveStartFailures_ = 0;
  std::string lastStartError_;
  std::atomic<bool> assembler_{false};
  Stats stats_;
  AnswerBudget budget_;
  int wakeFd_ = -1;
  std::thread refill_;
};

} // namespace Atoll::detail::compile
