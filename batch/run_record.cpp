#include "batch/run_record.hpp"

#include <unistd.h>

#include <fstream>
#include <nlohmann/json.hpp>

namespace impetus::batch {

namespace fs = std::filesystem;

fs::path run_folder(const fs::path& out, const Run& run) { return out / run.id; }
fs::path partial_root(const fs::path& out) { return out / ".partial"; }

void write_run_json(const fs::path& dir, const Run& run, const RunRecord& record) {
  nlohmann::ordered_json j;
  j["id"] = run.id;
  j["status"] = record.status;
  j["exit_code"] = record.exit_code;
  j["wall_time_s"] = record.wall_time_s;
  j["scene"] = run.scene;
  j["model"] = run.model;
  j["dt"] = run.dt;
  j["duration"] = run.duration;
  nlohmann::ordered_json overrides = nlohmann::ordered_json::object();
  for (const Override& o : run.overrides) overrides[o.path] = o.value;
  j["overrides"] = overrides;
  char host[256] = "";
  gethostname(host, sizeof host - 1);
  j["host"] = host;
  std::ofstream(dir / "run.json") << j.dump(2) << '\n';
}

std::string read_run_status(const fs::path& dir) {
  std::ifstream in(dir / "run.json");
  if (!in) return "";
  const nlohmann::json j = nlohmann::json::parse(in, nullptr, false);
  if (j.is_discarded() || !j.contains("status") || !j["status"].is_string()) return "";
  return j["status"];
}

int exit_code_for(const std::string& status) {
  if (status == "ok") return 0;
  if (status.rfind("error:", 0) == 0) return 1;
  return 3;
}

}  // namespace impetus::batch
