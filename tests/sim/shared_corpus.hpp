// The URDF conformance corpus of ../shared, beside the repository in CI and absent in a bare clone: tests
// that read it skip, saying so, when it is not there. The benchmarks read it too, so this header does
// not include GoogleTest; SKIP_WITHOUT_URDF_CORPUS expands only in a test.
#pragma once

#include <cstdlib>
#include <filesystem>
#include <optional>
#include <string>

namespace impetus::corpus {

inline std::string corpus_dir() { return IMPETUS_SOURCE_DIR "/../shared/urdf-corpus"; }

inline bool corpus_present() { return std::filesystem::exists(corpus_dir() + "/MANIFEST.json"); }

/// Sets ROS_PACKAGE_PATH for its lifetime.
class ScopedPackagePath {
 public:
  explicit ScopedPackagePath(const std::string& value) {
    if (const char* old = std::getenv("ROS_PACKAGE_PATH")) old_ = old;
    setenv("ROS_PACKAGE_PATH", value.c_str(), 1);
  }
  ~ScopedPackagePath() {
    if (old_) setenv("ROS_PACKAGE_PATH", old_->c_str(), 1);
    else unsetenv("ROS_PACKAGE_PATH");
  }
  ScopedPackagePath(const ScopedPackagePath&) = delete;
  ScopedPackagePath& operator=(const ScopedPackagePath&) = delete;

 private:
  std::optional<std::string> old_;
};

}  // namespace impetus::corpus

/// Skips the current test, with a message, when ../shared/urdf-corpus is absent.
#define SKIP_WITHOUT_URDF_CORPUS()                                                                   \
  do {                                                                                                 \
    if (!::impetus::corpus::corpus_present())                                                          \
      GTEST_SKIP() << "no URDF corpus at " << ::impetus::corpus::corpus_dir() << " (../shared is absent)"; \
  } while (false)
