// A small ordered JSON value for the results file (no dependency).
#pragma once

#include <cstdint>
#include <list>
#include <memory>
#include <string>
#include <utility>
#include <vector>

namespace atoll_bench {

class Json {
public:
  enum class Type { Null, Bool, Int, Number, String, Array, Object };

  Json() = default;
  Json(std::nullptr_t) {}
  Json(bool v) : type_(Type::Bool), b_(v) {}
  Json(int v) : type_(Type::Int), i_(v) {}
  Json(long v) : type_(Type::Int), i_(v) {}
  Json(long long v) : type_(Type::Int), i_(v) {}
  Json(unsigned v) : type_(Type::Int), i_(int64_t(v)) {}
  Json(unsigned long v) : type_(Type::Int), i_(int64_t(v)) {}
  Json(unsigned long long v) : type_(Type::Int), i_(int64_t(v)) {}
  Json(double v) : type_(Type::Number), d_(v) {}
  Json(float v) : type_(Type::Number), d_(v) {}
  Json(const char *s) : type_(Type::String), s_(s) {}
  Json(std::string s) : type_(Type::String), s_(std::move(s)) {}

  static Json array() {
    Json j;
    j.type_ = Type::Array;
    return j;
  }
  static Json object() {
    Json j;
    j.type_ = Type::Object;
    return j;
  }

  Type type() const { return type_; }
  bool isNull() const { return type_ == Type::Null; }

  /// Object member (created, in insertion order, when missing; a null becomes an object).
  Json &operator[](const std::string &key);
  /// Object member or nullptr.
  const Json *find(const std::string &key) const;
  /// Appends to an array (a null becomes an array).
  Json &push(Json v);
  size_t size() const { return type_ == Type::Array ? items_.size() : members_.size(); }
  /// The number (Int or Number), else NaN.
  double number() const;
  /// The string, else "".
  const std::string &string() const { return s_; }
  const std::list<Json> &items() const { return items_; }

  std::string dump(int indent = 2) const;

private:
  void dumpTo(std::string &out, int indent, int depth) const;

  Type type_ = Type::Null;
  bool b_ = false;
  int64_t i_ = 0;
  double d_ = 0;
  std::string s_;
  // Lists: references to members and items stay valid while others are added.
  std::list<Json> items_;
  std::list<std::pair<std::string, Json>> members_;
};

std::string jsonEscape(const std::string &s);

} // namespace atoll_bench
