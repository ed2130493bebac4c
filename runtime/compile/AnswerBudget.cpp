#include "compile/AnswerBudget.h"

#include <fmt/format.h>

#include <algorithm>

namespace Atoll::detail::compile {

AnswerBudget::Charge &AnswerBudget::Charge::operator=(Charge &&o) noexcept {
  if (this != &o) {
    release();
    budget_ = o.budget_;
    bytes_ = o.bytes_;
    o.budget_ = nullptr;
    o.bytes_ = 0;
  }
  return *this;
}

void AnswerBudget::Charge::shrinkTo(uint64_t bytes) {
  if (budget_ && bytes < bytes_) {
    budget_->give(bytes_ - bytes);
    bytes_ = bytes;
  }
}

void AnswerBudget::Charge::release() {
  if (budget_ && bytes_)
    budget_->give(bytes_);
  budget_ = nullptr;
  bytes_ = 0;
}

AnswerBudget::AnswerBudget(uint64_t capacity, std::string optionName)
    : capacity_(std::max<uint64_t>(capacity, 1)), optionName_(std::move(optionName)) {}

void AnswerBudget::give(uint64_t bytes) {
  {
    std::lock_guard lock(mutex_);
    stats_.inUse -= std::min(bytes, stats_.inUse);
  }
  freed_.notify_all();
}

AnswerBudget::Stats AnswerBudget::stats() const {
  std::lock_guard lock(mutex_);
  return stats_;
}

Result<AnswerBudget::Charge> AnswerBudget::acquire(uint64_t bytes, Clock::time_point deadline) {
  std::unique_lock lock(mutex_);
  if (bytes > capacity_) {
    stats_.refused++;
    return Error(ErrorCode::CompileResources,
                 fmt::format("the compile worker's answer needs {} bytes in the service, more than "
                             "the whole compile answer budget of {} bytes ({})",
                             bytes, capacity_, optionName_));
  }
  auto take = [&] {
    stats_.inUse += bytes;
    stats_.peak = std::max(stats_.peak, stats_.inUse);
    return Charge(this, bytes);
  };
  // First come, first served: a large answer is not starved by a stream of small ones.
  if (queue_.empty() && stats_.inUse + bytes <= capacity_)
    return take();
  auto since = Clock::now();
  stats_.waits++;
  uint64_t ticket = nextTicket_++;
  queue_.push_back(ticket);
  auto leave = [&] {
    queue_.erase(std::find(queue_.begin(), queue_.end(), ticket));
    stats_.waitMicros += uint64_t(
        std::chrono::duration_cast<std::chrono::microseconds>(Clock::now() - since).count());
    // The next in line may fit now that this one is gone.
    freed_.notify_all();
  };
  for (;;) {
    if (queue_.front() == ticket && stats_.inUse + bytes <= capacity_) {
      leave();
      return take();
    }
    if (freed_.wait_until(lock, deadline) == std::cv_status::timeout &&
        !(queue_.front() == ticket && stats_.inUse + bytes <= capacity_)) {
      uint64_t held = stats_.inUse;
      leave();
      stats_.refused++;
      auto ms = std::chrono::duration_cast<std::chrono::milliseconds>(Clock::now() - since).count();
      return Error(ErrorCode::CompileResources,
                   fmt::format("the compile worker's answer needs {} bytes in the service, but "
                               "the answers of other loads held {} of the {}-byte compile answer "
                               "budget ({}) for {} ms",
                               bytes, held, capacity_, optionName_, ms));
    }
  }
}

} // namespace Atoll::detail::compile
