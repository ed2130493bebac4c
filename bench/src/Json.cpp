#include "Json.h"

#include <cmath>
#include <cstdio>

namespace atoll_bench {

Json &Json::operator[](const std::string &key) {
  if (type_ == Type::Null)
    type_ = Type::Object;
  for (auto &m : members_)
    if (m.first == key)
      return m.second;
  members_.emplace_back(key, Json());
  return members_.back().second;
}

const Json *Json::find(const std::string &key) const {
  for (const auto &m : members_)
    if (m.first == key)
      return &m.second;
  return nullptr;
}

Json &Json::push(Json v) {
  if (type_ == Type::Null)
    type_ = Type::Array;
  items_.push_back(std::move(v));
  return items_.back();
}

double Json::number() const {
  if (type_ == Type::Int)
    return double(i_);
  if (type_ == Type::Number)
    return d_;
  return NAN;
}

std::string jsonEscape(const std::string &s) {
  std::string out = "\"";
  for (unsigned char c : s) {
    switch (c) {
    case '"': out += "\\\""; break;
    case '\\': out += "\\\\"; break;
    case '\n': out += "\\n"; break;
    case '\r': out += "\\r"; break;
    case '\t': out += "\\t"; break;
    default:
      if (c < 0x20) {
        char buf[8];
        std::snprintf(buf, sizeof buf, "\\u%04x", c);
        out += buf;
      } else {
        out += char(c);
      }
    }
  }
  return out + "\"";
}

void Json::dumpTo(std::string &out, int indent, int depth) const {
  auto newline = [&](int d) {
    if (indent <= 0)
      return;
    out += '\n';
    out.append(size_t(indent * d), ' ');
  };
  switch (type_) {
  case Type::Null: out += "null"; break;
  case Type::Bool: out += b_ ? "true" : "false"; break;
  case Type::Int: out += std::to_string(i_); break;
  case Type::Number: {
    if (!std::isfinite(d_)) {
      out += "null";
      break;
    }
    char buf[40];
    std::snprintf(buf, sizeof buf, "%.6g", d_);
    // Keep more digits for large values (e.g. kernels/s) so nothing is lost.
    if (std::fabs(d_) >= 1e6 && std::fabs(d_) < 1e15)
      std::snprintf(buf, sizeof buf, "%.1f", d_);
    out += buf;
    break;
  }
  case Type::String: out += jsonEscape(s_); break;
  case Type::Array: {
    if (items_.empty()) {
      out += "[]";
      break;
    }
    // Arrays of scalars stay on one line.
    bool flat = true;
    for (const auto &v : items_)
      if (v.type_ == Type::Array || v.type_ == Type::Object)
        flat = false;
    out += '[';
    bool firstItem = true;
    for (const auto &item : items_) {
      if (!firstItem)
        out += flat ? ", " : ",";
      firstItem = false;
      if (!flat)
        newline(depth + 1);
      item.dumpTo(out, indent, depth + 1);
    }
    if (!flat)
      newline(depth);
    out += ']';
    break;
  }
  case Type::Object: {
    if (members_.empty()) {
      out += "{}";
      break;
    }
    out += '{';
    bool firstMember = true;
    for (const auto &[key, value] : members_) {
      if (!firstMember)
        out += ',';
      firstMember = false;
      newline(depth + 1);
      out += jsonEscape(key);
      out += indent > 0 ? ": " : ":";
      value.dumpTo(out, indent, depth + 1);
    }
    newline(depth);
    out += '}';
    break;
  }
  }
}

std::string Json::dump(int indent) const {
  std::string out;
  dumpTo(out, indent, 0);
  if (indent > 0)
    out += '\n';
  return out;
}

} // namespace atoll_bench
