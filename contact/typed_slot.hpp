// A value whose type its writer and reader agree on and the struct holding it does not name: what a
// model's ProblemNeeds add to a ContactProblem (contact/hull_plane.hpp), and the model's answer in its
// ContactResult. The storage is reused from step to step (no allocation once warm).
#pragma once

#include <any>

namespace impetus {

class TypedSlot {
 public:
  bool empty() const { return !value_.has_value(); }
  /// The value as T; throws std::bad_any_cast when the slot holds no T.
  template <class T>
  const T& as() const {
    return std::any_cast<const T&>(value_);
  }
  /// The value as T, or null when the slot holds no T.
  template <class T>
  const T* find() const {
    return std::any_cast<T>(&value_);
  }
  /// The writer's T: made on first use (a slot holding another type is emptied), reused after.
  template <class T>
  T& slot() {
    if (T* t = std::any_cast<T>(&value_)) return *t;
    return value_.emplace<T>();
  }
  void reset() { value_.reset(); }

 private:
  std::any value_;
};

}  // namespace impetus
