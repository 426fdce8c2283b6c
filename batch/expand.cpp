#include "batch/expand.hpp"

#include <fnmatch.h>

#include <algorithm>
#include <cstdint>
#include <cstdio>
#include <filesystem>
#include <map>
#include <set>
#include <stdexcept>

namespace impetus::batch {
namespace {

/// FNV-1a, 64 bits: a hash that is the same on every machine and compiler (std::hash is not).
std::uint64_t fnv1a(const std::string& text) {
  std::uint64_t h = 0xcbf29ce484222325ULL;
  for (unsigned char c : text) {
    h ^= c;
    h *= 0x100000001b3ULL;
  }
  return h;
}

std::string hex8(std::uint64_t h) {
  char buffer[17];
  std::snprintf(buffer, sizeof buffer, "%08llx", static_cast<unsigned long long>(h & 0xffffffffULL));
  return buffer;
}

/// Characters a folder name can hold on any file system and shell without quoting.
std::string safe(const std::string& text) {
  std::string out;
  for (char c : text) {
    const bool ok = (c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z') || (c >= '0' && c <= '9') || c == '.' ||
                    c == '_' || c == '-' || c == '=' || c == '+';
    out += ok ? c : '_';
  }
  return out;
}

/// A short readable key for an override path: "physics/@mu" → "mu",
/// "physics/stewart_trinkle/@friction_edges" → "friction_edges", "body[box]/velocity/@linear" →
/// "box.velocity.linear".
std::string short_key(const std::string& path) {
  std::string p = path;
  if (p.rfind("physics/", 0) == 0) {
    p = p.substr(p.rfind('/') + 1);
  }
  std::string out;
  for (char c : p) {
    if (c == '@' || c == ']') continue;
    out += (c == '/' || c == '[') ? '.' : c;
  }
  return out;
}

/// What identifies a run, written out: the input of its hash, and of duplicate detection.
std::string canonical(const Run& r) {
  std::string text = "scene=" + r.scene + "\nmodel=" + r.model + "\ndt=" + format_number(r.dt) +
                     "\nduration=" + format_number(r.duration) + "\n";
  for (const Override& o : r.overrides) text += o.path + "=" + o.value + "\n";
  return text;
}

std::string readable_id(const Run& r) {
  std::string id = std::filesystem::path(r.scene).stem().string();
  for (const std::string& word : r.parameters()) {
    const std::size_t eq = word.find('=');
    const std::string key = word.substr(0, eq), value = word.substr(eq + 1);
    if (key == "model") id += "-" + value;
    else if (key == "dt") id += "-dt" + value;
    else if (key == "duration") id += "-T" + value;
    else id += "-" + key + "=" + value;
  }
  return safe(id);
}

bool excluded(const Run& r, const std::vector<Exclude>& excludes) {
  for (const Exclude& e : excludes) {
    bool match = true;
    if (!e.scene_glob.empty()) {
      const std::string stem = std::filesystem::path(r.scene).stem().string();
      match &= fnmatch(e.scene_glob.c_str(), stem.c_str(), 0) == 0 ||
               fnmatch(e.scene_glob.c_str(), r.scene.c_str(), 0) == 0;
    }
    if (!e.model.empty()) match &= r.model == e.model;
    if (!e.dt.empty()) match &= std::find(e.dt.begin(), e.dt.end(), r.dt) != e.dt.end();
    if (!e.duration.empty()) match &= std::find(e.duration.begin(), e.duration.end(), r.duration) != e.duration.end();
    for (const auto& [path, value] : e.params) {
      bool has = false;
      for (const Override& o : r.overrides) has |= (o.path == path || short_key(o.path) == path) && o.value == value;
      match &= has;
    }
    if (match) return true;
  }
  return false;
}

/// Every combination of `axes` (each a path and its values), appended to `base`'s overrides.
void product(const Run& base, const std::vector<std::pair<std::string, std::vector<std::string>>>& axes,
             std::size_t k, std::vector<Run>& out) {
  if (k == axes.size()) {
    out.push_back(base);
    return;
  }
  for (const std::string& value : axes[k].second) {
    Run r = base;
    r.overrides.push_back({axes[k].first, value});
    product(r, axes, k + 1, out);
  }
}

}  // namespace

std::vector<std::string> Run::parameters() const {
  std::vector<std::string> words;
  if (!model.empty()) words.push_back("model=" + model);
  if (dt > 0) words.push_back("dt=" + format_number(dt));
  if (duration >= 0) words.push_back("duration=" + format_number(duration));
  for (const Override& o : overrides) words.push_back(short_key(o.path) + "=" + o.value);
  return words;
}

std::vector<Run> expand(const Manifest& manifest) {
  std::vector<Run> runs;
  std::set<std::string> seen;
  for (const Matrix& m : manifest.matrices) {
    const std::vector<std::string> models = m.models.empty() ? std::vector<std::string>{""} : m.models;
    const std::vector<double> dts = m.dt.empty() ? std::vector<double>{0} : m.dt;
    const std::vector<double> durations = m.duration.empty() ? std::vector<double>{-1} : m.duration;
    for (std::size_t s = 0; s < m.scenes.size(); ++s)
      for (const std::string& model : models)
        for (double dt : dts)
          for (double duration : durations) {
            std::vector<std::pair<std::string, std::vector<std::string>>> axes;
            if (auto it = m.options.find(model); it != m.options.end())
              for (const auto& [option, values] : it->second) axes.push_back({"physics/" + model + "/@" + option, values});
            for (const auto& [path, values] : m.params) axes.push_back({path, values});
            Run base;
            base.scene = m.scenes[s];
            base.scene_path = m.scene_paths[s];
            base.model = model;
            base.dt = dt;
            base.duration = duration;
            std::vector<Run> combos;
            product(base, axes, 0, combos);
            for (Run& r : combos)
              if (!excluded(r, manifest.excludes) && seen.insert(canonical(r)).second) runs.push_back(std::move(r));
          }
  }
  // Readable ids; a hash of the parameters is appended where two runs would share one, or where
  // the id would be too long to read.
  std::map<std::string, int> uses;
  for (Run& r : runs) ++uses[r.id = readable_id(r)];
  for (Run& r : runs) {
    if (uses[r.id] > 1 || r.id.size() > kMaxReadableId) {
      const std::string head = r.id.substr(0, std::min(r.id.size(), kMaxReadableId - 9));
      r.id = head + "-" + hex8(fnv1a(canonical(r)));
    }
  }
  std::set<std::string> ids;
  for (const Run& r : runs)
    if (!ids.insert(r.id).second) throw std::logic_error("batch: two runs share the id " + r.id);
  return runs;
}

std::vector<std::size_t> shard_indices(std::size_t runs, std::size_t i, std::size_t n) {
  std::vector<std::size_t> out;
  for (std::size_t k = i; k < runs; k += n) out.push_back(k);
  return out;
}

}  // namespace impetus::batch
