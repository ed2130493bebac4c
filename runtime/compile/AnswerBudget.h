// The service-wide byte budget for compile answers in flight (#14): every answer a
// compile worker sends is charged to it, from its frame header (before the payload
// is allocated) until the load no longer holds it. Each answer is capped
// (maxOutputBytes) and the workers are capped (poolSize), but N parallel loads
// could still hold N x the cap; with the budget they hold at most `capacity` bytes
// whatever N is. A charge that does not fit waits, first come first served, up to
// its deadline; one larger than the whole budget is refused at once. A Charge is
// RAII: every path (success, error, worker death, timeout) releases it.
#pragma once

#include "atoll/error.h"

#include <chrono>
#include <condition_variable>
#include <cstdint>
#include <deque>
#include <mutex>
#include <string>

namespace Atoll::detail::compile {

class AnswerBudget {
public:
  using Clock = std::chrono::steady_clock;

  /// Bytes held for one load's answers; released when destroyed (or release()).
  class Charge {
  public:
    Charge() = default;
    Charge(Charge &&o) noexcept : budget_(o.budget_), bytes_(o.bytes_) { o.budget_ = nullptr; o.bytes_ = 0; }
    Charge &operator=(Charge &&o) noexcept;
    Charge(const Charge &) = delete;
    Charge &operator=(const Charge &) = delete;
    ~Charge() { release(); }
    uint64_t bytes() const { return bytes_; }
    /// Gives back everything above `bytes` (never waits, so it cannot deadlock).
    void shrinkTo(uint64_t bytes);
    void release();

  private:
    friend class AnswerBudget;
    Charge(AnswerBudget *b, uint64_t bytes) : budget_(b), bytes_(bytes) {}
    AnswerBudget *budget_ = nullptr;
    uint64_t bytes_ = 0;
  };

  /// `capacity` bytes (> 0); `optionName` is named in the errors.
  explicit AnswerBudget(uint64_t capacity,
                        std::string optionName = "RuntimeOptions::compileWorkers.answerBudget");
  AnswerBudget(const AnswerBudget &) = delete;
  AnswerBudget &operator=(const AnswerBudget &) = delete;

  /// Charges `bytes`, waiting (behind earlier waiters) until they fit or `deadline`.
  /// CompileResources, at once when `bytes` exceeds the whole budget, else at the
  /// deadline; both messages name the budget and the option.
  Result<Charge> acquire(uint64_t bytes, Clock::time_point deadline);

  uint64_t capacity() const { return capacity_; }
  struct Stats {
    uint64_t inUse = 0;
    uint64_t peak = 0;     // most bytes charged at once
    uint64_t waits = 0;    // charges that did not fit at once
    uint64_t waitMicros = 0;
    uint64_t refused = 0;  // over the whole budget, or not fitting by the deadline
  };
  Stats stats() const;

private:
  void give(uint64_t bytes);

  const uint64_t capacity_;
  const std::string optionName_;
  mutable std::mutex mutex_;
  std::condition_variable freed_;
  std::deque<uint64_t> queue_; // tickets of waiting charges, oldest first
  uint64_t nextTicket_ = 0;
  Stats stats_;
};

} // namespace Atoll::detail::compile
