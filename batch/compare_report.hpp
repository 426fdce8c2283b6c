// What `impetus compare` shows: regressions first on the terminal, compare.md, and a self-contained
// compare.html (sortable table; for each regressed run the worst trajectory column overlaid,
// baseline against candidate).
#pragma once

#include <filesystem>
#include <iosfwd>

#include "batch/compare.hpp"

namespace impetus::batch {

void print_comparison(const Comparison& c, std::ostream& out);
void write_compare_md(const Comparison& c, const std::filesystem::path& file);
void write_compare_html(const Comparison& c, const std::filesystem::path& file, const std::string& baseline,
                        const std::string& candidate);

/// "3.2e-05 m" — a metric's size as the reports print it.
std::string format_size(const Metric& m);

}  // namespace impetus::batch
