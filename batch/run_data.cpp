#include "batch/run_data.hpp"

#include <cstdlib>
#include <fstream>
#include <sstream>

#include "batch/run_record.hpp"

namespace impetus::batch {

namespace fs = std::filesystem;

const std::vector<double>* Table::column(const std::string& name) const {
  for (std::size_t c = 0; c < names.size(); ++c)
    if (names[c] == name) return &columns[c];
  return nullptr;
}

std::optional<Table> read_table(const fs::path& file) {
  std::ifstream in(file);
  if (!in) return std::nullopt;
  Table t;
  std::string line;
  if (!std::getline(in, line)) return t;
  std::stringstream header(line);
  for (std::string name; std::getline(header, name, ',');) t.names.push_back(name);
  t.columns.resize(t.names.size());
  std::vector<double> row(t.names.size());
  while (std::getline(in, line)) {
    const char* p = line.c_str();
    std::size_t c = 0;
    for (; c < row.size(); ++c) {
      char* end = nullptr;
      row[c] = std::strtod(p, &end);
      if (end == p) break;
      p = end;
      if (c + 1 < row.size()) {
        if (*p != ',') break;
        ++p;
      }
    }
    if (c != row.size() || *p != '\0') break;
    for (c = 0; c < row.size(); ++c) t.columns[c].push_back(row[c]);
  }
  return t;
}

RunData read_run(const fs::path& dir) {
  RunData r;
  r.id = dir.filename().string();
  std::ifstream in(dir / "summary.json");
  if (in) {
    r.summary = nlohmann::json::parse(in, nullptr, false);
    if (r.summary.is_discarded()) r.summary = nullptr;
  }
  r.status = read_run_status(dir);
  if (r.status.empty() && r.summary.is_object() && r.summary.contains("status") && r.summary["status"].is_string())
    r.status = r.summary["status"];
  if (r.status.empty()) r.status = "missing";
  r.trajectory = read_table(dir / "trajectory.csv");
  return r;
}

std::map<std::string, fs::path> list_runs(const fs::path& batch_dir) {
  std::map<std::string, fs::path> runs;
  for (const auto& entry : fs::directory_iterator(batch_dir)) {
    const std::string name = entry.path().filename().string();
    if (!entry.is_directory() || name.empty() || name[0] == '.') continue;
    if (fs::exists(entry.path() / "run.json") || fs::exists(entry.path() / "summary.json")) runs[name] = entry.path();
  }
  return runs;
}

std::optional<double> json_number(const nlohmann::json& j, const std::string& path) {
  const nlohmann::json* node = &j;
  std::size_t begin = 0;
  while (begin <= path.size()) {
    const std::size_t end = std::min(path.find('/', begin), path.size());
    const std::string key = path.substr(begin, end - begin);
    if (!node->is_object() || !node->contains(key)) return std::nullopt;
    node = &(*node)[key];
    begin = end + 1;
  }
  if (!node->is_number()) return std::nullopt;
  return node->get<double>();
}

}  // namespace impetus::batch
