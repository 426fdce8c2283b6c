#include "contact/dump/problem_dump.hpp"

#include <cstdio>
#include <cstring>

namespace impetus {

namespace {

using dump::Reader;
using dump::Writer;

constexpr char kMagic[8] = {'I', 'M', 'P', 'C', 'P', 'D', 'M', 'P'};
constexpr std::uint32_t kByteOrder = 0x01020304;
// Counts a sane dump never exceeds (islands, systems, contacts); beyond them the file is corrupt.
constexpr std::int64_t kMaxCount = std::int64_t{1} << 28;

void write_body_plane(Writer& w, const BodyPlanePair& b) {
  w.i64(b.body);
  w.i64(b.system);
  w.dense(b.p_LC);
  const bool has_hull = b.hull != nullptr;
  w.boolean(has_hull);
  if (has_hull) {
    w.dense(b.hull->vertices);
    w.dense(b.hull->normals);
    w.dense(b.hull->offsets);
    w.i64(static_cast<std::int64_t>(b.hull->faces.size()));
    for (const std::vector<int>& f : b.hull->faces) w.ints(f);
    w.f64(b.hull->diameter);
  }
  w.dense(b.n_W);
  w.f64(b.d);
  w.dense(b.t_W);
  w.dense(b.o_W);
  w.f64(b.mu);
  w.boolean(b.has_guess);
  w.dense(b.a1_guess);
  w.dense(b.l_guess);
  w.dense(b.p_guess);
  w.f64(b.sigma_guess);
}

template <class Fixed>
Fixed read_fixed(Reader& r, const char* what) {
  const Eigen::MatrixXd m = r.dense();
  if (m.rows() != Fixed::RowsAtCompileTime || m.cols() != Fixed::ColsAtCompileTime)
    r.fail(std::string("wrong size of ") + what);
  return m;
}

void read_body_plane(Reader& r, DumpedProblem& d, BodyPlanePair& b) {
  b.body = static_cast<int>(r.i64());
  b.system = static_cast<int>(r.i64());
  b.p_LC = read_fixed<Eigen::Vector3d>(r, "p_LC");
  if (r.boolean()) {
    BodyHull& h = d.hulls.emplace_back();
    const Eigen::MatrixXd vertices = r.dense(), normals = r.dense();
    if (vertices.rows() != 3 || normals.rows() != 3) r.fail("hull vertices and normals must have 3 rows");
    h.vertices = vertices;
    h.normals = normals;
    h.offsets = r.vector();
    h.faces.resize(static_cast<std::size_t>(r.size(kMaxCount, "face count")));
    for (std::vector<int>& f : h.faces) f = r.ints();
    h.diameter = r.f64();
    b.hull = &h;
  }
  b.n_W = read_fixed<Eigen::Vector3d>(r, "n_W");
  b.d = r.f64();
  b.t_W = read_fixed<Eigen::Vector3d>(r, "t_W");
  b.o_W = read_fixed<Eigen::Vector3d>(r, "o_W");
  b.mu = r.f64();
  b.has_guess = r.boolean();
  b.a1_guess = read_fixed<Eigen::Vector3d>(r, "a1_guess");
  b.l_guess = r.vector();
  b.p_guess = read_fixed<Eigen::Vector4d>(r, "p_guess");
  b.sigma_guess = r.f64();
}

void write_problem(Writer& w, const ContactProblem& p) {
  w.f64(p.dt);
  w.i64(p.nv);
  w.i64(static_cast<std::int64_t>(p.systems.size()));
  for (const SystemBlock& s : p.systems) {
    w.i64(s.offset);
    w.i64(s.size);
    w.dense(*s.M);
  }
  w.dense(p.v);
  w.dense(p.v_star);
  w.i64(p.nc);
  w.sparse(p.N);
  w.sparse(p.S);
  w.sparse(p.T);
  w.dense(p.phi);
  w.dense(p.mu);
  w.dense(p.mu_viscous);
  w.i64(static_cast<std::int64_t>(p.keys.size()));
  for (const ContactKey& k : p.keys) {
    w.i64(k.geom_a);
    w.i64(k.geom_b);
    w.i64(k.feature);
  }
  w.i64(p.nl);
  w.sparse(p.L);
  w.dense(p.phi_L);
  w.dense(p.p_N_guess);
  w.dense(p.p_S_guess);
  w.dense(p.p_T_guess);
  w.dense(p.p_L_guess);
  // The hull–plane part (contact/hull_plane.hpp), empty for a problem without it.
  const HullPlaneProblem none;
  const HullPlaneProblem* found = p.extension.find<HullPlaneProblem>();
  const HullPlaneProblem& h = found != nullptr ? *found : none;
  w.dense(h.q);
  w.ints(h.q_offsets);
  w.i64(static_cast<std::int64_t>(h.pairs.size()));
  for (const BodyPlanePair& b : h.pairs) write_body_plane(w, b);
  w.ints(h.replaced_by);
  w.f64(p.touch_margin);
}

void read_problem(Reader& r, std::uint32_t version, DumpedProblem& d) {
  ContactProblem& p = d.problem;
  p.dt = r.f64();
  p.nv = static_cast<int>(r.size(kMaxCount, "nv"));
  p.systems.resize(static_cast<std::size_t>(r.size(kMaxCount, "system count")));
  for (SystemBlock& s : p.systems) {
    s.offset = static_cast<int>(r.size(p.nv, "system offset"));
    s.size = static_cast<int>(r.size(p.nv - s.offset, "system size"));
    Eigen::MatrixXd& M = d.M.emplace_back(r.dense());
    if (M.rows() != s.size || M.cols() != s.size) r.fail("a system's M is not size × size");
    s.M = &M;
    s.M_llt = &d.M_llt.emplace_back(M);  // the stepper's factorization of the same M: the same bits
  }
  p.v = r.vector();
  p.v_star = r.vector();
  p.nc = static_cast<int>(r.size(kMaxCount, "nc"));
  p.N = r.sparse();
  p.S = r.sparse();
  p.T = r.sparse();
  p.phi = r.vector();
  p.mu = r.vector();
  p.mu_viscous = r.vector();
  p.keys.resize(static_cast<std::size_t>(r.size(kMaxCount, "key count")));
  for (ContactKey& k : p.keys) {
    k.geom_a = static_cast<int>(r.i64());
    k.geom_b = static_cast<int>(r.i64());
    k.feature = static_cast<int>(r.i64());
  }
  p.nl = static_cast<int>(r.size(kMaxCount, "nl"));
  p.L = r.sparse();
  p.phi_L = r.vector();
  p.p_N_guess = r.vector();
  p.p_S_guess = r.vector();
  p.p_T_guess = r.vector();
  p.p_L_guess = r.vector();
  HullPlaneProblem h;
  h.q = r.vector();
  h.q_offsets = r.ints();
  h.pairs.resize(static_cast<std::size_t>(r.size(kMaxCount, "body-plane pair count")));
  for (BodyPlanePair& b : h.pairs) read_body_plane(r, d, b);
  h.replaced_by = r.ints();
  p.touch_margin = version >= 2 ? r.f64() : std::numeric_limits<double>::infinity();

  // The sizes must agree, or a model would read out of bounds.
  const auto rows_ok = [&](const SparseRows& A, int n) { return A.rows() == n && A.cols() == p.nv; };
  if (p.v.size() != p.nv || p.v_star.size() != p.nv) r.fail("v or v* is not of size nv");
  if (!rows_ok(p.N, p.nc) || !rows_ok(p.S, p.nc) || !rows_ok(p.T, p.nc) || !rows_ok(p.L, p.nl))
    r.fail("N, S, T or L is not of size nc × nv (nl × nv)");
  if (p.phi.size() != p.nc || p.mu.size() != p.nc || p.mu_viscous.size() != p.nc ||
      static_cast<int>(p.keys.size()) != p.nc || p.phi_L.size() != p.nl)
    r.fail("φ, μ, μ_v, keys or φ_L has the wrong length");
  int next = 0;
  for (const SystemBlock& s : p.systems) {
    if (s.offset != next) r.fail("systems do not tile the island's velocity coordinates");
    next += s.size;
  }
  if (next != p.nv) r.fail("systems do not cover nv");
  for (const BodyPlanePair& b : h.pairs)
    if (b.system < 0 || b.system >= static_cast<int>(p.systems.size()) || !b.hull)
      r.fail("a body-plane pair without its system or hull");
  if (h.q.size() > 0 || !h.q_offsets.empty() || !h.pairs.empty() || !h.replaced_by.empty())
    p.extension.slot<HullPlaneProblem>() = std::move(h);
}

}  // namespace

std::string problem_dump_file_name(long step) {
  char name[32];
  std::snprintf(name, sizeof name, "step_%08ld.icp", step);
  return name;
}

void write_problem_dump(const std::string& path, const std::string& model, const ModelOptions& options, long step,
                        double t, const std::vector<ContactProblem>& problems, std::size_t count) {
  std::ofstream out(path, std::ios::binary | std::ios::trunc);
  if (!out) throw dump::DumpError(path + ": cannot be written");
  Writer w(out);
  out.write(kMagic, sizeof kMagic);
  w.u32(kProblemDumpVersion);
  w.u32(kByteOrder);
  w.string(model);
  w.u32(static_cast<std::uint32_t>(options.size()));
  for (const auto& [key, value] : options) {
    w.string(key);
    w.string(value);
  }
  w.i64(step);
  w.f64(t);
  w.u32(static_cast<std::uint32_t>(count));
  for (std::size_t k = 0; k < count; ++k) write_problem(w, problems[k]);
  out.flush();
  if (!out) throw dump::DumpError(path + ": write failed (disk full?)");
}

ProblemDump read_problem_dump(const std::string& path) {
  std::ifstream in(path, std::ios::binary);
  if (!in) throw dump::DumpError(path + ": cannot be opened");
  Reader r(in, path);
  char magic[sizeof kMagic];
  if (!r.bytes(magic, sizeof magic) || std::memcmp(magic, kMagic, sizeof kMagic) != 0)
    throw dump::DumpError(path + ": not a contact-problem dump (no IMPCPDMP header)");
  ProblemDump dump;
  const std::uint32_t version = r.u32();
  if (version != kProblemDumpVersion && version != 1)
    throw dump::DumpError(path + ": dump format version " + std::to_string(version) + ", this build reads version " +
                          std::to_string(kProblemDumpVersion));
  if (r.u32() != kByteOrder) throw dump::DumpError(path + ": written with another byte order");
  dump.model = r.string();
  const std::uint32_t n_options = r.u32();
  for (std::uint32_t i = 0; i < n_options; ++i) {
    std::string key = r.string();
    dump.options[key] = r.string();
  }
  dump.step = static_cast<long>(r.i64());
  dump.t = r.f64();
  const std::uint32_t n = r.u32();
  if (n > kMaxCount) r.fail("impossible problem count");
  for (std::uint32_t k = 0; k < n; ++k) read_problem(r, version, *dump.problems.emplace_back(std::make_unique<DumpedProblem>()));
  if (in.peek() != std::char_traits<char>::eof()) r.fail("bytes after the last problem");
  return dump;
}

}  // namespace impetus
