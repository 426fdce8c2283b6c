// The pieces of the self-contained HTML pages of compare and models-compare: one file, no network,
// data inlined as JSON; tables sort by a click on their header, plots are inline SVG.
#pragma once

#include <string>

#include "base/html_escape.hpp"

namespace impetus::batch {

/// A whole page: the style, `body`, the data as `const DATA = …;`, the shared script (sortable
/// tables; plot(element, series, yLabel) drawing [{name, t, y}] as lines), then `script`.
std::string html_page(const std::string& title, const std::string& body, const std::string& data_json,
                      const std::string& script);

}  // namespace impetus::batch
