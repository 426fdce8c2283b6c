// Restart points as text (restart_point.hpp).
#include "sim/restart_point.hpp"

#include <cerrno>
#include <cstdio>
#include <cstdlib>
#include <fstream>
#include <limits>
#include <sstream>
#include <stdexcept>
#include <vector>

#include "base/load_error.hpp"

namespace impetus {

namespace {

constexpr const char* kHeader = "impetus restart point 2";
constexpr long kMaxCount = 1L << 24;   // entries of one record; more is not a restart point of ours

class Writer {
 public:
  explicit Writer(FILE* f) : f_(f) {}
  Writer& word(const char* w) {
    std::fprintf(f_, first_ ? "%s" : " %s", w);
    first_ = false;
    return *this;
  }
  Writer& integer(long x) {
    std::fprintf(f_, first_ ? "%ld" : " %ld", x);
    first_ = false;
    return *this;
  }
  Writer& real(double x) {
    std::fprintf(f_, first_ ? "%.17g" : " %.17g", x);
    first_ = false;
    return *this;
  }
  Writer& vector(const Eigen::VectorXd& x) {
    integer(x.size());
    for (double e : x) real(e);
    return *this;
  }
  Writer& key(const ContactKey& k) { return integer(k.geom_a).integer(k.geom_b).integer(k.feature); }
  void end() {
    std::fputc('\n', f_);
    first_ = true;
  }

 private:
  FILE* f_;
  bool first_ = true;
};

void write_impulses(Writer& w, const ImpulseMemory& impulses) {
  for (const auto& [key, p] : impulses) {
    w.word("contact").key(key).real(p[0]).real(p[1]).real(p[2]);
    w.end();
  }
}

/// Reads the file record by record, each a line of words; every refusal names the file and the line.
class Reader {
 public:
  explicit Reader(const std::string& path) : path_(path), in_(path) {
    if (!in_) throw LoadError(path, 0, "cannot read the restart point");
  }
  /// The next line, which must exist.
  void line() {
    std::string text;
    if (!std::getline(in_, text)) fail("the file ends early (a restart point written in part?)");
    ++line_;
    words_.str(text);
    words_.clear();
  }
  void expect(const char* word) {
    std::string w;
    if (!(words_ >> w) || w != word) fail(std::string("expected \"") + word + "\"");
  }
  long integer(long lo, long hi) {
    std::string w;
    char* end = nullptr;
    long x = 0;
    if (words_ >> w) {
      errno = 0;
      x = std::strtol(w.c_str(), &end, 10);
    }
    if (end == nullptr || *end != '\0' || errno != 0 || x < lo || x > hi)
      fail("expected a whole number in [" + std::to_string(lo) + ", " + std::to_string(hi) + "]");
    return x;
  }
  /// strtod reads what %.17g printed back to the same bits (subnormals included, for which it sets ERANGE).
  double real() {
    std::string w;
    char* end = nullptr;
    double x = 0;
    if (words_ >> w) x = std::strtod(w.c_str(), &end);
    if (end == nullptr || end == w.c_str() || *end != '\0') fail("expected a number, got \"" + w + "\"");
    return x;
  }
  void vector(Eigen::VectorXd& x, long size, const char* what) {
    const long n = integer(0, kMaxCount);
    if (size >= 0 && n != size)
      fail(std::string(what) + " has " + std::to_string(n) + " entries, the scene " + std::to_string(size));
    x.resize(n);
    for (long i = 0; i < n; ++i) x[i] = real();
  }
  ContactKey key() {
    constexpr long lo = std::numeric_limits<int>::min(), hi = std::numeric_limits<int>::max();
    ContactKey k;
    k.geom_a = static_cast<int>(integer(lo, hi));
    k.geom_b = static_cast<int>(integer(lo, hi));
    k.feature = static_cast<int>(integer(lo, hi));   // a pair's own id of the point (collision/contact_set.hpp)
    return k;
  }
  void end() {
    std::string w;
    if (words_ >> w) fail("unexpected \"" + w + "\" at the end of the line");
  }
  [[noreturn]] void fail(const std::string& message) const { throw LoadError(path_, line_, message); }

 private:
  std::string path_;
  std::ifstream in_;
  std::istringstream words_;
  int line_ = 0;
};

void read_impulses(Reader& r, long count, ImpulseMemory& impulses) {
  for (long i = 0; i < count; ++i) {
    r.line();
    r.expect("contact");
    const ContactKey key = r.key();
    Eigen::Vector3d p;
    for (int j = 0; j < 3; ++j) p[j] = r.real();
    r.end();
    impulses[key] = p;
  }
}

}  // namespace

void write_restart_point(const std::string& path, const RestartPoint& point) {
  const std::string temporary = path + ".partial";
  FILE* f = std::fopen(temporary.c_str(), "w");
  if (f == nullptr) throw std::runtime_error(temporary + ": cannot write the restart point");
  Writer w(f);
  const State& state = point.state;
  const WarmStartMemory& warm = point.memory.warm_start;
  const ControlMemory& control = point.memory.control;
  std::fprintf(f, "%s\n", kHeader);
  w.word("t").real(state.t);
  w.end();
  w.word("q").vector(state.q);
  w.end();
  w.word("v").vector(state.v);
  w.end();
  w.word("impulses").integer(static_cast<long>(warm.impulses.size()));
  w.end();
  write_impulses(w, warm.impulses);
  w.word("body_plane").integer(static_cast<long>(warm.body_plane.size()));
  w.end();
  for (const auto& [body, s] : warm.body_plane) {
    w.word("body").integer(body).real(s.a1_W[0]).real(s.a1_W[1]).real(s.a1_W[2]);
    for (int j = 0; j < 4; ++j) w.real(s.p[j]);
    w.real(s.sigma).vector(s.l);
    w.end();
  }
  w.word("control").integer(control.step).word("applied_before").integer(static_cast<long>(control.applied_before.size()));
  w.word("slots").integer(static_cast<long>(control.slots.size()));
  w.end();
  write_impulses(w, control.applied_before);
  for (const ControlMemory::Slot& slot : control.slots) {
    w.word("slot").integer(slot.has_tau).word("held").vector(slot.held);
    w.word("integral").vector(slot.controller.integral);
    w.word("source").integer(static_cast<long>(slot.controller.source.size())).vector(slot.controller.source);
    w.word("pending").integer(static_cast<long>(slot.pending.size()));
    w.word("prediction").integer(static_cast<long>(slot.controller.prediction.p_N.size()));
    w.end();
    for (const auto& [step, tau] : slot.pending) {
      w.word("pending").integer(step);
      for (double x : tau) w.real(x);
      w.end();
    }
    for (const auto& [key, p_N] : slot.controller.prediction.p_N) {
      w.word("prediction").key(key).real(p_N);
      w.end();
    }
    const PredictionMemory& basis = slot.controller.prediction;   // id_qp_*'s settled set and (QP6) basis
    w.word("basis").integer(static_cast<long>(basis.keys.size()));
    w.end();
    for (std::size_t i = 0; i < basis.keys.size(); ++i) {
      w.word("basis").key(basis.keys[i]).integer(basis.set[i]);
      w.end();
    }
    w.word("lcp").vector(basis.lcp);
    w.end();
  }
  if (std::fclose(f) != 0 || std::rename(temporary.c_str(), path.c_str()) != 0)
    throw std::runtime_error(path + ": cannot write the restart point");
}

RestartPoint read_restart_point(const std::string& path, const WorldModel& model) {
  Reader r(path);
  RestartPoint point;
  State& state = point.state;
  WarmStartMemory& warm = point.memory.warm_start;
  ControlMemory& control = point.memory.control;
  long version = 0;   // 1: written before id_qp_* kept a basis (QP19); its controllers resume cold
  {
    r.line();
    for (const char* word : {"impetus", "restart", "point"}) r.expect(word);
    version = r.integer(1, 2);
    r.end();
  }
  r.line();
  r.expect("t");
  state.t = r.real();
  r.end();
  r.line();
  r.expect("q");
  r.vector(state.q, model.multibody.nq, "q");
  r.end();
  r.line();
  r.expect("v");
  r.vector(state.v, model.multibody.nv, "v");
  r.end();

  r.line();
  r.expect("impulses");
  const long impulses = r.integer(0, kMaxCount);
  r.end();
  read_impulses(r, impulses, warm.impulses);
  r.line();
  r.expect("body_plane");
  const long pairs = r.integer(0, kMaxCount);
  r.end();
  for (long i = 0; i < pairs; ++i) {
    r.line();
    r.expect("body");
    const int body = static_cast<int>(r.integer(0, static_cast<long>(model.multibody.links.size()) - 1));
    BodyPlaneWarmStart& s = warm.body_plane[body];
    for (int j = 0; j < 3; ++j) s.a1_W[j] = r.real();
    for (int j = 0; j < 4; ++j) s.p[j] = r.real();
    s.sigma = r.real();
    r.vector(s.l, -1, "l");
    r.end();
  }

  r.line();
  r.expect("control");
  control.step = r.integer(0, 1L << 62);
  r.expect("applied_before");
  const long sensed = r.integer(0, kMaxCount);
  r.expect("slots");
  const long slots = r.integer(0, kMaxCount);
  if (slots != static_cast<long>(model.controllers.size()))
    r.fail("the restart point has " + std::to_string(slots) + " controllers, the scene " +
           std::to_string(model.controllers.size()));
  r.end();
  read_impulses(r, sensed, control.applied_before);
  for (long c = 0; c < slots; ++c) {
    const long na = static_cast<long>(model.controllers[c].links.size());
    ControlMemory::Slot& slot = control.slots.emplace_back();
    r.line();
    r.expect("slot");
    slot.has_tau = r.integer(0, 1) == 1;
    r.expect("held");
    r.vector(slot.held, na, "held τ");
    r.expect("integral");
    r.vector(slot.controller.integral, na, "∫e");
    r.expect("source");
    const long source = r.integer(0, kMaxCount);
    r.vector(slot.controller.source, source, "the trajectory's memory");
    r.expect("pending");
    const long pending = r.integer(0, kMaxCount);
    r.expect("prediction");
    const long predicted = r.integer(0, kMaxCount);
    r.end();
    for (long i = 0; i < pending; ++i) {
      r.line();
      r.expect("pending");
      const long step = r.integer(0, 1L << 62);
      Eigen::VectorXd tau(na);
      for (long a = 0; a < na; ++a) tau[a] = r.real();
      r.end();
      slot.pending.emplace_back(step, std::move(tau));
    }
    for (long i = 0; i < predicted; ++i) {
      r.line();
      r.expect("prediction");
      const ContactKey key = r.key();
      slot.controller.prediction.p_N[key] = r.real();
      r.end();
    }
    if (version < 2) continue;
    PredictionMemory& basis = slot.controller.prediction;
    r.line();
    r.expect("basis");
    const long kept = r.integer(0, kMaxCount);
    r.end();
    for (long i = 0; i < kept; ++i) {
      r.line();
      r.expect("basis");
      basis.keys.push_back(r.key());
      basis.set.push_back(static_cast<char>(r.integer(0, 1)));
      r.end();
    }
    r.line();
    r.expect("lcp");
    r.vector(basis.lcp, -1, "the (QP6) basis");
    r.end();
  }
  return point;
}

}  // namespace impetus
