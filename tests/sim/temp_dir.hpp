// A scratch folder for tests that write input files (scenes, URDFs, meshes), removed with the object,
// and the line of a marker in such an input (refusals must name the line of the fault).
#pragma once

#include <gtest/gtest.h>

#include <algorithm>
#include <atomic>
#include <filesystem>
#include <fstream>
#include <string>
#include <unistd.h>

namespace impetus::test {

class TempDir {
 public:
  /// A new folder named after `tag`, the process and a per-process count: ctest runs tests in
  /// parallel processes, and one test may hold several folders at once.
  explicit TempDir(const std::string& tag)
      : path_(std::filesystem::temp_directory_path() /
              ("impetus_" + tag + "_" + std::to_string(::getpid()) + "_" + std::to_string(next_id()))) {
    std::filesystem::create_directories(path_);
  }
  ~TempDir() { std::filesystem::remove_all(path_); }
  TempDir(const TempDir&) = delete;
  TempDir& operator=(const TempDir&) = delete;

  /// Writes `bytes` to `name` (folders created as needed); returns the file's path.
  std::string write(const std::string& name, const std::string& bytes) const {
    const std::filesystem::path file = path_ / name;
    std::filesystem::create_directories(file.parent_path());
    std::ofstream(file, std::ios::binary) << bytes;
    return file.string();
  }
  std::string path() const { return path_.string(); }

 private:
  static int next_id() {
    static std::atomic<int> count{0};
    return count++;
  }
  std::filesystem::path path_;
};

/// The 1-based line of `text` holding `marker`.
inline int line_of(const std::string& text, const std::string& marker = "<!-- here -->") {
  const std::size_t at = text.find(marker);
  EXPECT_NE(at, std::string::npos) << "marker " << marker << " missing from the test input";
  return 1 + static_cast<int>(std::count(text.begin(), text.begin() + at, '\n'));
}

}  // namespace impetus::test
