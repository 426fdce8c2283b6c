// What compare and models-compare read of a run folder: its status, summary.json and the columns of
// trajectory.csv / stats.csv. Fields a reader does not know are ignored (other tools add to summary.json).
#pragma once

#include <filesystem>
#include <map>
#include <nlohmann/json.hpp>
#include <optional>
#include <string>
#include <vector>

namespace impetus::batch {

/// A CSV file of numbers with a header row: column name → values, in file order.
struct Table {
  std::vector<std::string> names;
  std::vector<std::vector<double>> columns;  // columns[c][row]
  std::size_t rows() const { return columns.empty() ? 0 : columns[0].size(); }
  const std::vector<double>* column(const std::string& name) const;
};

/// Reads a numeric CSV; an absent file gives nullopt, a malformed row ends the table there (a run
/// killed mid-write leaves at most one torn line).
std::optional<Table> read_table(const std::filesystem::path& file);

struct RunData {
  std::string id;
  std::string status;            // run.json's, else summary.json's, else "missing"
  nlohmann::json summary;        // null when absent
  std::optional<Table> trajectory;
};

RunData read_run(const std::filesystem::path& dir);

/// The run folders in a batch output folder (folders with run.json or summary.json), by id.
std::map<std::string, std::filesystem::path> list_runs(const std::filesystem::path& batch_dir);

/// A number at a JSON path ("energy/max_gain"); nullopt when absent or not a number.
std::optional<double> json_number(const nlohmann::json& j, const std::string& path);

}  // namespace impetus::batch
