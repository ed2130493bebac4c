// The results file's JSON: nlohmann::json (Debian's nlohmann-json3-dev). Objects
// are std::maps, so a reference to a member stays valid while others are added
// (the sections keep `Json &out = root["sections"][name]` for their whole run).
#pragma once

#include <nlohmann/json.hpp>

#include <string>

namespace atoll_bench {

using Json = nlohmann::json;

/// results.json's text: 2-space indent; NaN is null; invalid UTF-8 (say, in a
/// driver's message) is replaced, never thrown.
inline std::string dumpJson(const Json &j) {
  return j.dump(2, ' ', false, Json::error_handler_t::replace) + "\n";
}

} // namespace atoll_bench
