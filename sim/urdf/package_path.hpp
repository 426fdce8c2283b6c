// Where a file named in a URDF or a scene lives.
//
//   package://NAME/REST   DIR/NAME/REST for the first DIR of the colon-separated ROS_PACKAGE_PATH
//                         that holds a folder NAME (the ROS convention; DESIGN.md "Scene files").
//                         Nothing else is searched: with ROS_PACKAGE_PATH unset, or no DIR holding
//                         NAME, the reference is refused and the message says what to set.
//   file:///ABS           /ABS;  file://REL (non-standard) as REL below
//   /ABS                  itself
//   REL                   relative to the folder of the file that names it (the URDF or the scene)
// Other URI schemes (http://, model://, …) are refused.
#pragma once

#include <string>
#include <vector>

namespace impetus {

/// The folders of the environment variable ROS_PACKAGE_PATH, in order (empty entries skipped).
std::vector<std::string> ros_package_path();

struct ResolvedPath {
  std::string path;    // the file system path (not checked for existence)
  std::string error;   // why the reference cannot be resolved; empty on success
  bool ok() const { return error.empty(); }
};

/// Resolves `reference` as above; `base_dir` is the folder of the file that names it.
ResolvedPath resolve_resource(const std::string& reference, const std::string& base_dir,
                              const std::vector<std::string>& package_path);

/// The folder of a file path ("." for a bare file name), for resolve_resource's base_dir.
std::string folder_of(const std::string& file);

}  // namespace impetus
