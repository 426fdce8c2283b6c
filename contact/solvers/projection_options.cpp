#include "contact/solvers/projection_options.hpp"

#include <cerrno>
#include <cmath>
#include <cstdlib>

namespace impetus {
namespace {

[[noreturn]] void bad(const std::string& model, const std::string& key, const std::string& value,
                      const std::string& expected) {
  // The wording of contact/model_options.hpp, so that every model's errors read alike.
  throw OptionError("contact model '" + model + "': option " + key + "=\"" + value + "\": expected " + expected);
}

void check_range(const std::string& model, const std::string& key, const std::string& value, double x, double lo,
                 double hi, const std::string& range) {
  if (!(x > lo && x <= hi)) bad(model, key, value, range);
}

}  // namespace

double parse_double_option(const std::string& model, const std::string& key, const std::string& value) {
  const char* s = value.c_str();
  char* end = nullptr;
  errno = 0;
  const double x = std::strtod(s, &end);
  if (value.empty() || end != s + value.size() || errno == ERANGE || !std::isfinite(x))
    bad(model, key, value, "a finite number");
  return x;
}

int parse_int_option(const std::string& model, const std::string& key, const std::string& value) {
  const char* s = value.c_str();
  char* end = nullptr;
  errno = 0;
  const long x = std::strtol(s, &end, 10);
  if (value.empty() || end != s + value.size() || errno == ERANGE || x < -2147483647L || x > 2147483647L)
    bad(model, key, value, "an integer");
  return static_cast<int>(x);
}

bool parse_bool_option(const std::string& model, const std::string& key, const std::string& value) {
  if (value == "true" || value == "1") return true;
  if (value == "false" || value == "0") return false;
  bad(model, key, value, "true or false");
}

bool parse_projection_option(const std::string& model, const std::string& key, const std::string& value,
                             ProjectionOptions& options) {
  if (key == "solver") {
    if (value == "principal_pivoting") options.solver = ProjectionSolver::PrincipalPivoting;
    else if (value == "lemke") options.solver = ProjectionSolver::Lemke;
    else bad(model, key, value, "principal_pivoting or lemke");
  } else if (key == "warm_start") {
    options.warm_start = parse_bool_option(model, key, value);
  } else if (key == "max_pivots") {
    const int x = parse_int_option(model, key, value);
    if (x < 0) bad(model, key, value, "an integer ≥ 0");
    options.pivoting.max_pivots = x;
  } else if (key == "zero_tolerance") {
    const double x = parse_double_option(model, key, value);
    check_range(model, key, value, x, 0, 1e-3, "a number in (0, 1e-3]");
    options.pivoting.zero_tolerance = x;
  } else if (key == "dependence_tolerance") {
    const double x = parse_double_option(model, key, value);
    check_range(model, key, value, x, 0, 0.5, "a number in (0, 0.5]");
    options.pivoting.dependence_tolerance = x;
  } else if (key == "certificate_tolerance") {
    const double x = parse_double_option(model, key, value);
    check_range(model, key, value, x, 0, 1e-3, "a number in (0, 1e-3]");
    options.certificate_tolerance = x;
  } else {
    return false;
  }
  return true;
}

}  // namespace impetus
