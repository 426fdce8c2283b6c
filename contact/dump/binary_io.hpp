// The byte-level reader and writer of contact-problem dumps (contact/dump/problem_dump.hpp): fixed-width
// little-endian integers, IEEE-754 binary64 doubles written bit for bit, lengths before contents. A reader
// that runs out of bytes or meets an impossible length throws DumpError naming the file and the byte offset.
#pragma once

#include <Eigen/Dense>
#include <Eigen/Sparse>
#include <cstdint>
#include <fstream>
#include <limits>
#include <stdexcept>
#include <string>
#include <vector>

namespace impetus::dump {

struct DumpError : std::runtime_error {
  using std::runtime_error::runtime_error;
};

static_assert(sizeof(double) == 8 && std::numeric_limits<double>::is_iec559, "dumps store IEEE-754 doubles");

class Writer {
 public:
  explicit Writer(std::ostream& out) : out_(out) {}
  void u32(std::uint32_t x) { raw(&x, sizeof x); }
  void i64(std::int64_t x) { raw(&x, sizeof x); }
  void f64(double x) { raw(&x, sizeof x); }
  void boolean(bool x) { u32(x ? 1 : 0); }
  void string(const std::string& s) {
    u32(static_cast<std::uint32_t>(s.size()));
    raw(s.data(), s.size());
  }
  void ints(const std::vector<int>& v) {
    i64(static_cast<std::int64_t>(v.size()));
    for (int x : v) i64(x);
  }
  template <class Derived>
  void dense(const Eigen::DenseBase<Derived>& m) {
    i64(m.rows());
    i64(m.cols());
    for (Eigen::Index j = 0; j < m.cols(); ++j)
      for (Eigen::Index i = 0; i < m.rows(); ++i) f64(m(i, j));
  }
  void sparse(const Eigen::SparseMatrix<double, Eigen::RowMajor>& s);

 private:
  void raw(const void* p, std::size_t n) { out_.write(static_cast<const char*>(p), static_cast<std::streamsize>(n)); }
  std::ostream& out_;
};

class Reader {
 public:
  Reader(std::istream& in, std::string file) : in_(in), file_(std::move(file)) {}
  std::uint32_t u32() { return pod<std::uint32_t>(); }
  std::int64_t i64() { return pod<std::int64_t>(); }
  double f64() { return pod<double>(); }
  bool boolean();
  /// Reads n bytes; false when the file ends first.
  bool bytes(char* out, std::size_t n) {
    in_.read(out, static_cast<std::streamsize>(n));
    offset_ += in_.gcount();
    return in_.gcount() == static_cast<std::streamsize>(n);
  }
  std::string string();
  std::vector<int> ints();
  Eigen::MatrixXd dense();
  Eigen::VectorXd vector();
  Eigen::SparseMatrix<double, Eigen::RowMajor> sparse();
  /// A count or size read from the file, refused when negative or beyond `limit`.
  std::int64_t size(std::int64_t limit, const char* what);
  [[noreturn]] void fail(const std::string& why) const;
  std::int64_t offset() const { return offset_; }

 private:
  template <class T>
  T pod() {
    T x{};
    in_.read(reinterpret_cast<char*>(&x), sizeof x);
    if (in_.gcount() != static_cast<std::streamsize>(sizeof x)) fail("the file ends early");
    offset_ += sizeof x;
    return x;
  }
  std::istream& in_;
  std::string file_;
  std::int64_t offset_ = 0;
};

}  // namespace impetus::dump
