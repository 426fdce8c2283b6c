#include "contact/dump/binary_io.hpp"

namespace impetus::dump {

namespace {
// No dumped dimension comes near these; a larger one means a corrupt file, refused before allocating.
constexpr std::int64_t kMaxEntries = std::int64_t{1} << 31;
constexpr std::int64_t kMaxString = std::int64_t{1} << 20;
}  // namespace

void Writer::sparse(const Eigen::SparseMatrix<double, Eigen::RowMajor>& s) {
  i64(s.rows());
  i64(s.cols());
  i64(s.nonZeros());
  for (Eigen::Index r = 0; r < s.outerSize(); ++r)
    for (Eigen::SparseMatrix<double, Eigen::RowMajor>::InnerIterator it(s, r); it; ++it) {
      i64(it.row());
      i64(it.col());
      f64(it.value());
    }
}

void Reader::fail(const std::string& why) const {
  throw DumpError(file_ + ": byte " + std::to_string(offset_) + ": " + why);
}

std::int64_t Reader::size(std::int64_t limit, const char* what) {
  const std::int64_t n = i64();
  if (n < 0 || n > limit) fail(std::string("impossible ") + what + " " + std::to_string(n));
  return n;
}

bool Reader::boolean() {
  const std::uint32_t x = u32();
  if (x > 1) fail("a boolean (0 or 1) expected, read " + std::to_string(x));
  return x == 1;
}

std::string Reader::string() {
  const std::uint32_t n = u32();
  if (n > kMaxString) fail("impossible string length " + std::to_string(n));
  std::string s(n, '\0');
  in_.read(s.data(), n);
  if (in_.gcount() != static_cast<std::streamsize>(n)) fail("the file ends early");
  offset_ += n;
  return s;
}

std::vector<int> Reader::ints() {
  std::vector<int> v(static_cast<std::size_t>(size(kMaxEntries, "length")));
  for (int& x : v) x = static_cast<int>(i64());
  return v;
}

Eigen::MatrixXd Reader::dense() {
  const std::int64_t rows = size(kMaxEntries, "row count"), cols = size(kMaxEntries, "column count");
  if (rows * cols > kMaxEntries) fail("impossible matrix size");
  Eigen::MatrixXd m(rows, cols);
  for (Eigen::Index j = 0; j < cols; ++j)
    for (Eigen::Index i = 0; i < rows; ++i) m(i, j) = f64();
  return m;
}

Eigen::VectorXd Reader::vector() {
  Eigen::MatrixXd m = dense();
  if (m.cols() != 1 && m.size() != 0) fail("a column vector expected");
  return Eigen::Map<Eigen::VectorXd>(m.data(), m.size());
}

Eigen::SparseMatrix<double, Eigen::RowMajor> Reader::sparse() {
  const std::int64_t rows = size(kMaxEntries, "row count"), cols = size(kMaxEntries, "column count");
  const std::int64_t nnz = size(kMaxEntries, "nonzero count");
  std::vector<Eigen::Triplet<double>> entries;
  entries.reserve(static_cast<std::size_t>(nnz));
  for (std::int64_t k = 0; k < nnz; ++k) {
    const std::int64_t r = i64(), c = i64();
    const double x = f64();
    if (r < 0 || r >= rows || c < 0 || c >= cols) fail("a sparse entry outside its matrix");
    entries.emplace_back(static_cast<int>(r), static_cast<int>(c), x);
  }
  Eigen::SparseMatrix<double, Eigen::RowMajor> s(rows, cols);
  // Entries were written row by row without duplicates, so the sum of duplicates never applies: the
  // matrix comes back with the stored values bit for bit, in the same order.
  s.setFromTriplets(entries.begin(), entries.end());
  return s;
}

}  // namespace impetus::dump
