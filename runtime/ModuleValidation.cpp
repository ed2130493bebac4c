#include "ModuleValidation.h"

#include "ptx/PtxValidator.h"

#include "atoll/abi.h"

#include <fmt/format.h>

#include <cctype>

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

std::optional<std::vector<std::string>> ptxEntryParams(std::string_view ptx,
                                                       std::string_view kernel) {
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
    if (ptx.substr(nameStart, p - nameStart) != kernel)
      continue;
    while (p < ptx.size() && std::isspace(static_cast<unsigned char>(ptx[p])))
      ++p;
    std::vector<std::string> params;
    if (p >= ptx.size() || ptx[p] != '(')
      return params; // no parameter list at all
    size_t close = ptx.find(')', p);
    if (close == std::string_view::npos)
      return std::nullopt;
    std::string_view list = ptx.substr(p + 1, close - p - 1);
    while (!list.empty()) {
      size_t comma = list.find(',');
      std::string_view item = trim(list.substr(0, comma));
      if (!item.empty())
        params.emplace_back(item);
      if (comma == std::string_view::npos)
        break;
      list.remove_prefix(comma + 1);
    }
    return params;
  }
  return std::nullopt;
}

Status checkHardenedEntries(std::string_view ptx, const std::vector<KernelInfo> &kernels) {
  for (const KernelInfo &k : kernels) {
    auto params = ptxEntryParams(ptx, k.name);
    if (!params)
      return Error(ErrorCode::CompileError,
                   fmt::format("kernel '{}' is not an entry of the generated PTX", k.name));
    size_t expected = k.params.size() + ATOLL_HIDDEN_PARAM_COUNT;
    if (params->size() != expected)
      return Error(ErrorCode::CompileError,
                   fmt::format("kernel '{}' has {} PTX parameters, expected {} (its {} plus the "
                               "{} hidden arena parameters): it was not hardened and is never "
                               "launched",
                               k.name, params->size(), expected, k.params.size(),
                               ATOLL_HIDDEN_PARAM_COUNT));
    for (size_t i = k.params.size(); i < expected; ++i) {
      const std::string &decl = (*params)[i];
      if (decl.find(".u64") == std::string::npos && decl.find(".b64") == std::string::npos &&
          decl.find(".s64") == std::string::npos)
        return Error(ErrorCode::CompileError,
                     fmt::format("kernel '{}': hidden parameter {} is not 64-bit ('{}')", k.name,
                                 i - k.params.size(), decl));
    }
  }
  return {};
}


Status validatePtx(const CompiledEntry &entry) {
  if (Status s = checkHardenedEntries(entry.ptx, entry.kernels); !s)
    return s;
  ptx::Expectation exp;
  exp.hiddenParams = ATOLL_HIDDEN_PARAM_COUNT;
  for (const KernelInfo &k : entry.kernels)
    exp.entries.push_back({k.name, uint32_t(k.params.size())});
  if (auto v = ptx::validate(entry.ptx, exp))
    return Error(ErrorCode::Refused,
                 fmt::format("refused by the PTX validator: {}", v->describe()),
                 fmt::format("PTX line {}: {}", v->line, v->text));
  return {};
}

} // namespace Atoll::detail
