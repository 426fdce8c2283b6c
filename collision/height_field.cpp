// Height-map ground (height_field.hpp).
#include "collision/height_field.hpp"

#include <algorithm>
#include <cmath>
#include <cstdint>
#include <limits>
#include <stdexcept>
#include <string>

#include "collision/ground_contacts.hpp"

namespace impetus {
namespace {

/// Two minima closer than this fraction of a cell are one contact (the same point reached from two
/// triangles whose rounding disagreed on its region).
constexpr double kSamePoint = 1e-9;

enum class Region { Face, EdgeAB, EdgeBC, EdgeCA, VertexA, VertexB, VertexC };

/// The point of triangle abc closest to p, and the region it lies in (Ericson §5.1.5).
Eigen::Vector3d closest_on_triangle(const Eigen::Vector3d& p, const Eigen::Vector3d& a, const Eigen::Vector3d& b,
                                    const Eigen::Vector3d& c, Region& region) {
  const Eigen::Vector3d ab = b - a, ac = c - a, ap = p - a;
  const double d1 = ab.dot(ap), d2 = ac.dot(ap);
  if (d1 <= 0 && d2 <= 0) return region = Region::VertexA, a;
  const Eigen::Vector3d bp = p - b;
  const double d3 = ab.dot(bp), d4 = ac.dot(bp);
  if (d3 >= 0 && d4 <= d3) return region = Region::VertexB, b;
  const double vc = d1 * d4 - d3 * d2;
  if (vc <= 0 && d1 >= 0 && d3 <= 0) return region = Region::EdgeAB, a + d1 / (d1 - d3) * ab;
  const Eigen::Vector3d cp = p - c;
  const double d5 = ab.dot(cp), d6 = ac.dot(cp);
  if (d6 >= 0 && d5 <= d6) return region = Region::VertexC, c;
  const double vb = d5 * d2 - d1 * d6;
  if (vb <= 0 && d2 >= 0 && d6 <= 0) return region = Region::EdgeCA, a + d2 / (d2 - d6) * ac;
  const double va = d3 * d6 - d5 * d4;
  if (va <= 0 && d4 - d3 >= 0 && d5 - d6 >= 0)
    return region = Region::EdgeBC, b + (d4 - d3) / ((d4 - d3) + (d5 - d6)) * (c - b);
  const double denom = 1 / (va + vb + vc);
  region = Region::Face;
  return a + ab * (vb * denom) + ac * (vc * denom);
}

/// One triangle of the sheet: its nodes (linear indices) and corners.
struct Triangle {
  int id = 0;                     // 2·cell + k
  int node[3];
  Eigen::Vector3d p[3];
};

/// A feature of the sheet as one key: a face (its triangle), an edge (its two nodes) or a vertex (a node).
std::uint64_t face_key(int triangle) { return (std::uint64_t{1} << 62) | static_cast<std::uint32_t>(triangle); }
std::uint64_t edge_key(int u, int v) {
  return (std::uint64_t{2} << 62) | (static_cast<std::uint64_t>(std::min(u, v)) << 31) | static_cast<std::uint32_t>(std::max(u, v));
}
std::uint64_t vertex_key(int u) { return (std::uint64_t{3} << 62) | static_cast<std::uint32_t>(u); }

std::uint64_t feature_key(const Triangle& t, Region r) {
  switch (r) {
    case Region::Face: return face_key(t.id);
    case Region::EdgeAB: return edge_key(t.node[0], t.node[1]);
    case Region::EdgeBC: return edge_key(t.node[1], t.node[2]);
    case Region::EdgeCA: return edge_key(t.node[2], t.node[0]);
    case Region::VertexA: return vertex_key(t.node[0]);
    case Region::VertexB: return vertex_key(t.node[1]);
    case Region::VertexC: return vertex_key(t.node[2]);
  }
  return 0;
}

bool incident(const Triangle& t, std::uint64_t key) {
  const auto has = [&](int n) { return t.node[0] == n || t.node[1] == n || t.node[2] == n; };
  switch (key >> 62) {
    case 1: return face_key(t.id) == key;
    case 2: return has(static_cast<int>((key >> 31) & 0x7fffffffu)) && has(static_cast<int>(key & 0x7fffffffu));
    default: return has(static_cast<int>(key & 0xffffffffu));
  }
}

struct Candidate {
  std::uint64_t key;
  int triangle;                   // index into the enumerated triangles
  Eigen::Vector3d q;
};

class Sheet {
 public:
  explicit Sheet(const HeightField& f) : f_(f) {}

  Triangle triangle(int i, int j, int k) const {
    const int n = f_.nx() + 1;
    Triangle t;
    t.id = 2 * (j * f_.nx() + i) + k;
    const int corners[2][3][2] = {{{0, 0}, {1, 0}, {1, 1}}, {{0, 0}, {1, 1}, {0, 1}}};
    for (int v = 0; v < 3; ++v) {
      const int ii = i + corners[k][v][0], jj = j + corners[k][v][1];
      t.node[v] = jj * n + ii;
      t.p[v] = f_.node(ii, jj);
    }
    return t;
  }

  /// Contacts of a sphere (centre c_W, radius r) with the sheet; `sphere` names it within its shape.
  void sphere(const Eigen::Vector3d& c, double r, double margin, int sphere, std::vector<PairContact>& out) {
    const double reach = r + margin;
    if (c.z() - reach > f_.max_height()) return;
    const Eigen::Vector2i lo = f_.cell_of(c.x() - reach, c.y() - reach), hi = f_.cell_of(c.x() + reach, c.y() + reach);
    triangles_.clear();
    candidates_.clear();
    distance_.clear();
    for (int j = lo.y(); j <= hi.y(); ++j)
      for (int i = lo.x(); i <= hi.x(); ++i)
        for (int k = 0; k < 2; ++k) {
          triangles_.push_back(triangle(i, j, k));
          const Triangle& t = triangles_.back();
          Region region;
          const Eigen::Vector3d q = closest_on_triangle(c, t.p[0], t.p[1], t.p[2], region);
          distance_.push_back(signed_distance(t, c, q));
          if (distance_.back() - r > margin) continue;
          candidates_.push_back({feature_key(t, region), static_cast<int>(triangles_.size()) - 1, q});
        }
    const std::size_t first = out.size();
    const double tie = kSamePoint * f_.cell_size();
    for (const Candidate& cand : candidates_) {
      // An edge or vertex point is a local minimum of the distance unless a triangle sharing that edge or
      // vertex comes closer (the sheet near the point is made of those triangles only).
      if (cand.key >> 62 != 1) {
        const double d = distance_[cand.triangle];
        bool minimum = true;
        for (int t = 0; t < static_cast<int>(triangles_.size()) && minimum; ++t)
          if (incident(triangles_[t], cand.key) && distance_[t] < d - tie) minimum = false;
        if (!minimum) continue;
      }
      bool seen = false;
      for (std::size_t o = first; o < out.size() && !seen; ++o)
        seen = (out[o].p_W - midpoint(c, r, cand)).norm() < kSamePoint * f_.cell_size();
      if (seen) continue;
      const Triangle& t = triangles_[cand.triangle];
      const Eigen::Vector3d n_tri = (t.p[1] - t.p[0]).cross(t.p[2] - t.p[0]).normalized();
      const Eigen::Vector3d d = c - cand.q;
      PairContact s;
      if (below(t, c) || d.norm() == 0) {   // sunk through the face (or centred on it): along its normal
        s.n_W = n_tri;
        s.phi = n_tri.dot(d) - r;
      } else {
        s.n_W = d.normalized();
        s.phi = d.norm() - r;
      }
      if (s.phi > margin) continue;
      s.p_W = cand.q + 0.5 * s.phi * s.n_W;
      s.feature = feature_id({sphere, static_cast<int>(cand.key >> 62), static_cast<int>(cand.key & 0x7fffffff),
                                      static_cast<int>((cand.key >> 31) & 0x7fffffff)});
      const Eigen::Vector2i cell = f_.cell_of(cand.q.x(), cand.q.y());   // the sheet point's cell
      s.mu = f_.cell_mu(cell.x(), cell.y());
      out.push_back(s);
    }
  }

 private:
  /// c below the triangle's plane and over it (its vertical projection inside): a sphere sunk through the face.
  static bool below(const Triangle& t, const Eigen::Vector3d& c) {
    const Eigen::Vector3d n = (t.p[1] - t.p[0]).cross(t.p[2] - t.p[0]);
    if (n.dot(c - t.p[0]) >= 0) return false;
    for (int v = 0; v < 3; ++v) {   // the projection's side of each edge, in the xy-plane (counter-clockwise)
      const Eigen::Vector3d e = t.p[(v + 1) % 3] - t.p[v], w = c - t.p[v];
      if (e.x() * w.y() - e.y() * w.x() < 0) return false;
    }
    return true;
  }
  /// |c − q|, or minus c's depth under the face when c has sunk through it.
  static double signed_distance(const Triangle& t, const Eigen::Vector3d& c, const Eigen::Vector3d& q) {
    if (!below(t, c)) return (c - q).norm();
    const Eigen::Vector3d n = (t.p[1] - t.p[0]).cross(t.p[2] - t.p[0]).normalized();
    return n.dot(c - q);
  }
  static Eigen::Vector3d midpoint(const Eigen::Vector3d& c, double r, const Candidate& cand) {
    const Eigen::Vector3d d = c - cand.q;
    const double dist = d.norm();
    return dist > 0 ? Eigen::Vector3d(cand.q + 0.5 * (dist - r) * d / dist) : cand.q;
  }

  const HeightField& f_;
  std::vector<Triangle> triangles_;
  std::vector<Candidate> candidates_;
  std::vector<double> distance_;      // per enumerated triangle: signed_distance of its closest point
};

}  // namespace

HeightField::HeightField(Eigen::Vector2d origin, double cell, int nx, int ny, std::vector<double> heights,
                         std::vector<double> mu)
    : origin_(origin), h_(cell), nx_(nx), ny_(ny), z_(std::move(heights)), mu_(std::move(mu)) {
  if (!(h_ > 0) || !std::isfinite(h_) || nx_ < 1 || ny_ < 1 || !origin_.allFinite())
    throw std::invalid_argument("height field: cell size > 0, at least one cell each way and a finite origin expected");
  if (z_.size() != static_cast<std::size_t>((nx_ + 1) * (ny_ + 1)))
    throw std::invalid_argument("height field: " + std::to_string((nx_ + 1) * (ny_ + 1)) + " node heights expected, got " +
                                std::to_string(z_.size()));
  if (mu_.size() != static_cast<std::size_t>(nx_ * ny_))
    throw std::invalid_argument("height field: " + std::to_string(nx_ * ny_) + " cell friction coefficients expected, got " +
                                std::to_string(mu_.size()));
  for (double z : z_)
    if (!std::isfinite(z)) throw std::invalid_argument("height field: a height is not finite");
  for (double m : mu_)
    if (!(m >= 0)) throw std::invalid_argument("height field: a friction coefficient is negative or not a number");
  z_max_ = *std::max_element(z_.begin(), z_.end());
}

Eigen::Vector3d HeightField::node(int i, int j) const {
  return {origin_.x() + i * h_, origin_.y() + j * h_, node_height(i, j)};
}

bool HeightField::contains(double x, double y) const {
  return x >= origin_.x() && x <= origin_.x() + nx_ * h_ && y >= origin_.y() && y <= origin_.y() + ny_ * h_;
}

Eigen::Vector2i HeightField::cell_of(double x, double y) const {
  const auto index = [&](double u, double u0, int n) {
    const double k = std::floor((u - u0) / h_);
    return static_cast<int>(std::clamp(k, 0.0, static_cast<double>(n - 1)));
  };
  return {index(x, origin_.x(), nx_), index(y, origin_.y(), ny_)};
}

double HeightField::height(double x, double y, Eigen::Vector3d* normal) const {
  const Eigen::Vector2i c = cell_of(x, y);
  const double u = (x - origin_.x()) / h_ - c.x(), v = (y - origin_.y()) / h_ - c.y();
  const double z00 = node_height(c.x(), c.y()), z10 = node_height(c.x() + 1, c.y());
  const double z11 = node_height(c.x() + 1, c.y() + 1), z01 = node_height(c.x(), c.y() + 1);
  // Triangle 0 (u ≥ v): z = z00 + u(z10 − z00) + v(z11 − z10); triangle 1: z00 + u(z11 − z01) + v(z01 − z00).
  const double gx = u >= v ? z10 - z00 : z11 - z01, gy = u >= v ? z11 - z10 : z01 - z00;
  if (normal) *normal = Eigen::Vector3d(-gx / h_, -gy / h_, 1).normalized();
  return z00 + u * gx + v * gy;
}

namespace {

/// Test points x_W of the plane's rule, as ground_contacts reports them (with no margin, every one:
/// x = (p_x, p_y, φ)), against the sheet: the plane of the triangle under x.
void point_contacts(const HeightField& field, const std::vector<PairContact>& points, double margin,
                    std::vector<PairContact>& out) {
  for (const PairContact& p : points) {
    const Eigen::Vector3d x(p.p_W.x(), p.p_W.y(), p.phi);
    if (!field.contains(x.x(), x.y())) {
      if (p.phi <= margin) out.push_back(p);
      continue;
    }
    Eigen::Vector3d n;
    const double z = field.height(x.x(), x.y(), &n);
    PairContact s;
    s.n_W = n;
    s.phi = n.dot(x - Eigen::Vector3d(x.x(), x.y(), z));
    if (!(s.phi <= margin)) continue;
    s.p_W = x - 0.5 * s.phi * n;
    s.feature = p.feature;
    const Eigen::Vector3d sheet = x - s.phi * n;   // the point of the sheet's plane nearest x
    const Eigen::Vector2i cell = field.cell_of(sheet.x(), sheet.y());
    s.mu = field.cell_mu(cell.x(), cell.y());
    out.push_back(s);
  }
}

}  // namespace

void height_field_contacts(const HeightField& field, const ConvexShape& shape, const Eigen::Isometry3d& X_WG,
                           double margin, std::vector<PairContact>& out) {
  std::vector<PairContact> points;
  if (shape.kind == ConvexShape::Kind::kSphere || shape.kind == ConvexShape::Kind::kCapsule) {
    Sheet sheet(field);
    const Eigen::Vector3d a = X_WG.linear().col(2);
    const int spheres = shape.kind == ConvexShape::Kind::kSphere ? 1 : 2;
    for (int s = 0; s < spheres; ++s) {
      const Eigen::Vector3d c = X_WG.translation() + (spheres == 1 ? 0.0 : (s == 0 ? 1 : -1) * shape.half_length) * a;
      if (field.contains(c.x(), c.y())) {
        sheet.sphere(c, shape.radius, margin, s, out);
        continue;
      }
      ConvexShape ball;
      ball.kind = ConvexShape::Kind::kSphere;
      ball.radius = shape.radius;
      const std::size_t first = out.size();
      ground_contacts(ball, Eigen::Isometry3d(Eigen::Translation3d(c)), margin, out);
      for (std::size_t k = first; k < out.size(); ++k) out[k].feature = s;
    }
    return;
  }
  ground_contacts(shape, X_WG, std::numeric_limits<double>::infinity(), points);
  point_contacts(field, points, margin, out);
}

void height_field_contacts(const HeightField& field, const std::vector<Eigen::Vector3d>& points_G,
                           const Eigen::Isometry3d& X_WG, double margin, std::vector<PairContact>& out) {
  std::vector<PairContact> points;
  ground_contacts(points_G, X_WG, std::numeric_limits<double>::infinity(), points);
  point_contacts(field, points, margin, out);
}

}  // namespace impetus
