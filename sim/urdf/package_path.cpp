#include "sim/urdf/package_path.hpp"

#include <cstdlib>
#include <filesystem>

namespace impetus {
namespace {

namespace fs = std::filesystem;

constexpr std::string_view kPackageScheme = "package://";
constexpr std::string_view kFileScheme = "file://";

std::string joined(const std::vector<std::string>& dirs) {
  std::string out;
  for (const std::string& d : dirs) out += (out.empty() ? "" : ":") + d;
  return out;
}

std::string relative_to(const std::string& base_dir, const std::string& path) {
  const fs::path p(path);
  return (p.is_absolute() ? p : fs::path(base_dir) / p).lexically_normal().string();
}

}  // namespace

std::vector<std::string> ros_package_path() {
  std::vector<std::string> dirs;
  const char* value = std::getenv("ROS_PACKAGE_PATH");
  if (!value) return dirs;
  const std::string text(value);
  std::size_t begin = 0;
  while (begin <= text.size()) {
    std::size_t end = text.find(':', begin);
    if (end == std::string::npos) end = text.size();
    if (end > begin) dirs.push_back(text.substr(begin, end - begin));
    begin = end + 1;
  }
  return dirs;
}

std::string folder_of(const std::string& file) {
  const fs::path parent = fs::path(file).parent_path();
  return parent.empty() ? "." : parent.string();
}

ResolvedPath resolve_resource(const std::string& reference, const std::string& base_dir,
                              const std::vector<std::string>& package_path) {
  const std::string_view ref(reference);
  if (ref.starts_with(kPackageScheme)) {
    const std::string rest(ref.substr(kPackageScheme.size()));
    const std::size_t slash = rest.find('/');
    const std::string name = rest.substr(0, slash);
    const std::string inside = slash == std::string::npos ? "" : rest.substr(slash + 1);
    if (name.empty()) return {"", "'" + reference + "' names no package (expected package://NAME/PATH)"};
    std::error_code error;
    for (const std::string& dir : package_path)
      if (fs::is_directory(fs::path(dir) / name, error))
        return {(fs::path(dir) / name / inside).lexically_normal().string(), ""};
    if (package_path.empty())
      return {"", "cannot resolve '" + reference + "': ROS_PACKAGE_PATH is not set; set it to a colon-separated "
                  "list of folders, one of which holds the folder '" + name + "'"};
    return {"", "cannot resolve '" + reference + "': no folder of ROS_PACKAGE_PATH (" + joined(package_path) +
                ") holds a folder '" + name + "'"};
  }
  if (ref.starts_with(kFileScheme)) return {relative_to(base_dir, std::string(ref.substr(kFileScheme.size()))), ""};
  if (const std::size_t colon = ref.find("://"); colon != std::string_view::npos)
    return {"", "unsupported URI scheme '" + std::string(ref.substr(0, colon)) + "://' in '" + reference +
                "' (supported: package://, file://, plain paths)"};
  if (reference.empty()) return {"", "empty file name"};
  return {relative_to(base_dir, reference), ""};
}

}  // namespace impetus
