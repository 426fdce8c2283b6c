// A small scene of several islands, for the tests of the step loop as a whole (threads, allocation).
#pragma once

#include <sstream>
#include <string>

namespace impetus::test {

/// Boxes sliding and spinning apart on the ground, one box on another, spheres landing on the ground and on
/// each other: islands of one to a few contacts that come and go, at dt = `dt`.
inline std::string islands_scene(double dt) {
  std::ostringstream s;
  s << "<scene name=\"islands\"><physics dt=\"" << dt << "\" duration=\"1\" mu=\"0.4\"/><ground/>\n";
  const char* box_velocities[] = {"0.3 0 0", "0 -0.2 0", "0.1 0.1 0"};
  for (int i = 0; i < 3; ++i)
    s << "<body name=\"box" << i << "\" mass=\"" << 1 + i << "\"><origin xyz=\"" << 0.5 * i << " 0 0.1\" rpy=\"0 0 0\"/>"
      << "<velocity linear=\"" << box_velocities[i] << "\" angular=\"0 0 " << 0.5 * i << "\"/>"
      << "<collision><geometry><box size=\"0.2 0.2 0.2\"/></geometry></collision></body>\n";
  s << "<body name=\"base\" mass=\"2\"><origin xyz=\"0 1 0.1\" rpy=\"0 0 0\"/>"
       "<collision><geometry><box size=\"0.2 0.2 0.2\"/></geometry></collision></body>\n"
       "<body name=\"top\" mass=\"1\"><origin xyz=\"0.02 1 0.3\" rpy=\"0 0 0.3\"/><velocity linear=\"0.1 0 0\" angular=\"0 0 0\"/>"
       "<collision><geometry><box size=\"0.2 0.2 0.2\"/></geometry></collision></body>\n";
  // Three spheres on the ground, the fourth falling onto the third.
  const char* sphere_origins[] = {"0 -1 0.12", "0.4 -1 0.12", "0.8 -1 0.12", "0.81 -1 0.32"};
  for (int i = 0; i < 4; ++i)
    s << "<body name=\"sphere" << i << "\" mass=\"0.5\"><origin xyz=\"" << sphere_origins[i]
      << "\" rpy=\"0 0 0\"/><collision><geometry><sphere radius=\"0.1\"/></geometry></collision></body>\n";
  s << "</scene>\n";
  return s.str();
}

}  // namespace impetus::test
