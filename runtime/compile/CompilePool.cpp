#include "compile/CompilePool.h"
#include "compile/WorkerEntry.h"

#include <fmt/format.h>

#include <dlfcn.h>
#include <fcntl.h>
#include <sched.h>
#include <poll.h>
#include <signal.h>
#include <spawn.h>
#include <sys/eventfd.h>
#include <sys/resource.h>
#include <sys/socket.h>
#include <sys/stat.h>
#include <sys/wait.h>
#include <unistd.h>

#include <algorithm>
#include <cerrno>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <filesystem>

extern char **environ;

namespace Atoll::detail::compile {
namespace {

/// A worker must be ready (initialised, filtered) within this.
constexpr auto kStartTimeout = std::chrono::seconds(60);
/// The Ready frame is tiny.
constexpr uint32_t kMaxReadyFrame = 4096;

bool executable(const std::string &path) {
  struct stat st{};
  return ::stat(path.c_str(), &st) == 0 && S_ISREG(st.st_mode) && ::access(path.c_str(), X_OK) == 0;
}

/// What the kernel's scheduler counted for a worker (cumulative since its start):
/// time on a CPU, time runnable but waiting for one (/proc/PID/schedstat), and its
/// minor page faults (/proc/PID/stat). Zero when /proc is not there.
struct SchedSample {
  uint64_t cpuNs = 0, queueNs = 0, minorFaults = 0;
  bool valid = false;
};

SchedSample sampleScheduler(int pid) {
  SchedSample s;
  char path[64];
  std::snprintf(path, sizeof path, "/proc/%d/schedstat", pid);
  if (FILE *f = std::fopen(path, "re")) {
    unsigned long long cpu = 0, queue = 0;
    s.valid = std::fscanf(f, "%llu %llu", &cpu, &queue) == 2;
    s.cpuNs = cpu;
    s.queueNs = queue;
    std::fclose(f);
  }
  std::snprintf(path, sizeof path, "/proc/%d/stat", pid);
  if (FILE *f = std::fopen(path, "re")) {
    // "pid (comm) state ppid ..." : minflt is the 10th field; comm may hold spaces,
    // so count from the last ')'.
    char buf[1024];
    size_t n = std::fread(buf, 1, sizeof buf - 1, f);
    buf[n] = 0;
    if (const char *rp = std::strrchr(buf, ')')) {
      unsigned long long minflt = 0;
      if (std::sscanf(rp + 1, " %*c %*d %*d %*d %*d %*d %*u %llu", &minflt) == 1)
        s.minorFaults = minflt;
    }
    std::fclose(f);
  }
  return s;
}

std::string signalName(int sig) {
  const char *abbrev = sigabbrev_np(sig);
  return abbrev ? fmt::format("SIG{}", abbrev) : fmt::format("signal {}", sig);
}

} // namespace

std::vector<std::string>
workerEnvironment(const std::function<const char *(const char *)> &lookup) {
  std::vector<std::string> env;
  for (const char *var : {"ATOLL_CUDA_PATH", "CUDA_HOME", "LD_LIBRARY_PATH"})
    if (const char *v = lookup(var))
      env.push_back(fmt::format("{}={}", var, v));
  env.push_back("LC_ALL=C");
  env.push_back("CUDA_CACHE_DISABLE=1");
  return env;
}

Error classifyExit(int st, bool killedByUs, const PoolConfig &config) {
  if (killedByUs)
    return Error(ErrorCode::CompileTimeout,
                 fmt::format("the compile worker did not finish within {} ms and was killed",
                             config.timeout.count()));
  if (WIFEXITED(st)) {
    int code = WEXITSTATUS(st);
    if (code == ATOLL_WORKER_EXIT_RESOURCES)
      return Error(ErrorCode::CompileResources,
                   fmt::format("the compile worker ran out of memory (limit {} MiB)",
                               config.memoryLimit >> 20));
    return Error(ErrorCode::CompileError,
                 fmt::format("the compile worker exited with status {} without an answer", code));
  }
  if (WIFSIGNALED(st)) {
    int sig = WTERMSIG(st);
    // RLIMIT_CPU: SIGXCPU at the soft limit, SIGKILL (from the kernel) at the hard one.
    if (sig == SIGXCPU || sig == SIGKILL)
      return Error(ErrorCode::CompileResources,
                   fmt::format("the compile worker exceeded its CPU time limit of {} s ({})",
                               config.cpuLimitSeconds, signalName(sig)));
    if (sig == SIGSYS)
      return Error(ErrorCode::CompileError,
                   "the compile worker was killed for a forbidden system call (seccomp)");
    return Error(ErrorCode::CompileError,
                 fmt::format("the compile worker crashed ({})", signalName(sig)));
  }
  return Error(ErrorCode::CompileError, "the compile worker ended without an answer");
}

std::string CompilePool::defaultWorkerPath() {
  Dl_info info{};
  if (!dladdr(reinterpret_cast<void *>(&CompilePool::defaultWorkerPath), &info) ||
      !info.dli_fname)
    return {};
  std::error_code ec;
  auto lib = std::filesystem::canonical(info.dli_fname, ec);
  if (ec)
    return {};
  auto dir = lib.parent_path();
  for (auto candidate : {dir / ".." / "libexec" / "atoll" / "atoll-compile-worker",
                         dir / ".." / "bin" / "atoll-compile-worker"}) {
    auto p = candidate.lexically_normal().string();
    if (executable(p))
      return p;
  }
  return {};
}

Result<std::unique_ptr<CompilePool>> CompilePool::create(PoolConfig config) {
  if (config.workerPath.empty() || !executable(config.workerPath))
    return Error(ErrorCode::InvalidArgument,
                 fmt::format("the compile worker '{}' is not an executable file: install "
                             "atoll-compile-worker with the runtime, set "
                             "RuntimeOptions::compileWorkers.path, or set compileInProcess",
                             config.workerPath));
  if (config.size == 0)
    config.size = 1;
  if (config.memoryLimit < (256ull << 20))
    return Error(ErrorCode::InvalidArgument, "compileWorkers.memoryLimit is below 256 MiB");
  if (config.cpuLimitSeconds == 0 || config.timeout.count() <= 0 || config.maxOutputBytes < 4096 ||
      (config.maxAssembledBytes != 0 && config.maxAssembledBytes < 4096))
    return Error(ErrorCode::InvalidArgument,
                 "compileWorkers: cpuLimitSeconds, timeout and maxOutputBytes must be positive "
                 "(maxOutputBytes at least 4096)");
  if (config.answerBudget < 4096)
    return Error(ErrorCode::InvalidArgument,
                 "RuntimeOptions::compileWorkers.answerBudget is below 4096 bytes");
  std::unique_ptr<CompilePool> pool(new CompilePool(std::move(config)));
  pool->wakeFd_ = ::eventfd(0, EFD_CLOEXEC | EFD_NONBLOCK);
  if (pool->wakeFd_ < 0)
    return Error(ErrorCode::IoError, fmt::format("eventfd: {}", std::strerror(errno)));
  pool->refill_ = std::thread([p = pool.get()] { p->refillLoop(); });
  return pool;
}

CompilePool::CompilePool(PoolConfig config)
    : config_(std::move(config)), budget_(config_.answerBudget) {}

CompilePool::~CompilePool() {
  {
    std::lock_guard lock(mutex_);
    stopping_ = true;
  }
  wake();
  ready_.notify_all();
  if (refill_.joinable())
    refill_.join();
  for (Proc &p : idle_)
    destroy(p);
  for (Held &h : held_)
    destroy(h.proc);
  reapRetired(true);
  if (wakeFd_ >= 0)
    ::close(wakeFd_);
}

void CompilePool::wake() {
  uint64_t one = 1;
  if (wakeFd_ >= 0)
    (void)!::write(wakeFd_, &one, sizeof one);
}

size_t CompilePool::warm() const {
  std::lock_guard lock(mutex_);
  return idle_.size();
}

CompilePool::Stats CompilePool::stats() const {
  std::lock_guard lock(mutex_);
  Stats s = stats_;
  s.live = live_.load();
  s.held = held_.size();
  return s;
}

Result<CompilePool::Proc> CompilePool::spawn() {
  int sv[2];
  if (::socketpair(AF_UNIX, SOCK_STREAM | SOCK_CLOEXEC, 0, sv) != 0)
    return Error(ErrorCode::IoError, fmt::format("socketpair: {}", std::strerror(errno)));
  std::vector<std::string> args = {config_.workerPath, fmt::format("--parent={}", ::getpid()),
                                   fmt::format("--memory={}", config_.memoryLimit),
                                   fmt::format("--cpu={}", config_.cpuLimitSeconds)};
  if (!config_.libdevicePath.empty())
    args.push_back("--libdevice=" + config_.libdevicePath);
  args.insert(args.end(), config_.extraArgs.begin(), config_.extraArgs.end());
  // Diagnostics for whoever runs the service (tenants cannot set its environment):
  // log the system calls the filter would refuse instead of killing the worker.
  if (const char *v = std::getenv("ATOLL_WORKER_SECCOMP_AUDIT"); v && std::string(v) == "1")
    args.push_back("--seccomp-audit");
  std::vector<std::string> env =
      workerEnvironment([](const char *var) -> const char * { return std::getenv(var); });
  std::vector<char *> argv, envp;
  for (auto &a : args)
    argv.push_back(a.data());
  argv.push_back(nullptr);
  for (auto &e : env)
    envp.push_back(e.data());
  envp.push_back(nullptr);

  posix_spawn_file_actions_t fa;
  posix_spawnattr_t attr;
  posix_spawn_file_actions_init(&fa);
  posix_spawnattr_init(&attr);
  // The socket becomes fd 3 first (in case it is one of 0-2), then stdio is
  // /dev/null and everything else is closed.
  posix_spawn_file_actions_adddup2(&fa, sv[1], 3);
  for (int fd = 0; fd < 3; ++fd)
    posix_spawn_file_actions_addopen(&fa, fd, "/dev/null", fd == 0 ? O_RDONLY : O_WRONLY, 0);
  posix_spawn_file_actions_addclosefrom_np(&fa, 4);
  sigset_t none, all;
  sigemptyset(&none);
  sigfillset(&all);
  posix_spawnattr_setsigmask(&attr, &none);
  posix_spawnattr_setsigdefault(&attr, &all);
  posix_spawnattr_setflags(&attr, POSIX_SPAWN_SETSIGMASK | POSIX_SPAWN_SETSIGDEF);
  pid_t pid = -1;
  int rc = ::posix_spawn(&pid, config_.workerPath.c_str(), &fa, &attr, argv.data(), envp.data());
  posix_spawn_file_actions_destroy(&fa);
  posix_spawnattr_destroy(&attr);
  ::close(sv[1]);
  if (rc != 0) {
    ::close(sv[0]);
    return Error(ErrorCode::IoError, fmt::format("cannot start the compile worker '{}': {}",
                                                 config_.workerPath, std::strerror(rc)));
  }
  size_t live = ++live_;
  stats_.peakLive = std::max<uint64_t>(stats_.peakLive, live);
  return Proc{pid, sv[0], Clock::now()};
}

void CompilePool::reaped() {
  live_--;
  wake(); // a slot is free: the refill thread starts its replacement
}

void CompilePool::destroy(Proc &p) {
  if (p.pid > 0) {
    ::kill(p.pid, SIGKILL);
    int st;
    while (::waitpid(p.pid, &st, 0) < 0 && errno == EINTR) {
    }
    reaped();
  }
  if (p.fd >= 0)
    ::close(p.fd);
  p.pid = p.fd = -1;
}

void CompilePool::retire(Proc &p) {
  if (p.pid > 0) {
    ::kill(p.pid, SIGKILL);
    std::lock_guard lock(mutex_);
    retired_.push_back(p.pid);
  }
  if (p.fd >= 0)
    ::close(p.fd);
  p.pid = p.fd = -1;
}

void CompilePool::hold(Proc &p) {
  if (config_.holdAnswered.count() <= 0) {
    retire(p);
    return;
  }
  // It waits for the end of its socket (WorkerService.cpp), blocked; should it do
  // anything else meanwhile (a compromised worker may spin), it does so at the
  // lowest priority of the normal policy, behind the compiles in flight. The pid is
  // an unreaped child of ours: it names no other process. Its exit then runs at that
  // priority too.
  (void)::setpriority(PRIO_PROCESS, id_t(p.pid), 19);
  {
    std::lock_guard lock(mutex_);
    held_.push_back({p, Clock::now()});
  }
  p.pid = p.fd = -1;
  wake();
}

void CompilePool::heldToEnd(bool inFlight, size_t starting, std::vector<Proc> &out) {
  auto now = Clock::now();
  // A request waiting for a worker, or a claim without an idle or starting worker
  // for it, while every slot is taken: the held workers' slots are needed.
  const bool slotsNeeded = live_.load() >= config_.size &&
                           (waiting_ > 0 || claims_ > idle_.size() + starting);
  std::vector<Held> keep;
  for (Held &h : held_) {
    int st;
    pid_t r;
    while ((r = ::waitpid(h.proc.pid, &st, WNOHANG)) < 0 && errno == EINTR) {
    }
    if (r != 0) {
      // It ended by itself (or, ECHILD, is not ours to wait for any more).
      reaped();
      ::close(h.proc.fd);
      continue;
    }
    if (!inFlight || stopping_ || slotsNeeded || now - h.since >= config_.holdAnswered) {
      if (!inFlight)
        stats_.endedAfterLoads++;
      out.push_back(h.proc);
    } else {
      keep.push_back(h);
    }
  }
  held_ = std::move(keep);
}

void CompilePool::reapRetired(bool wait) {
  std::vector<int> pids;
  {
    std::lock_guard lock(mutex_);
    pids.swap(retired_);
  }
  std::vector<int> left;
  for (int pid : pids) {
    int st;
    pid_t r;
    while ((r = ::waitpid(pid, &st, wait ? 0 : WNOHANG)) < 0 && errno == EINTR) {
    }
    if (r == 0)
      left.push_back(pid);
    else
      reaped(); // collected (or, ECHILD, not ours to wait for any more)
  }
  std::lock_guard lock(mutex_);
  retired_.insert(retired_.end(), left.begin(), left.end());
}

int CompilePool::reap(Proc &p, Clock::time_point deadline, bool &killed) {
  int st = 0;
  for (;;) {
    pid_t r = ::waitpid(p.pid, &st, WNOHANG);
    if (r == p.pid || (r < 0 && errno != EINTR))
      break;
    if (Clock::now() >= deadline) {
      ::kill(p.pid, SIGKILL);
      killed = true;
      while (::waitpid(p.pid, &st, 0) < 0 && errno == EINTR) {
      }
      break;
    }
    std::this_thread::sleep_for(std::chrono::milliseconds(1));
  }
  reaped();
  p.pid = -1;
  ::close(p.fd);
  p.fd = -1;
  return st;
}

void CompilePool::refillLoop() {
  std::vector<Proc> starting;
  for (;;) {
    bool backoff = false;
    std::vector<Proc> ending;
    bool anyHeld = false;
    {
      std::lock_guard lock(mutex_);
      if (stopping_)
        break;
      // After repeated start failures, retry slowly (a missing toolkit must not spin).
      backoff = consecutiveStartFailures_ >= 3;
      // The cap counts every process not yet reaped (starting, idle, busy, killed):
      // a free slot appears only when reaped() collects one, and wakes this thread.
      // Replacements also wait for a free core (cpuSlots). While a load is in flight
      // they start only when needed: for the requests waiting for a worker, the open
      // claims, and a small floor of warm workers (warmFloor); the rest waits until
      // no load is in flight, so that the starts (exec, LLVM init, the nvJitLink
      // dlopen, a warm-up compilation) do not take CPU from the burst of compiles
      // that freed the slots (the H200 measured 16 starts during a burst of 16
      // parallel loads under the earlier reserve rule, and a scaling efficiency of
      // 0.48-0.76 at N = 16 against 0.86-1.08 at N <= 8).
      // Ahead of need, a replacement starts during loads only when both hold:
      //  - the warm supply is short of the demand: fewer idle and starting workers
      //    than the waiting requests and the open claims plus the larger of the
      //    loads in flight and the requests that arrived within the last start time
      //    (PoolConfig::demandWindow) since the pool was last all warm: what the
      //    loads take while a start now is on its way, beyond what was already made
      //    up for. A stream of loads keeps that many workers warm or starting; a
      //    burst that the idle workers cover, such as N <= 16 loads on the 32
      //    workers of a 16-core machine, starts nothing, however many of its loads
      //    have ended;
      //  - a core is spare (loads + starting workers < cpuSlots).
      // A start holds its core for far longer than a load (a mean of 66-180 ms from
      // exec to Ready in the H200's compile runs, against about 20 ms for a load), so
      // a core spare now is no reason to start by itself: the H200 counted 15 starts
      // during a burst of 16 loads on 16 cores under the spare-core test alone (the
      // loads that ended first freed slots and cores, and the starts then ran next
      // to the burst's last compiles; scaling efficiency 0.62). A short supply is:
      // without a start, a load of the stream waits for a whole one.
      const size_t loads = std::max(loads_, requests_);
      const bool inFlight = loads > 0;
      const size_t recent = recentRequests(Clock::now());
      // The workers that answered: ended once no load is in flight (their exits
      // then run on free cores), or earlier when their slots are needed or they were
      // held long enough (PoolConfig::holdAnswered).
      heldToEnd(inFlight, starting.size(), ending);
      anyHeld = !held_.empty();
      auto needed = [&] {
        const size_t supply = idle_.size() + starting.size();
        return !inFlight || supply < waiting_ + claims_ + config_.warmFloor ||
               (config_.cpuSlots != 0 && loads + starting.size() < config_.cpuSlots &&
                supply < waiting_ + claims_ + std::max(loads, recent));
      };
      while (!backoff && live_.load() < config_.size &&
             (config_.cpuSlots == 0 || busy_ + starting.size() < config_.cpuSlots) && needed()) {
        auto p = spawn();
        if (!p) {
          lastStartError_ = p.error().message();
          stats_.startFailures++;
          consecutiveStartFailures_++;
          ready_.notify_all();
          break;
        }
        stats_.started++;
        if (inFlight)
          stats_.startedDuringLoads++;
        starting.push_back(*p);
      }
      starting_ = starting.size();
    }
    for (Proc &p : ending)
      retire(p);
    reapRetired(false);
    bool zombies;
    {
      std::lock_guard lock(mutex_);
      zombies = !retired_.empty();
    }
    std::vector<pollfd> fds{{wakeFd_, POLLIN, 0}};
    for (const Proc &p : starting)
      fds.push_back({p.fd, POLLIN, 0});
    // Zombies and held workers (one may end by itself, or reach the hold limit) are
    // looked at every 20 ms.
    int timeout = backoff ? 1000
                          : (starting.empty() && !zombies && !anyHeld ? -1
                             : zombies || anyHeld                     ? 20
                                                                      : 100);
    int n = ::poll(fds.data(), fds.size(), timeout);
    if (n < 0 && errno != EINTR)
      std::this_thread::sleep_for(std::chrono::milliseconds(10));
    if (fds[0].revents) {
      uint64_t v;
      (void)!::read(wakeFd_, &v, sizeof v);
    }
    if (backoff) {
      std::lock_guard lock(mutex_);
      consecutiveStartFailures_ = 2; // one more attempt
    }
    auto now = Clock::now();
    std::vector<Proc> still;
    for (size_t i = 0; i < starting.size(); ++i) {
      Proc &p = starting[i];
      if (!fds[i + 1].revents) {
        if (now - p.started > kStartTimeout) {
          destroy(p);
          std::lock_guard lock(mutex_);
          lastStartError_ = "the compile worker did not become ready in time";
          stats_.startFailures++;
          consecutiveStartFailures_++;
          ready_.notify_all();
        } else {
          still.push_back(p);
        }
        continue;
      }
      // The Ready frame (or the Failed frame of a failed initialisation).
      auto frame = readFrame(p.fd, kMaxReadyFrame, now + std::chrono::seconds(5));
      std::optional<Response> resp;
      if (frame)
        if (auto r = decodeResponse(*frame))
          resp = std::move(*r);
      std::lock_guard lock(mutex_);
      if (resp && std::holds_alternative<Ready>(*resp)) {
        assembler_.store(std::get<Ready>(*resp).assembler);
        stats_.startMicros += uint64_t(
            std::chrono::duration_cast<std::chrono::microseconds>(Clock::now() - p.started).count());
        stats_.ready++;
        consecutiveStartFailures_ = 0;
        idle_.push_back(p);
        if (idle_.size() >= config_.size)
          arrivals_.clear(); // all warm: the requests so far are made up for
        // Every waiter looks: one without a claim may not take it (take()).
        ready_.notify_all();
        continue;
      }
      if (resp && std::holds_alternative<Failed>(*resp))
        lastStartError_ = "the compile worker failed to initialise: " +
                          std::get<Failed>(*resp).message;
      else
        lastStartError_ = "the compile worker did not say it was ready";
      destroy(p);
      stats_.startFailures++;
      consecutiveStartFailures_++;
      ready_.notify_all();
    }
    starting = std::move(still);
  }
  for (Proc &p : starting)
    destroy(p);
}

CompilePool::Claim &CompilePool::Claim::operator=(Claim &&o) noexcept {
  if (this != &o) {
    release();
    pool_ = o.pool_;
    effective_ = o.effective_;
    o.pool_ = nullptr;
    o.effective_ = false;
  }
  return *this;
}

void CompilePool::Claim::release() {
  if (pool_ && effective_) {
    {
      std::lock_guard lock(pool_->mutex_);
      pool_->claims_--;
    }
    pool_->ready_.notify_all(); // an idle worker it kept may go to anyone now
  }
  pool_ = nullptr;
  effective_ = false;
}

CompilePool::Claim CompilePool::claim() { return Claim(this); }

void CompilePool::enter(bool load) {
  std::lock_guard lock(mutex_);
  (load ? loads_ : requests_)++;
  if (!load) {
    // The requests before the pool was last all warm have been made up for.
    if (idle_.size() >= config_.size)
      arrivals_.clear();
    arrivals_.push_back(Clock::now());
    (void)recentRequests(arrivals_.back());
  }
}

size_t CompilePool::recentRequests(Clock::time_point now) {
  auto window = config_.demandWindow;
  if (window.count() <= 0)
    window = stats_.ready ? std::chrono::milliseconds(stats_.startMicros / stats_.ready / 1000)
                          : std::chrono::milliseconds(100);
  window = std::clamp(window, std::chrono::milliseconds(1), std::chrono::milliseconds(60000));
  while (!arrivals_.empty() && now - arrivals_.front() > window)
    arrivals_.pop_front();
  return arrivals_.size();
}

void CompilePool::leave(bool load) {
  {
    std::lock_guard lock(mutex_);
    (load ? loads_ : requests_)--;
  }
  wake(); // one less in flight: a core, or the whole pool, may be free for starts
}

void CompilePool::Activity::end() {
  if (pool_)
    pool_->leave(true);
  pool_ = nullptr;
}

CompilePool::Activity CompilePool::activity() {
  enter(true);
  return Activity(this);
}

Result<CompilePool::Proc> CompilePool::take(Clock::time_point deadline, Claim *claim) {
  std::unique_lock lock(mutex_);
  auto since = Clock::now();
  bool waited = false;
  const bool claimed = claim && claim->pool_ == this;
  // A waiter with an effective claim is already counted in claims_; every other one
  // counts in waiting_ while it waits, so that the refill thread starts a worker for
  // it even while loads are in flight.
  const bool counted = !(claimed && claim->effective_);
  struct Waiting {
    CompilePool *pool;
    bool on = false;
    ~Waiting() {
      if (on)
        pool->waiting_--; // under the caller's lock
    }
  } waiting{this};
  // Idle workers are kept for open claims (R7-F5): a request without one takes
  // only those beyond them.
  auto available = [&] { return !idle_.empty() && (claimed || idle_.size() > claims_); };
  for (;;) {
    if (available()) {
      Proc p = idle_.front();
      idle_.pop_front();
      busy_++;
      if (claimed) {
        // Consumed with the worker it kept, in one step: the refill thread never sees
        // the worker gone and the claim still open.
        if (claim->effective_)
          claims_--;
        claim->pool_ = nullptr;
        claim->effective_ = false;
      }
      // Fewer idle workers: a replacement held back may be needed now.
      wake();
      if (waited)
        stats_.waitMicros += uint64_t(
            std::chrono::duration_cast<std::chrono::microseconds>(Clock::now() - since).count());
      return p;
    }
    if (!waited) {
      waited = true;
      stats_.waits++;
      if (counted) {
        waiting_++;
        waiting.on = true;
        wake(); // a worker is needed now, burst or not
      }
    }
    if (stopping_)
      return Error(ErrorCode::CompileError, "the compile pool is shutting down");
    if (consecutiveStartFailures_ >= 3)
      return Error(ErrorCode::CompileError,
                   fmt::format("no compile worker could be started: {}", lastStartError_));
    if (ready_.wait_until(lock, deadline) == std::cv_status::timeout && !available()) {
      auto ms = std::chrono::duration_cast<std::chrono::milliseconds>(Clock::now() - since).count();
      if (!idle_.empty())
        return Error(ErrorCode::CompileResources,
                     fmt::format("the idle compile workers stayed kept for the assemble steps "
                                 "of {} loads ahead of this one for {} ms",
                                 claims_, ms));
      if (busy_ == 0 && consecutiveStartFailures_ > 0)
        // No request holds a worker: the slots are workers that fail to start (the
        // deadline came before the third failure), not a resource limit.
        return Error(ErrorCode::CompileError,
                     fmt::format("no compile worker could be started within {} ms: {}", ms,
                                 lastStartError_));
      if (live_.load() >= config_.size)
        // Every slot held by other requests: a resource limit, not a slow worker.
        return Error(ErrorCode::CompileResources,
                     fmt::format("all {} compile workers (the limit, "
                                 "RuntimeOptions::compileWorkers.poolSize) stayed busy for {} ms",
                                 config_.size, ms));
      if (config_.cpuSlots && busy_ >= config_.cpuSlots)
        // Replacements wait for a free core, and every core ran a request.
        return Error(ErrorCode::CompileResources,
                     fmt::format("{} compile requests kept every core busy for {} ms (no "
                                 "replacement worker could start)",
                                 busy_, ms));
      return Error(ErrorCode::CompileTimeout,
                   fmt::format("no compile worker became ready within {} ms", ms));
    }
  }
}

Result<Response> CompilePool::run(const Request &request) {
  // Charged from the header until the answer is handed back.
  AnswerBudget::Charge charge;
  return run(request, [&](uint32_t bytes, Clock::time_point deadline) -> Status {
    auto c = budget_.acquire(bytes, deadline);
    if (!c)
      return std::move(c).error();
    charge = std::move(*c);
    return {};
  });
}

Result<Response> CompilePool::run(const Request &request, const Admit &admit) {
  return runOn(request, admit, nullptr, nullptr);
}

Result<Response> CompilePool::run(const Request &request, const Admit &admit, Claim &claim) {
  return runOn(request, admit, &claim, nullptr);
}

Result<Response> CompilePool::runHandingOver(const Request &request, const Admit &admit,
                                             Claim &next) {
  return runOn(request, admit, nullptr, &next);
}

Result<Response> CompilePool::runOn(const Request &request, const Admit &admit, Claim *claim,
                                    Claim *handOver) {
  auto deadline = Clock::now() +
                  (config_.waitTimeout.count() > 0 ? config_.waitTimeout : config_.timeout);
  // In flight from here until it returns (the refill rule, PoolConfig::warmFloor).
  enter(false);
  struct Leave {
    CompilePool *pool;
    ~Leave() { pool->leave(false); }
  } leaveOnReturn{this};
  auto taken = take(deadline, claim);
  if (!taken)
    return std::move(taken).error();
  Proc p = *taken;
  // The scheduler's view of this request (Stats::workerCpuMicros): the worker is our
  // unreaped child, so its pid names no other process.
  const SchedSample sched0 = sampleScheduler(p.pid);
  // Its replacement starts when no load is in flight, or earlier only when a
  // request needs it (refillLoop): a worker initialising (LLVM, a warm-up
  // compilation) next to the request would slow it down (measured: a cold load took
  // 2x the in-process time with the replacement started at once on a loaded 2-core
  // machine).
  struct Replace {
    CompilePool *pool;
    int pid;
    SchedSample before;
    bool working = true;
    // The answer's header has arrived: the worker's work is done (R7-F5: a request
    // that then waits for the answer budget holds its worker, not a core).
    void answered() {
      if (!working)
        return;
      working = false;
      SchedSample after = sampleScheduler(pid);
      {
        std::lock_guard lock(pool->mutex_);
        pool->busy_--;
        if (before.valid && after.valid) {
          Stats &s = pool->stats_;
          uint64_t queueUs = (after.queueNs - before.queueNs) / 1000;
          s.workerCpuMicros += (after.cpuNs - before.cpuNs) / 1000;
          s.workerQueueMicros += queueUs;
          s.workerMinorFaults += after.minorFaults - before.minorFaults;
          s.workerQueued += queueUs >= 1000;
          s.workerSampled++;
        }
      }
      pool->wake();
    }
    ~Replace() {
      if (working) {
        std::lock_guard lock(pool->mutex_);
        pool->busy_--;
      }
      pool->wake();
    }
  } replace{this, p.pid, sched0};
  // The deadline of the request itself starts once it has a worker.
  auto begun = Clock::now();
  deadline = begun + config_.timeout;
  struct Timed {
    CompilePool *pool;
    bool compile;
    Clock::time_point begun;
    ~Timed() {
      auto us = uint64_t(
          std::chrono::duration_cast<std::chrono::microseconds>(Clock::now() - begun).count());
      std::lock_guard lock(pool->mutex_);
      (compile ? pool->stats_.compileMicros : pool->stats_.assembleMicros) += us;
      (compile ? pool->stats_.compileRequests : pool->stats_.assembleRequests)++;
    }
  } timed{this, std::holds_alternative<CompileJob>(request), begun};
  auto fail = [&](Error e) -> Result<Response> {
    std::lock_guard lock(mutex_);
    stats_.failed++;
    return e;
  };
  // Payload bytes admitted and being received (a count for tests, apart from the
  // budget).
  struct Receiving {
    CompilePool *pool;
    uint64_t bytes = 0;
    void add(uint64_t b) {
      std::lock_guard lock(pool->mutex_);
      bytes += b;
      pool->stats_.receivingBytes += b;
      pool->stats_.peakReceivingBytes =
          std::max(pool->stats_.peakReceivingBytes, pool->stats_.receivingBytes);
    }
    ~Receiving() {
      std::lock_guard lock(pool->mutex_);
      pool->stats_.receivingBytes -= bytes;
    }
  } receiving{this};
  uint32_t cap = std::holds_alternative<AssembleJob>(request) ? maxAssembledBytes()
                                                              : config_.maxOutputBytes;
  // Where the worker wakes (PoolConfig::startOnSender): pinned to this thread's
  // CPU until the request is written (it wakes at the first bytes), then back to its
  // own set, so that the scheduler may move it later. A failed call changes nothing.
  cpu_set_t own;
  bool pinned = false;
  if (config_.startOnSender)
    if (int cpu = ::sched_getcpu(); cpu >= 0 && cpu < CPU_SETSIZE &&
                                    ::sched_getaffinity(p.pid, sizeof own, &own) == 0) {
      cpu_set_t one;
      CPU_ZERO(&one);
      CPU_SET(cpu, &one);
      pinned = ::sched_setaffinity(p.pid, sizeof one, &one) == 0;
    }
  Status sent = writeRequest(p.fd, request, deadline);
  if (pinned)
    (void)::sched_setaffinity(p.pid, sizeof own, &own);
  Result<std::string> frame =
      sent ? readFrame(p.fd, cap, deadline,
                       [&](uint32_t bytes) -> Status {
                         replace.answered();
                         if (admit)
                           if (Status s = admit(bytes, deadline); !s)
                             return s;
                         receiving.add(bytes);
                         return {};
                       })
           : Result<std::string>(std::move(sent).error());
  if (frame) {
    // The slot this worker frees is handed over to the claim made while it answered
    // (R7-F5): counted before the slot can come free.
    if (handOver && handOver->pool_ == this && !handOver->effective_) {
      std::lock_guard lock(mutex_);
      claims_++;
      handOver->effective_ = true;
    }
    // In place: the PTX or cubin keeps the frame's allocation (no second copy).
    auto resp = decodeResponse(std::move(*frame), config_.maxKernels);
    if (!resp || std::holds_alternative<Ready>(*resp)) {
      // Killed now, reaped by the refill thread.
      retire(p);
      if (!resp)
        return fail(std::move(resp).error());
      return fail(Error(ErrorCode::CompileError,
                        "the compile worker sent Ready instead of an answer"));
    }
    // Single use: whatever it does next, it is done. It answered and waits to be
    // ended: the refill thread kills it once no load is in flight (or its slot is
    // needed, or it was held for PoolConfig::holdAnswered), so that its exit (the
    // unmapping of a process of about 120 MB resident) does not slow the compiles
    // of the loads still in flight; the caller never waits for it.
    hold(p);
    std::lock_guard lock(mutex_);
    stats_.served++;
    return resp;
  }
  Error e = std::move(frame).error();
  if (e.code() == ErrorCode::CompileError) {
    // End of stream: the worker died. Its exit status says how.
    bool killed = false;
    int st = reap(p, std::min(deadline, Clock::now() + std::chrono::seconds(2)), killed);
    if (killed)
      return fail(std::move(e));
    Error why = classifyExit(st, false, config_);
    if (WIFEXITED(st) && why.code() == ErrorCode::CompileError)
      // It ended by itself after a bad frame: say both.
      return fail(Error(ErrorCode::CompileError, fmt::format("{} ({})", why.message(), e.message())));
    return fail(std::move(why));
  }
  retire(p);
  if (e.code() == ErrorCode::CompileTimeout)
    return fail(classifyExit(0, true, config_));
  return fail(std::move(e));
}

} // namespace Atoll::detail::compile
