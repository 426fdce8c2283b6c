#include "collision/geometry.hpp"

namespace impetus {

const char* shape_kind(const Shape& shape) {
  struct Kind {
    const char* operator()(const Sphere&) const { return "sphere"; }
    const char* operator()(const Box&) const { return "box"; }
    const char* operator()(const Cylinder&) const { return "cylinder"; }
    const char* operator()(const Capsule&) const { return "capsule"; }
    const char* operator()(const Mesh&) const { return "mesh"; }
  };
  return std::visit(Kind{}, shape);
}

}  // namespace impetus
