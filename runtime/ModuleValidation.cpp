#include "ModuleValidation.h"

#include "ptx/PtxValidator.h"

#include "atoll/abi.h"

#include <fmt/format.h>

#include <algorithm>
#include <cctype>
#include <climits>

namespace Atoll::detail {
namespace {

bool isIdentChar(char c) {
  return (c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z') || (c >= '0' && c <= '9') || c == '_' ||
         c == '$' || c == '.';
}

std::string_view trim(std::string_view s) {
  while (!s.empty() && std::isspace(static_cast<unsigned char>(s.front())))
    s.remove_prefix(1);
  while (!s.empty() && std::isspace(static_cast<unsigned char>(s.back())))
    s.remove_suffix(1);
  return s;
}

} // namespace

uint32_t compileAnswerBytes(const RuntimeOptions &options) {
  constexpr uint64_t kFrameMax = UINT32_MAX, kFloor = 1u << 20;
  if (options.compileWorkers.maxOutputBytes)
    return options.compileWorkers.maxOutputBytes;
  uint64_t cubinCap = std::min<uint64_t>(std::max<uint64_t>(options.maxCubinBytes, 1), kFrameMax);
  return uint32_t(std::min(std::max(5 * cubinCap, kFloor), kFrameMax));
}

ModuleLimits moduleLimits(const RuntimeOptions &options) {
  ModuleLimits l;
  l.maxKernels = options.maxKernelsPerModule;
  l.maxPtxBytes = compileAnswerBytes(options);
  l.maxCubinBytes = options.maxCubinBytes;
  return l;
}

Error tooManyKernels(size_t kernels, size_t cap) {
  return Error(ErrorCode::CapacityExceeded,
               fmt::format("the module has {} kernels; at most {} are loaded "
                           "(RuntimeOptions::maxKernelsPerModule): split it",
                           kernels, cap));
}

Status checkModuleSize(const CompiledEntry &entry, const ModuleLimits &limits) {
  // Review R10-F1: these come before anything that reads the PTX. A load holds
  // every tenant's launches while the driver loads and looks up each kernel (R5-F6),
  // and the checks below cost time per kernel and per PTX byte on the service's
  // threads (the request thread, the one loader thread).
  if (entry.kernels.size() > limits.maxKernels)
    return tooManyKernels(entry.kernels.size(), limits.maxKernels);
  if (entry.ptx.size() > limits.maxPtxBytes)
    return Error(ErrorCode::CapacityExceeded,
                 fmt::format("the module's PTX has {} bytes; at most {} are accepted "
                             "(RuntimeOptions::compileWorkers.maxOutputBytes, by default 5 x "
                             "maxCubinBytes): split it",
                             entry.ptx.size(), limits.maxPtxBytes));
  if (entry.cubin.size() > limits.maxCubinBytes)
    return Error(ErrorCode::CapacityExceeded,
                 fmt::format("the module's cubin has {} bytes; at most {} are loaded "
                             "(RuntimeOptions::maxCubinBytes)",
                             entry.cubin.size(), limits.maxCubinBytes));
  return {};
}

PtxEntryMap ptxEntries(std::string_view ptx) {
  PtxEntryMap out;
  // One pass: the scan never goes back. After a parameter list it goes on after its
  // ')'; once a '(' has no ')' after it, no later one has either (no second search).
  bool noClose = false;
  size_t pos = 0;
  while ((pos = ptx.find(".entry", pos)) != std::string_view::npos) {
    size_t p = pos + 6;
    pos = p;
    if (p >= ptx.size() || !std::isspace(static_cast<unsigned char>(ptx[p])))
      continue;
    while (p < ptx.size() && std::isspace(static_cast<unsigned char>(ptx[p])))
      ++p;
    size_t nameStart = p;
    while (p < ptx.size() && isIdentChar(ptx[p]))
      ++p;
    std::string_view name = ptx.substr(nameStart, p - nameStart);
    pos = p;
    if (name.empty())
      continue;
    while (p < ptx.size() && std::isspace(static_cast<unsigned char>(ptx[p])))
      ++p;
    if (p >= ptx.size() || ptx[p] != '(') {
      out.try_emplace(name, std::vector<std::string_view>{}); // no parameter list at all
      continue;
    }
    size_t close = noClose ? std::string_view::npos : ptx.find(')', p);
    if (close == std::string_view::npos) {
      noClose = true;
      out.try_emplace(name, std::nullopt);
      continue;
    }
    pos = close + 1;
    auto [it, fresh] = out.try_emplace(name, std::vector<std::string_view>{});
    if (!fresh)
      continue;
    std::string_view list = ptx.substr(p + 1, close - p - 1);
    while (!list.empty()) {
      size_t comma = list.find(',');
      std::string_view item = trim(list.substr(0, comma));
      if (!item.empty())
        it->second->push_back(item);
      if (comma == std::string_view::npos)
        break;
      list.remove_prefix(comma + 1);
    }
  }
  return out;
}

std::optional<std::vector<std::string>> ptxEntryParams(std::string_view ptx,
                                                       std::string_view kernel) {
  PtxEntryMap entries = ptxEntries(ptx);
  auto it = entries.find(kernel);
  if (it == entries.end() || !it->second)
    return std::nullopt;
  return std::vector<std::string>(it->second->begin(), it->second->end());
}

Status checkHardenedEntries(std::string_view ptx, const std::vector<KernelInfo> &kernels) {
  // Review R10-F1: one pass over the PTX for all kernels (a scan per kernel was
  // O(kernels x PTX bytes): 16,000 kernels took 28 s).
  PtxEntryMap entries = ptxEntries(ptx);
  std::unordered_map<std::string_view, bool> listed;
  listed.reserve(kernels.size());
  for (const KernelInfo &k : kernels) {
    if (!listed.try_emplace(k.name, true).second)
      return Error(ErrorCode::CompileError,
                   fmt::format("kernel '{}' is listed twice in the module's signatures", k.name));
    auto found = entries.find(k.name);
    if (found == entries.end() || !found->second)
      return Error(ErrorCode::CompileError,
                   fmt::format("kernel '{}' is not an entry of the generated PTX", k.name));
    const std::vector<std::string_view> &params = *found->second;
    size_t expected = k.params.size() + ATOLL_HIDDEN_PARAM_COUNT;
    if (params.size() != expected)
      return Error(ErrorCode::CompileError,
                   fmt::format("kernel '{}' has {} PTX parameters, expected {} (its {} plus the "
                               "{} hidden arena parameters): it was not hardened and is never "
                               "launched",
                               k.name, params.size(), expected, k.params.size(),
                               ATOLL_HIDDEN_PARAM_COUNT));
    for (size_t i = k.params.size(); i < expected; ++i) {
      std::string_view decl = params[i];
      if (decl.find(".u64") == std::string_view::npos &&
          decl.find(".b64") == std::string_view::npos &&
          decl.find(".s64") == std::string_view::npos)
        return Error(ErrorCode::CompileError,
                     fmt::format("kernel '{}': hidden parameter {} is not 64-bit ('{}')", k.name,
                                 i - k.params.size(), decl));
    }
  }
  return {};
}

Status validatePtx(const CompiledEntry &entry, const ModuleLimits &limits) {
  if (Status s = checkModuleSize(entry, limits); !s)
    return s;
  if (Status s = checkHardenedEntries(entry.ptx, entry.kernels); !s)
    return s;
  ptx::Expectation exp;
  exp.hiddenParams = ATOLL_HIDDEN_PARAM_COUNT;
  exp.entries.reserve(entry.kernels.size());
  for (const KernelInfo &k : entry.kernels)
    exp.entries.push_back({k.name, uint32_t(k.params.size())});
  if (auto v = ptx::validate(entry.ptx, exp))
    return Error(ErrorCode::Refused,
                 fmt::format("refused by the PTX validator: {}", v->describe()),
                 fmt::format("PTX line {}: {}", v->line, v->text));
  return {};
}

} // namespace Atoll::detail
